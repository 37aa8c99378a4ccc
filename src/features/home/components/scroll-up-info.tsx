import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDocumentDate } from '#contract/race-clock';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import type { DocumentPage } from '#contract/site-config/schema';
import { useReducedMotion } from '../hooks/use-now';
import { DocumentLink } from './document-link';
import { MotionToggle } from './motion-toggle';

export const TICKER_INTERVAL_MS = 4000;

/**
 * Scroll-up info: the latest bulletins, one line at a time, each scrolling up out of view as the next
 * comes in. It pauses while hovered or focused; its pause button stops it until pressed again (WCAG 2.2.2),
 * and for visitors who prefer reduced motion it stands still until they press play (the arrows still step
 * through it).
 */
export function ScrollUpInfo({ items, listPath }: { items: DocumentPage[]; listPath: string | undefined }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const reduced = useReducedMotion();
  // The visitor's own choice (the pause / play button) wins over the reduced-motion preference.
  const [playing, setPlaying] = useState<boolean | null>(null);
  const running = playing ?? !reduced;
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [index, setIndex] = useState(0);
  // With two items the one leaving would come straight back from above: cycle through a doubled list.
  const slots = items.length === 2 ? [...items, ...items] : items;
  const count = slots.length;
  const paused = hovered || focused || !running;

  useEffect(() => {
    if (count < 2 || paused) return undefined;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), TICKER_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [count, paused]);

  if (!items.length) return null;
  const current = index % count;
  const step = (delta: number) => setIndex((current + delta + count) % count);

  return (
    <div
      className="ticker"
      data-testid="scroll-up-info"
      data-paused={paused || undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <span className="ticker__label">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden focusable="false">
          <path
            fill="currentColor"
            d="M3 10v4a1 1 0 0 0 1 1h2l5 4V5L6 9H4a1 1 0 0 0-1 1Zm13.5 2a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4ZM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6Z"
          />
        </svg>
        {t('home.ticker.label')}
      </span>
      <ul className="ticker__window" aria-live={paused ? 'polite' : 'off'}>
        {slots.map((doc, i) => {
          const position = i === current ? 'current' : i === (current - 1 + count) % count ? 'leaving' : 'waiting';
          const hidden = i !== current;
          return (
            <li
              key={`${doc.id}-${i}`}
              className={`ticker__item ticker__item--${position}`}
              data-current={i === current || undefined}
              aria-hidden={hidden || undefined}
            >
              <DocumentLink doc={doc} listPath={listPath} className="ticker__link" tabIndex={hidden ? -1 : undefined}>
                <span className="ticker__title">{pickLang(language, doc.title, doc.titleEn)}</span>
                <span className="ticker__date">{formatDocumentDate(doc.time)}</span>
              </DocumentLink>
            </li>
          );
        })}
      </ul>
      {items.length > 1 ? (
        <span className="ticker__controls">
          <MotionToggle
            running={running}
            onToggle={() => setPlaying(!running)}
            label={t(running ? 'home.ticker.pause' : 'home.ticker.play')}
            className="ticker__arrow"
            testId="ticker-toggle"
          />
          <button type="button" className="ticker__arrow" onClick={() => step(-1)} aria-label={t('home.ticker.prev')}>
            <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden focusable="false">
              <path
                d="m6 15 6-6 6 6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </button>
          <button type="button" className="ticker__arrow" onClick={() => step(1)} aria-label={t('home.ticker.next')}>
            <svg viewBox="0 0 24 24" width="14" height="14" aria-hidden focusable="false">
              <path
                d="m6 9 6 6 6-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </button>
        </span>
      ) : null}
    </div>
  );
}
