import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { focusElement } from '@/lib/move-focus';
import { resolveImageUrl } from '@/lib/url';
import { searchPhotos } from '../api/search-photos';
import type { Photo } from '../types/search-types';
import { useRaceId } from '@/lib/use-race-id';
import { usePickedResultRace } from '../utils/use-races-with-results';
import { useSearchRequest } from '../utils/use-search-request';
import { SearchFrame } from './search-frame';
import { SearchFailure, SearchSubmit } from './search-parts';
import { BibField, SearchForm } from './search-form';
import { ResultRacePicker } from './race-picker';

/**
 * Photo search (spec §2 /image-search): by bib, in a race picked among the organiser's races with results
 * (the latest by default, as the score search), so past races' photos stay reachable; a grid, a viewer and a
 * download link.
 */
export default function ImageSearchPage() {
  const { t } = useTranslation();
  const { races, raceId, pick } = usePickedResultRace(useRaceId());
  const { loading, data: photos, failure, run, reset } = useSearchRequest<Photo[]>();
  const [open, setOpen] = useState<number | null>(null);
  const [searched, setSearched] = useState('');

  const submit = async (values: { bib: string }) => {
    const bib = values.bib.trim();
    setSearched(bib);
    await run(
      () => searchPhotos({ raceId, bib }),
      (list) => (list.length ? null : t('search.photos.none')),
    );
  };

  return (
    <SearchFrame
      title={t('search.photos.title')}
      subtitle={t('search.photos.subtitle')}
      switchName="pictureSearch"
      wide
    >
      <SearchForm<{ bib: string }>
        name="photo-search"
        label={t('search.photos.title')}
        inline
        onSearch={(v) => void submit(v)}
      >
        <ResultRacePicker
          id="photo-race"
          races={races}
          value={raceId}
          onChange={(picked) => {
            pick(picked);
            setOpen(null);
            reset();
          }}
        />
        <BibField />
        <SearchSubmit loading={loading} />
      </SearchForm>
      <SearchFailure failure={failure} />
      {photos?.length ? (
        <>
          <p className="search-note">{t('search.photos.count', { count: photos.length })}</p>
          <ul className="photo-grid">
            {photos.map((photo, i) => (
              <li key={photo.url} data-testid="photo-tile">
                <button
                  type="button"
                  className="photo-grid__btn"
                  aria-label={t('search.photos.view', { index: i + 1 })}
                  onClick={() => setOpen(i)}
                >
                  <img
                    src={resolveImageUrl(photo.url)}
                    alt={t('search.photos.alt', {
                      index: i + 1,
                      bib: searched,
                    })}
                    loading="lazy"
                  />
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {photos && open !== null && photos[open] ? (
        <PhotoViewer
          photo={photos[open]}
          alt={t('search.photos.alt', { index: open + 1, bib: searched })}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </SearchFrame>
  );
}

function PhotoViewer({ photo, alt, onClose }: { photo: Photo; alt: string; onClose: () => void }) {
  const { t } = useTranslation();
  const closeRef = useRef<HTMLButtonElement>(null);
  const src = resolveImageUrl(photo.url);
  useEffect(() => {
    // Closed, the viewer gives focus back to the photo that opened it.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => void focusElement(opener);
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="photo-viewer" role="dialog" aria-modal="true" aria-label={t('search.photos.viewer')}>
      <div className="photo-viewer__bar">
        {photo.takenAt ? <span>{photo.takenAt}</span> : <span />}
        <a href={src} download target="_blank" rel="noopener noreferrer" className="search-btn search-btn--gold">
          {t('search.photos.download')}
        </a>
        <button ref={closeRef} type="button" className="search-btn search-btn--ghost" onClick={onClose}>
          {t('search.photos.close')}
        </button>
      </div>
      <img src={src} alt={alt} className="photo-viewer__img" />
    </div>
  );
}
