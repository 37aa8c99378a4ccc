/**
 * /i18NDemos: the language selector helper (spec §2 "A named route 'I18NDemos' is reached from a language
 * selector helper", §4 "switching saves it in cookie 'language', changes the date locale and shows a success
 * message"): the current language, both choices, and a sample of what follows the language. Reached from the
 * language toggle's helper link (the banner; the mobile menu). Nothing event-specific comes from code: the
 * sample names the event by its site title (the event's configuration and race information).
 */
import { Radio } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '@/lib/language';
import { useSiteTitle } from '@/lib/site-title';
import { useAppStore, type Language } from '@/stores/app-store';
import { ScreenFrame } from './screen-frame';

const LANGUAGES: readonly Language[] = ['zh', 'en'];

export default function I18NDemosPage() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const title = useSiteTitle().trim();
  return (
    <ScreenFrame title={t('registration.i18n.title')} subtitle={t('registration.i18n.subtitle')} testId="i18n-page">
      <div className="rs-i18n">
        <p className="rs-i18n__current" data-testid="current-language">
          {t('registration.i18n.current')}
          <strong>{t(`registration.i18n.names.${language}`)}</strong>
        </p>
        <Radio.Group
          value={language}
          onChange={(e) => void switchLanguage(e.target.value as Language)}
          optionType="button"
          buttonStyle="solid"
          size="large"
          aria-label={t('registration.i18n.choose')}
          role="radiogroup"
          className="rs-i18n__choices"
          options={LANGUAGES.map((code) => ({
            value: code,
            // Each language names itself, so a reader of the other language finds it.
            label: <span lang={code === 'en' ? 'en' : 'zh-CN'}>{t(`registration.i18n.native.${code}`)}</span>,
          }))}
        />
        <dl className="rs-kv rs-i18n__sample">
          <div>
            <dt>{t('registration.i18n.sampleDate')}</dt>
            <dd data-testid="sample-date">{dayjs().format(t('registration.i18n.dateFormat'))}</dd>
          </div>
          <div>
            <dt>{t('registration.i18n.sampleText')}</dt>
            <dd data-testid="sample-text">
              {title ? t('registration.i18n.sample', { title }) : t('registration.i18n.sampleNoEvent')}
            </dd>
          </div>
        </dl>
      </div>
    </ScreenFrame>
  );
}
