import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { searchScore } from '../api/search-score';
import { exportScores } from '../api/export-scores';
import type { ScoreResult } from '../types/search-types';
import { checkBib, type RuleKey } from '../utils/validate';
import { saveBlob } from '../utils/certificate-image';
import { useRaceId } from '../utils/use-race-id';
import { useSearchRequest } from '../utils/use-search-request';
import { SearchFrame } from './search-frame';
import { BibField, SearchFailure, SearchSubmit } from './search-parts';
import { useIdentityForm } from '../utils/use-identity-form';
import { IdentityFields } from './identity-fields';
import { ScoreResultCard } from './score-result-card';

type Mode = 'bib' | 'identity';

/** Score search (spec §2 /score-search): by bib, or by name and certificate number; results and export. */
export default function ScoreSearchPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const [mode, setMode] = useState<Mode>('bib');
  const [bib, setBib] = useState('');
  const [bibError, setBibError] = useState<RuleKey | null>(null);
  const { identity, check, fields } = useIdentityForm();
  const { loading, data: results, failure, run } = useSearchRequest<ScoreResult[]>();
  const [exporting, setExporting] = useState(false);
  const [exportMessage, setExportMessage] = useState<string | null>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    let query;
    if (mode === 'bib') {
      const err = checkBib(bib);
      setBibError(err);
      if (err) return;
      query = { raceId, bib: bib.trim() };
    } else {
      if (!check()) return;
      query = { raceId, name: identity.name, certificateNumber: identity.certificateNumber.trim() };
    }
    await run(
      () => searchScore(query),
      (list) => (list.length ? null : t('search.notFound')),
    );
  };

  const runExport = async () => {
    setExporting(true);
    setExportMessage(null);
    const outcome = await exportScores({ raceId }, t('search.noData')).finally(() => setExporting(false));
    if (outcome.kind === 'file') saveBlob(outcome.blob, `scores-${raceId}.xls`);
    else {
      setExportMessage(outcome.text);
      notify.warning(outcome.text);
    }
  };

  return (
    <SearchFrame title={t('search.score.title')} subtitle={t('search.score.subtitle')} switchName="scoreSearch" wide>
      <form className="search-form" onSubmit={(e) => void submit(e)} noValidate aria-label={t('search.score.title')}>
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
        {mode === 'bib' ? (
          <BibField value={bib} onChange={setBib} error={bibError} onError={setBibError} />
        ) : (
          <IdentityFields {...fields} />
        )}
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
      </form>
      <SearchFailure failure={failure} />
      {results?.length ? (
        <div className="search-results" aria-label={t('search.score.results')}>
          {results.map((r) => (
            <ScoreResultCard key={`${r.raceId}-${r.bib}-${r.item}`} result={r} />
          ))}
        </div>
      ) : null}
    </SearchFrame>
  );
}
