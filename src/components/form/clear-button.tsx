/**
 * The clear button of a select or an input, named in the page's language (issue 28: antd names a select's
 * clear button "Clear" and an input's by its icon, "close-circle", in Chinese as in English).
 */
import CloseCircleFilled from '@ant-design/icons/CloseCircleFilled';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** `allowClear` for a Select: the button's label, its icon hidden. */
export function useSelectClear() {
  const { t } = useTranslation();
  return useMemo(() => ({ clearIcon: <CloseCircleFilled aria-hidden />, label: t('form.clear') }), [t]);
}

/** `allowClear` for an Input: the icon, which is all the button holds, carries its name. */
export function useInputClear() {
  const { t } = useTranslation();
  return useMemo(() => ({ clearIcon: <CloseCircleFilled aria-label={t('form.clear')} /> }), [t]);
}
