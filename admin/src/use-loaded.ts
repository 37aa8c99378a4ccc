/**
 * What a page shows from a GET call: loaded when `load` changes (make it with useCallback) and again on
 * `reload()` (after a change); while loading, the last answer stays (a table does not flash empty). A
 * refusal's message, already in the console's language, is `error`.
 */
import { useCallback, useEffect, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  error: string;
  reload: () => void;
}

export function useLoaded<T>(load: () => Promise<T>): Loaded<T> {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ load: () => Promise<T>; version: number; data?: T; error: string }>();
  useEffect(() => {
    let live = true;
    load().then(
      (data) => live && setState({ load, version, data, error: '' }),
      (failure: unknown) =>
        live &&
        setState((last) => ({
          load,
          version,
          data: last?.data,
          error: failure instanceof Error ? failure.message : String(failure),
        })),
    );
    return () => {
      live = false;
    };
  }, [load, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const loading = state === undefined || state.load !== load || state.version !== version;
  return { data: state?.data, loading, error: state?.error ?? '', reload };
}
