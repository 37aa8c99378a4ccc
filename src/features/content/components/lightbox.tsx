import { useTranslation } from 'react-i18next';
import { ContentDialog } from './content-dialog';
import { ContentIcon } from './content-icons';

export interface LightboxPhoto {
  src: string;
  title: string;
}

/** The photo viewer: one photo at a time with its title and position; arrows (buttons or keys) move, Esc closes. */
export function Lightbox({
  photos,
  index,
  onIndexChange,
  onClose,
}: {
  photos: LightboxPhoto[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const count = photos.length;
  const photo = photos[index];
  const go = (step: number) => onIndexChange((index + step + count) % count);
  return (
    <ContentDialog
      label={t('content.gallery.viewer')}
      closeLabel={t('content.gallery.close')}
      className="lightbox"
      onClose={onClose}
      onKeyDown={(event) => {
        if (count < 2) return;
        if (event.key === 'ArrowLeft') go(-1);
        if (event.key === 'ArrowRight') go(1);
      }}
    >
      <figure className="lightbox__figure" data-testid="lightbox">
        <img key={photo.src} className="lightbox__image" src={photo.src} alt={photo.title} width={1200} height={800} />
        <figcaption className="lightbox__caption">
          <span className="lightbox__title">{photo.title}</span>
          <span className="lightbox__position" aria-live="polite">
            {t('content.gallery.position', { current: index + 1, total: count })}
          </span>
        </figcaption>
      </figure>
      {count > 1 ? (
        <>
          <button
            type="button"
            className="lightbox__nav lightbox__nav--prev"
            onClick={() => go(-1)}
            aria-label={t('content.gallery.previous')}
          >
            <ContentIcon name="chevronLeft" size={30} />
          </button>
          <button
            type="button"
            className="lightbox__nav lightbox__nav--next"
            onClick={() => go(1)}
            aria-label={t('content.gallery.next')}
          >
            <ContentIcon name="chevronRight" size={30} />
          </button>
        </>
      ) : null}
    </ContentDialog>
  );
}
