import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { resolveFileUrl, resolveImageUrl } from '@/lib/url';
import { useContentRoute } from '../hooks/use-content-route';
import { isVideo, list, recommendedFirst, text } from '../utils/content-items';
import { ContentEmpty } from './content-empty';
import { ContentHeader, ListHeading } from './content-header';
import { ContentIcon, PlayMark } from './content-icons';
import { VideoPlayer, type PlayableVideo } from './video-player';
import '../content.css';

interface Card extends PlayableVideo {
  key: string;
  featured: boolean;
}

/**
 * The videos (config.videoCollections; also the hidden video-collection route): recommended first, as
 * poster cards with title and summary; a card opens the player.
 */
export default function VideoPage() {
  const { t } = useTranslation();
  const route = useContentRoute();
  const { config, language } = route;
  const cards = useMemo<Card[]>(
    () =>
      recommendedFirst(list(config?.videoCollections).filter(isVideo)).map((item, i) => ({
        key: `${String(item.id ?? '')}-${i}`,
        title: pickLang(language, text(item.title), text(item.titleEn)) || t('content.video.untitled', { n: i + 1 }),
        summary: pickLang(language, text(item.summary), text(item.summaryEn)),
        src: resolveFileUrl(text(item.src)),
        poster: resolveImageUrl(text(item.pic)),
        featured: item.recommend === true,
      })),
    [config, language, t],
  );
  const [open, setOpen] = useState<Card | null>(null);
  const durations = useDurations(cards);

  return (
    <div className="content-page" data-testid="video-page">
      <ContentHeader route={route} />
      <div className="content-body content-body--wide">
        <ListHeading
          route={route}
          count={cards.length ? t('content.video.count', { count: cards.length }) : undefined}
        />
        {cards.length === 0 ? (
          <ContentEmpty icon="video" title={t('content.video.empty.title')} text={t('content.video.empty.text')} />
        ) : (
          <ul className="video-grid">
            {cards.map((card) => (
              <li key={card.key} className="video-card" data-testid="video-card">
                <button
                  type="button"
                  className="video-card__button"
                  onClick={() => setOpen(card)}
                  aria-label={
                    durations[card.key]
                      ? `${t('content.video.play', { title: card.title })}, ${t('content.video.duration', { time: durations[card.key] })}`
                      : t('content.video.play', { title: card.title })
                  }
                >
                  <span className="video-card__poster">
                    {card.poster ? (
                      <img
                        src={card.poster}
                        alt={card.title}
                        width={800}
                        height={450}
                        loading="lazy"
                        decoding="async"
                      />
                    ) : (
                      <span className="video-card__placeholder">
                        <PlayMark />
                      </span>
                    )}
                    {durations[card.key] ? (
                      <span className="video-card__duration" data-testid="video-duration">
                        {durations[card.key]}
                      </span>
                    ) : null}
                  </span>
                </button>
                <div className="video-card__text">
                  {card.featured ? <span className="news-tag">{t('content.video.featured')}</span> : null}
                  <h2 className="video-card__title">{card.title}</h2>
                  {card.summary ? <p className="video-card__summary">{card.summary}</p> : null}
                  <span className="video-card__watch" aria-hidden>
                    <ContentIcon name="play" size={14} />
                    {t('content.video.watch')}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {open ? <VideoPlayer video={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

/** A running time as a player shows it: 00:06, 04:36, 1:02:03. */
function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const two = (n: number) => String(n).padStart(2, '0');
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return hours ? `${hours}:${two(minutes)}:${two(total % 60)}` : `${two(minutes)}:${two(total % 60)}`;
}

/**
 * Each card's running time, read from its file (the metadata only, not the video): none is shown for a video
 * whose file gives none (missing, broken, a live stream), never a made-up one.
 */
function useDurations(cards: Card[]): Record<string, string> {
  const [durations, setDurations] = useState<Record<string, string>>({});
  useEffect(() => {
    const probes = cards.flatMap((card) => {
      if (!card.src || typeof document === 'undefined') return [];
      const probe = document.createElement('video');
      probe.preload = 'metadata';
      probe.muted = true;
      probe.addEventListener('loadedmetadata', () => {
        const seconds = probe.duration;
        if (Number.isFinite(seconds) && seconds > 0) {
          setDurations((known) => ({ ...known, [card.key]: formatDuration(seconds) }));
        }
      });
      probe.src = card.src;
      return [probe];
    });
    return () => {
      for (const probe of probes) {
        probe.removeAttribute('src');
        probe.load();
      }
    };
  }, [cards]);
  return durations;
}
