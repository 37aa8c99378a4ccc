import 'i18next';
import type zhCommon from '@/locales/zh/common.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: { common: typeof zhCommon };
  }
}
