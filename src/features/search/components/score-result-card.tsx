import { genderLabel } from '#contract/enums';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import type { ScoreResult } from '../types/search-types';
import { downloadCertificate, type CertificateLabels } from '../utils/certificate-image';

/** Seconds of an 'H:MM:SS' (or 'MM:SS') time; NaN when it is not one. */
function seconds(time: string): number {
  const parts = time.split(':').map(Number);
  return parts.length >= 2 && parts.length <= 3 && parts.every(Number.isInteger)
    ? parts.reduce((acc, part) => acc * 60 + part, 0)
    : NaN;
}

/** A segment's own time from two cumulative times (for answers without `split`); '' when unreadable. */
function segmentTime(time: string, previous: string | undefined): string {
  const diff = seconds(time) - (previous === undefined ? 0 : seconds(previous));
  if (!Number.isFinite(diff) || diff < 0) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(diff / 3600)}:${pad(Math.floor((diff % 3600) / 60))}:${pad(diff % 60)}`;
}

/** One result: item, times, pace, splits table (each segment's split and the cumulative time), ranks and the e-certificate download. */
export function ScoreResultCard({ result, showRace = false }: { result: ScoreResult; showRace?: boolean }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [busy, setBusy] = useState(false);
  const { ranks } = result;
  const raceName = pickLang(language, result.raceName, result.raceNameEn);
  const itemName = pickLang(language, result.itemName, result.itemNameEn);

  const download = async () => {
    setBusy(true);
    const labels: CertificateLabels = {
      title: t('search.certificate.title'),
      runner: t('search.certificate.runner'),
      bib: t('search.certificate.bib'),
      item: t('search.certificate.item'),
      chipTime: t('search.certificate.chipTime'),
      overall: t('search.certificate.overall'),
      gender: t('search.certificate.gender'),
      ageGroup: t('search.certificate.ageGroup'),
      date: t('search.certificate.date'),
      scan: t('search.certificate.scan'),
    };
    try {
      await downloadCertificate({ ...result, raceName, itemName }, labels);
    } catch {
      notify.error(t('search.score.downloadFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="result-card" data-testid="score-result" aria-label={`${result.name} ${itemName}`}>
      <header className="result-card__head">
        <div>
          {showRace ? <p className="result-card__race">{raceName}</p> : null}
          <h2 className="result-card__name">
            {result.name}
            <span className="result-card__tag">{t(genderLabel(result.gender))}</span>
          </h2>
          <p className="result-card__meta">
            <span className="result-card__item">{itemName}</span>
            <span>{t('search.score.bibLabel', { bib: result.bib })}</span>
          </p>
        </div>
        {result.certificate ? (
          <button type="button" className="search-btn search-btn--gold" onClick={() => void download()} disabled={busy}>
            {busy ? t('search.score.downloading') : t('search.score.download')}
          </button>
        ) : null}
      </header>

      <dl className="result-times">
        <div className="result-times__main">
          <dt>{t('search.score.chipTime')}</dt>
          <dd data-testid="chip-time">{result.chipTime}</dd>
        </div>
        <div>
          <dt>{t('search.score.gunTime')}</dt>
          <dd data-testid="gun-time">{result.gunTime}</dd>
        </div>
        <div>
          <dt>{t('search.score.pace')}</dt>
          <dd data-testid="pace">{result.pace}</dd>
        </div>
      </dl>

      <section aria-label={t('search.score.ranks')} className="result-ranks" data-testid="ranks">
        <h3 className="result-section-title">{t('search.score.ranks')}</h3>
        <ul>
          <li>
            <span className="result-ranks__label">{t('search.score.overall')}</span>
            <strong>{ranks.overall}</strong>
          </li>
          <li>
            <span className="result-ranks__label">{t('search.score.gender')}</span>
            <strong>{ranks.gender}</strong>
          </li>
          <li>
            <span className="result-ranks__label">
              {t('search.score.ageGroup')} · {ranks.ageGroupLabel}
            </span>
            <strong>{ranks.ageGroup}</strong>
          </li>
        </ul>
        <p className="result-ranks__of">{t('search.score.ofFinishers', { count: ranks.finishers })}</p>
      </section>

      {result.splits.length ? (
        <section className="result-splits">
          <h3 className="result-section-title">{t('search.score.splits')}</h3>
          <table className="search-table search-table--cards phone-cards">
            <thead>
              <tr>
                <th scope="col">{t('search.score.checkpoint')}</th>
                <th scope="col">{t('search.score.distance')}</th>
                <th scope="col">{t('search.score.splitTime')}</th>
                <th scope="col">{t('search.score.cumulativeTime')}</th>
                <th scope="col">{t('search.score.splitPace')}</th>
              </tr>
            </thead>
            <tbody>
              {result.splits.map((s, i) => (
                <tr key={s.checkpoint}>
                  <th scope="row">{s.checkpoint}</th>
                  <td data-label={t('search.score.distance')}>{t('search.score.km', { value: s.distanceKm })}</td>
                  <td data-label={t('search.score.splitTime')} data-testid="split-time">
                    {s.split ?? segmentTime(s.time, result.splits[i - 1]?.time)}
                  </td>
                  <td data-label={t('search.score.cumulativeTime')}>{s.time}</td>
                  <td data-label={t('search.score.splitPace')}>{s.pace}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </article>
  );
}
