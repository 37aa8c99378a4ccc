/** The language switch: zh ⇄ en, kept for the next visit (store.ts). */
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useConsole } from '../store';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language, setLanguage } = useConsole();
  const other = language === 'zh' ? 'en' : 'zh';
  return (
    <Button
      type="text"
      lang={other === 'en' ? 'en' : 'zh-CN'}
      title={t('shell.topBar.languageLabel')}
      onClick={() => setLanguage(other)}
      data-testid="console-language"
    >
      {t('shell.topBar.language')}
    </Button>
  );
}
