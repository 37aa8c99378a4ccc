import { useEffect, useState } from 'react';

/**
 * The server's clock as it runs here: `serverNow` (the answer's `now`) corrects this browser's clock, and the
 * value ticks every second while `ticking` (a deadline is shown), so countdowns follow the server's time.
 */
export function useServerClock(serverNow: number | undefined, ticking: boolean): number {
  const [offset] = useState(() => (serverNow === undefined ? 0 : serverNow - Date.now()));
  const [now, setNow] = useState(() => Date.now() + offset);
  useEffect(() => {
    if (!ticking) return undefined;
    const timer = window.setInterval(() => setNow(Date.now() + offset), 1000);
    return () => window.clearInterval(timer);
  }, [ticking, offset]);
  return now;
}
