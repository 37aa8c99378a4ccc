/**
 * The frame of a registration screen: a white card on the grey page, 1200 px wide like the site, with the
 * screen's title, the race's name and the states every screen shares (loading, failure with a retry, no
 * race bound).
 */
import { Button, ConfigProvider, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '@/components/ui/antd-scope';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import type { Load } from '../utils/use-load';
import '../registration.css';
import '../registration-mobile.css';

const NO_SPACE = { autoInsertSpace: false };

export function ScreenFrame({
  title,
  subtitle,
  testId,
  children,
}: {
  title: string;
  subtitle?: string;
  testId: string;
  children: React.ReactNode;
}) {
  const language = useAppStore((s) => s.language);
  const race = useSiteStore((s) => s.race);
  const raceName = race ? pickLang(language, race.raceName, race.raceNameEn) : '';
  return (
    <div className="rs-page" data-testid={testId}>
      <section className="rs-card" aria-labelledby="rs-title">
        <header className="rs-card__head">
          {raceName ? <p className="rs-card__race">{raceName}</p> : null}
          <h1 id="rs-title" className="rs-card__title">
            {title}
          </h1>
          {subtitle ? <p className="rs-card__subtitle">{subtitle}</p> : null}
        </header>
        <AntdScope>
          {/* '提交', not antd's '提 交': the buttons read as the rest of the site's. */}
          <ConfigProvider button={NO_SPACE}>{children}</ConfigProvider>
        </AntdScope>
      </section>
    </div>
  );
}

/** The loading and failure states of a screen's data; the children render once it is in. */
export function LoadState<T>({
  load,
  retry,
  children,
}: {
  load: Load<T>;
  retry: () => void;
  children: (data: T) => React.ReactNode;
}) {
  const { t } = useTranslation();
  if (load.state === 'loading') {
    return (
      <div className="rs-state" role="status" data-testid="screen-loading">
        <Spin />
        <span>{t('registration.screen.loading')}</span>
      </div>
    );
  }
  if (load.state === 'failed') {
    return (
      <div className="rs-state rs-state--error" role="alert" data-testid="screen-error">
        <p>{load.message || t('registration.screen.loadError')}</p>
        <Button onClick={retry}>{t('registration.retry')}</Button>
      </div>
    );
  }
  return <>{children(load.data)}</>;
}

/** A message in place of a screen's content (no race, closed, ended …). */
export function ScreenNotice({
  tone = 'info',
  title,
  children,
  testId,
}: {
  tone?: 'info' | 'wait' | 'ok' | 'off';
  title: string;
  children?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className={`rs-notice rs-notice--${tone}`} role="status" data-testid={testId}>
      <strong className="rs-notice__title">{title}</strong>
      {children ? <div className="rs-notice__body">{children}</div> : null}
    </div>
  );
}
