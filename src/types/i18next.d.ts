import 'i18next';
import type { Resources } from '@/app/i18n';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: { common: Resources };
  }
}
