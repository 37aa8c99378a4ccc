import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { announce } from '@/lib/announce';
import { ApiError } from '@/lib/api-client';

/**
 * The state of one lookup, shared by the search pages: loading, the answer, and the failure to show
 * (the server's msg, or '无数据' / 'No data' when the request itself failed).
 */
export function useSearchRequest<T>() {
  const { t } = useTranslation();
  const [loading, setLoading] = useState(false);
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  /** Runs a lookup; `emptyText` names the message for an answer with nothing in it. */
  const run = async (request: () => Promise<T>, emptyText?: (answer: T) => string | null) => {
    setLoading(true);
    setFailure(null);
    setData(null);
    try {
      const answer = await request();
      setData(answer);
      const empty = emptyText?.(answer);
      if (empty) setFailure(empty);
      // Results appear below the form, away from focus: say how many were found (a failure is an alert).
      else announce(t('search.found', { count: Array.isArray(answer) ? answer.length : 1 }));
    } catch (err) {
      setFailure(err instanceof ApiError ? err.message : t('search.noData'));
    } finally {
      setLoading(false);
    }
  };

  /** Forgets the answer and the failure (e.g. when the visitor changes what to look up). */
  const reset = () => {
    setData(null);
    setFailure(null);
  };

  return { loading, data, failure, run, reset };
}
