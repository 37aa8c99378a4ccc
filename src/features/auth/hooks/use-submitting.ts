import { useState } from 'react';

/**
 * Runs a form's submission with its loading flag. A refusal has already been shown by the api client
 * (the server's message as a toast), so it is swallowed here and the form stays as it was.
 */
export function useSubmitting() {
  const [loading, setLoading] = useState(false);
  const run = async (submission: () => Promise<void>) => {
    setLoading(true);
    try {
      await submission();
    } catch {
      // The api client has shown the server's message.
    } finally {
      setLoading(false);
    }
  };
  return { loading, run };
}
