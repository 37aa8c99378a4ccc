/**
 * The runner's own finishes in the organiser's races (the myResults call), looked up with the name and
 * certificate number already filled in the form: one lookup per form, shared by the past-events and the
 * score-verification fields, started by the runner ("Find my results").
 */
import { Button } from 'antd';
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OwnResult, RunnerKey } from '#contract/registration-screens';
import { ApiError } from '@/lib/api-client';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { getMyResults } from '../api/form-lookups';

export type OwnResultsState =
  | { state: 'idle' }
  | { state: 'needKey' }
  | { state: 'loading' }
  | { state: 'done'; results: OwnResult[] }
  | { state: 'failed'; message: string };

export interface OwnResultsLookup {
  status: OwnResultsState;
  /** Look up the finishes of the name and certificate now in the form. */
  find: () => void;
}

const OwnResultsContext = createContext<OwnResultsLookup>({ status: { state: 'idle' }, find: () => undefined });
export const OwnResultsProvider = OwnResultsContext.Provider;
export const useOwnResultsLookup = () => useContext(OwnResultsContext);

/** The lookup state of a form; `key()` reads the name and certificate from the form when asked. */
export function useOwnResults(raceId: string, key: () => RunnerKey | null): OwnResultsLookup {
  const [status, setStatus] = useState<OwnResultsState>({ state: 'idle' });
  const find = useCallback(() => {
    const runner = key();
    if (!runner) {
      setStatus({ state: 'needKey' });
      return;
    }
    setStatus({ state: 'loading' });
    getMyResults({ ...runner, raceId }).then(
      (results) => setStatus({ state: 'done', results }),
      (error: unknown) =>
        setStatus({ state: 'failed', message: error instanceof ApiError ? error.message : String(error) }),
    );
  }, [key, raceId]);
  return useMemo(() => ({ status, find }), [status, find]);
}

/** 'Qingchuan Grand Canal Marathon 2026 · Marathon · 3:12:45 · 2026-04-19' */
export function useResultText(): (result: OwnResult) => string {
  const language = useAppStore((s) => s.language);
  return useCallback(
    (r: OwnResult) => [pickLang(language, r.raceName, r.raceNameEn), r.item, r.chipTime, r.raceDate].join(' · '),
    [language],
  );
}

/** The "Find my results" button and the lookup's state (what to fill first, loading, failure, nothing found). */
export function FindOwnResults({ describedBy }: { describedBy?: string }) {
  const { t } = useTranslation();
  const { status, find } = useOwnResultsLookup();
  const note =
    status.state === 'needKey'
      ? t('registration.ownResults.needKey')
      : status.state === 'failed'
        ? status.message
        : status.state === 'done' && status.results.length === 0
          ? t('registration.ownResults.empty')
          : status.state === 'done'
            ? t('registration.ownResults.found', { count: status.results.length })
            : null;
  return (
    <div className="rs-own-results">
      <Button
        onClick={find}
        loading={status.state === 'loading'}
        aria-describedby={describedBy}
        data-testid="find-my-results"
      >
        {status.state === 'done' ? t('registration.ownResults.findAgain') : t('registration.ownResults.find')}
      </Button>
      <span
        className={`rs-own-results__note${status.state === 'failed' || status.state === 'needKey' ? ' rs-own-results__note--warn' : ''}`}
        role="status"
        data-testid="own-results-note"
      >
        {note}
      </span>
    </div>
  );
}
