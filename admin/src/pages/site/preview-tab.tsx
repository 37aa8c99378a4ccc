/**
 * The saved draft shown as the real site (contract/preview.ts previewUrl): the desktop site in a 1280-wide frame
 * scaled to fit, and the phone site (/m/) 390 wide, in Chinese or English, with the validator's errors and
 * warnings of the saved draft beside them. Unsaved changes are saved first (the frames read the saved draft
 * with the member's own session).
 */
import { Alert, Button, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { previewUrl, type PreviewLanguage } from '#contract/preview';
import type { SiteConfigReport } from '#contract/site-config/checks';
import { useConsole } from '../../store';
import { ProblemList } from './problem-list';

const DESKTOP_WIDTH = 1280;
const DESKTOP_HEIGHT = 800;
const PHONE_WIDTH = 390;
const PHONE_HEIGHT = 760;

/** The width of an element, followed as it changes. */
function useWidth<T extends HTMLElement>() {
  const [element, setElement] = useState<T | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!element) return undefined;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, width] as const;
}

export function PreviewTab(props: {
  domain: string;
  /** Changes not saved yet (the frames show the saved draft). */
  unsaved: boolean;
  onSave: () => Promise<unknown>;
  busy: boolean;
  /** Changes after every save: the frames load again. */
  reloadKey: number;
  problems: SiteConfigReport;
  onJump: (path: string) => void;
}) {
  const { t } = useTranslation();
  const consoleLanguage = useConsole((s) => s.language);
  const [language, setLanguage] = useState<PreviewLanguage>(consoleLanguage);
  const [reloads, setReloads] = useState(0);
  const [desktopBox, desktopWidth] = useWidth<HTMLDivElement>();
  const request = { kind: 'site' as const, domain: props.domain, language };
  const desktopUrl = previewUrl(request, { phone: false });
  const phoneUrl = previewUrl(request, { phone: true });
  const scale = desktopWidth > 0 ? Math.min(1, desktopWidth / DESKTOP_WIDTH) : 0.5;
  const frameKey = `${props.reloadKey}-${reloads}-${language}`;
  const problems = [
    ...props.problems.errors.map((p) => ({ ...p, severity: 'error' as const })),
    ...props.problems.warnings.map((p) => ({ ...p, severity: 'warning' as const })),
  ];

  return (
    <div className="site-preview" data-testid="site-preview">
      {props.unsaved && (
        <Alert
          type="warning"
          showIcon
          message={t('site.preview.saveFirst')}
          action={
            <Button
              size="small"
              type="primary"
              loading={props.busy}
              onClick={() => void props.onSave()}
              data-testid="site-preview-save"
            >
              {t('site.preview.saveAndPreview')}
            </Button>
          }
          className="site-alert"
        />
      )}
      <Space wrap className="site-preview__bar">
        <Radio.Group
          value={language}
          onChange={(event) => setLanguage(event.target.value as PreviewLanguage)}
          optionType="button"
          aria-label={t('site.preview.language')}
          options={[
            { value: 'zh', label: t('site.preview.zh') },
            { value: 'en', label: t('site.preview.en') },
          ]}
          data-testid="site-preview-language"
        />
        <Button onClick={() => setReloads((n) => n + 1)}>{t('site.preview.reload')}</Button>
        <Typography.Link href={desktopUrl} target="_blank" rel="noopener">
          {t('site.preview.open')}
        </Typography.Link>
      </Space>
      <div className="site-preview__body">
        <div className="site-preview__frames">
          <section className="site-preview__desktop" aria-label={t('site.preview.desktop')}>
            <h3>{t('site.preview.desktop')}</h3>
            <div ref={desktopBox} className="site-preview__desktop-box" style={{ height: DESKTOP_HEIGHT * scale }}>
              <iframe
                key={`d-${frameKey}`}
                src={desktopUrl}
                title={t('site.preview.frameDesktop', { domain: props.domain })}
                width={DESKTOP_WIDTH}
                height={DESKTOP_HEIGHT}
                style={{ transform: `scale(${scale})`, transformOrigin: '0 0' }}
                data-testid="site-preview-desktop"
              />
            </div>
          </section>
          <section className="site-preview__phone" aria-label={t('site.preview.phone')}>
            <h3>{t('site.preview.phone')}</h3>
            <iframe
              key={`p-${frameKey}`}
              src={phoneUrl}
              title={t('site.preview.framePhone', { domain: props.domain })}
              width={PHONE_WIDTH}
              height={PHONE_HEIGHT}
              data-testid="site-preview-phone"
            />
          </section>
        </div>
        <aside className="site-preview__problems" aria-label={t('site.problems.title')}>
          <ProblemList problems={problems} onJump={props.onJump} />
        </aside>
      </div>
    </div>
  );
}
