import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '@/config/paths';
import { notify } from '@/lib/notify';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { searchScore } from '../api/search-score';
import { exportScores } from '../api/export-scores';
import type { ScoreResult } from '../types/search-types';
import { saveBlob } from '../utils/certificate-image';
import { useRaceId } from '@/lib/use-race-id';
import { usePickedResultRace } from '../utils/use-races-with-results';
import { useSearchRequest } from '../utils/use-search-request';
import { SearchFrame } from './search-frame';
import { SearchFailure, SearchSubmit } from './search-parts';
import { BibField, IdentityFields, SearchForm, type IdentityValues } from './search-form';
import { ResultRacePicker } from './race-picker';
import { ScoreResultCard } from './score-result-card';

type Mode = 'bib' | 'identity';
/** The form's values: the bib, or the identity (only the fields of the chosen mode are there). */
type ScoreFormValues = Partial<IdentityValues> & { bib?: string };

/**
 * Score search (spec §2 /score-search): by bib, or by name and certificate number; results and export. The
 * race is picked among the organiser's races with results (the latest by default), so next year's site
 * still finds last year's results; links lead on to personal bests and historical scores.
 */
export default function ScoreSearchPage() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const historyEnabled = useSiteStore((s) => !!s.config?.scoreSearch?.useMultipleSearch);
  const boundRaceId = useRaceId();
  const { races, raceId, pick } = usePickedResultRace(boundRaceId);
  const [mode, setMode] = useState<Mode>('bib');
  const { loading, data: results, failure, run, reset } = useSearchRequest<ScoreResult[]>();
  const [exporting, setExporting] = useState(false);
  const [exportMessage, setExportMessage] = useState<string | null>(null);

  const submit = async (values: ScoreFormValues) => {
    const query =
      mode === 'bib'
        ? { raceId, bib: (values.bib ?? '').trim() }
        : {
            raceId,
            name: values.name ?? '',
            certificateNumber: (values.certificateNumber ?? '').trim(),
          };
    await run(
      () => searchScore(query),
      (list) => (list.length ? null : t('search.notFound')),
    );
  };

  const runExport = async () => {
    setExporting(true);
    setExportMessage(null);
    const outcome = await exportScores({ raceId, language }, t('search.noData')).finally(() => setExporting(false));
    if (outcome.kind === 'file') saveBlob(outcome.blob, `scores-${raceId}.xls`);
    else {
      setExportMessage(outcome.text);
      notify.warning(outcome.text);
    }
  };

  return (
    <SearchFrame title={t('search.score.title')} subtitle={t('search.score.subtitle')} switchName="scoreSearch" wide>
      <SearchForm<ScoreFormValues> name="score-search" label={t('search.score.title')} onSearch={(v) => void submit(v)}>
        <ResultRacePicker
          id="score-race"
          races={races}
          value={raceId}
          onChange={(picked) => {
            pick(picked);
            reset();
            setExportMessage(null);
          }}
        />
        <fieldset className="search-mode">
          <legend className="search-field__label">{t('search.score.mode')}</legend>
          {(['bib', 'identity'] as const).map((m) => (
            <label
              key={m}
              className={mode === m ? 'search-mode__option search-mode__option--on' : 'search-mode__option'}
            >
              <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
              {m === 'bib' ? t('search.score.byBib') : t('search.score.byIdentity')}
            </label>
          ))}
        </fieldset>
        {mode === 'bib' ? <BibField /> : <IdentityFields />}
        <SearchSubmit loading={loading}>
          <button
            type="button"
            className="search-btn search-btn--ghost"
            onClick={() => void runExport()}
            disabled={exporting}
          >
            {exporting ? t('search.score.exporting') : t('search.score.export')}
          </button>
        </SearchSubmit>
        {exportMessage ? (
          <p className="search-note" role="status" data-testid="export-message">
            {exportMessage}
          </p>
        ) : null}
      </SearchForm>
      <SearchFailure failure={failure} />
      {results?.length ? (
        <div className="search-results" aria-label={t('search.score.results')}>
          {results.map((r) => (
            <ScoreResultCard key={`${r.raceId}-${r.bib}-${r.item}`} result={r} showRace={races.length > 0} />
          ))}
        </div>
      ) : null}
      <nav className="search-more" aria-label={t('search.more.label')} data-testid="score-more">
        <span className="search-more__label">{t('search.more.label')}</span>
        <Link to={PATHS.pbSearch}>{t('search.pb.title')}</Link>
        {historyEnabled ? <Link to={PATHS.multipleScoreSearch}>{t('search.history.title')}</Link> : null}
      </nav>
    </SearchFrame>
  );
}
