import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '@/lib/api-client';

export type Load<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

/**
 * Loads a page's data for its inputs (`key`, e.g. the race id); `reload` asks again, `set` replaces the
 * data after a save. An answer counts only for the request it answers: anything else is still loading.
 */
export function useLoad<T>(load: () => Promise<T>, key: string) {
  const [attempt, setAttempt] = useState(0);
  const request = `${key}\n${attempt}`;
  const [outcome, setOutcome] = useState<{ request: string; result: Load<T> }>();
  const result: Load<T> = outcome?.request === request ? outcome.result : { state: 'loading' };
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setOutcome({ request, result: { state: 'ready', data } }),
      (error: unknown) =>
        live &&
        setOutcome({
          request,
          result: { state: 'failed', message: error instanceof ApiError ? error.message : String(error) },
        }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `request` names everything the load reads
  }, [request]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const set = useCallback((data: T) => setOutcome({ request, result: { state: 'ready', data } }), [request]);
  return { result, reload, set };
}
