import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldClass } from '@/components/form/field-item';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { searchHistory } from '../api/search-history';
import type { ScoreResult } from '../types/search-types';
import { useSearchRequest } from '../utils/use-search-request';
import { SearchFrame } from './search-frame';
import { SearchFailure, SearchSubmit } from './search-parts';
import { IdentityFields, SearchForm, type IdentityValues } from './search-form';
import { ScoreResultCard } from './score-result-card';

/**
 * Historical scores (spec §2 /multiple-score-search): a race picker from config.multipleSearchRaceList when
 * scoreSearch.useMultipleSearch is on; otherwise a notice.
 */
export default function MultipleScoreSearchPage() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const config = useSiteStore((s) => s.config);
  const enabled = !!config?.scoreSearch?.useMultipleSearch;
  const races = config?.multipleSearchRaceList ?? [];
  const { loading, data: results, failure, run } = useSearchRequest<ScoreResult[]>();

  /** The race picked ('' for all of the list) and who. */
  const submit = async ({ raceId, ...identity }: IdentityValues & { raceId: string }) => {
    await run(
      () =>
        searchHistory({
          name: identity.name,
          certificateNumber: identity.certificateNumber.trim(),
          raceIds: raceId ? [raceId] : races.map((r) => String(r.raceId)),
        }),
      (list) => (list.length ? null : t('search.notFound')),
    );
  };

  return (
    <SearchFrame
      title={t('search.history.title')}
      subtitle={enabled ? t('search.history.subtitle') : undefined}
      switchName="scoreSearch"
      wide
    >
      {!enabled ? (
        <p className="search-empty" role="status" data-testid="history-unavailable">
          {t('search.history.notAvailable')}
        </p>
      ) : (
        <>
          <SearchForm<IdentityValues & { raceId: string }>
            name="history-search"
            label={t('search.history.title')}
            onSearch={(v) => void submit(v)}
          >
            <Form.Item
              name="raceId"
              initialValue=""
              label={t('search.fields.race')}
              className={fieldClass(true, 'form-field--select')}
            >
              <select className="form-select">
                <option value="">{t('search.history.allRaces')}</option>
                {races.map((r) => (
                  <option key={String(r.raceId)} value={String(r.raceId)}>
                    {pickLang(language, r.raceName, r.raceNameEn)}
                  </option>
                ))}
              </select>
            </Form.Item>
            <IdentityFields />
            <SearchSubmit loading={loading} />
          </SearchForm>
          <SearchFailure failure={failure} />
          {results?.length ? (
            <div className="search-results">
              {results.map((r) => (
                <ScoreResultCard key={`${r.raceId}-${r.bib}-${r.item}`} result={r} showRace />
              ))}
            </div>
          ) : null}
        </>
      )}
    </SearchFrame>
  );
}
