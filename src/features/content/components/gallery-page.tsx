import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { JumpLink } from '@/components/ui/jump-link';
import { pickLang } from '@/lib/pick-lang';
import { resolveImageUrl, resolveJump } from '@/lib/url';
import { useContentRoute } from '../hooks/use-content-route';
import { isPicture, list, recommendedFirst, text } from '../utils/content-items';
import { ContentEmpty } from './content-empty';
import { ContentHeader, ListHeading } from './content-header';
import { ContentIcon } from './content-icons';
import { Lightbox, type LightboxPhoto } from './lightbox';
import '../content.css';

interface Tile extends LightboxPhoto {
  key: string;
  thumb: string;
  featured: boolean;
  /** External link: the tile opens it instead of the viewer. */
  jumpUrl?: string;
}

/**
 * The photo gallery (config.wonderfulPictures; also the hidden image-collection route): recommended
 * photos first in a grid of four, each opening the viewer on the full image; a photo with a jumpUrl
 * opens that link instead.
 */
export default function GalleryPage() {
  const { t } = useTranslation();
  const route = useContentRoute();
  const { config, language } = route;
  const tiles = useMemo<Tile[]>(
    () =>
      recommendedFirst(list(config?.wonderfulPictures).filter(isPicture)).flatMap((item, i) => {
        const thumb = resolveImageUrl(text(item.surfacePlotUrl) || text(item.src));
        if (!thumb) return [];
        const title =
          pickLang(language, text(item.title), text(item.titleEn)) || t('content.gallery.untitled', { n: i + 1 });
        const jump = resolveJump(item.jumpUrl);
        return [
          {
            key: `${i}-${thumb}`,
            thumb,
            src: resolveImageUrl(text(item.src)) ?? thumb,
            title,
            featured: item.recommend === true,
            jumpUrl: jump ? item.jumpUrl : undefined,
          },
        ];
      }),
    [config, language, t],
  );
  const viewable = useMemo(() => tiles.filter((tile) => !tile.jumpUrl), [tiles]);
  const [open, setOpen] = useState<number | null>(null);

  return (
    <div className="content-page" data-testid="gallery-page">
      <ContentHeader route={route} />
      <div className="content-body content-body--wide">
        <ListHeading
          route={route}
          count={tiles.length ? t('content.gallery.count', { count: tiles.length }) : undefined}
        />
        {tiles.length === 0 ? (
          <ContentEmpty icon="image" title={t('content.gallery.empty.title')} text={t('content.gallery.empty.text')} />
        ) : (
          <ul className="gallery-grid">
            {tiles.map((tile) => {
              const inner = (
                <>
                  <span className="gallery-tile__frame">
                    <img src={tile.thumb} alt={tile.title} width={800} height={533} loading="lazy" decoding="async" />
                    <span className="gallery-tile__zoom" aria-hidden>
                      <ContentIcon name={tile.jumpUrl ? 'external' : 'zoom'} size={26} />
                    </span>
                  </span>
                  <span className="gallery-tile__caption">
                    {/* The space keeps tag and title two words for assistive technology (the name repeats both). */}
                    {tile.featured ? <span className="news-tag">{t('content.gallery.featured')}</span> : null}{' '}
                    <span className="gallery-tile__title">{tile.title}</span>
                  </span>
                </>
              );
              return (
                <li key={tile.key} className="gallery-tile" data-testid="gallery-tile">
                  {tile.jumpUrl ? (
                    <JumpLink url={tile.jumpUrl} className="gallery-tile__button">
                      {inner}
                      <span className="visually-hidden">{t('content.opensInNewTab')}</span>
                    </JumpLink>
                  ) : (
                    <button
                      type="button"
                      className="gallery-tile__button"
                      // The name holds the visible caption (tag and title), as speech-input users say it.
                      aria-label={t('content.gallery.open', {
                        title: tile.featured ? `${t('content.gallery.featured')} ${tile.title}` : tile.title,
                      })}
                      onClick={() => setOpen(viewable.indexOf(tile))}
                    >
                      {inner}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {open !== null && viewable[open] ? (
        <Lightbox photos={viewable} index={open} onIndexChange={setOpen} onClose={() => setOpen(null)} />
      ) : null}
    </div>
  );
}
