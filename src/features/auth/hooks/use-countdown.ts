import { useCallback, useEffect, useState } from 'react';

/** Seconds left until a deadline, ticking every second; 0 when none runs. */
export function useCountdown() {
  const [deadline, setDeadline] = useState<number | null>(null);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    if (deadline === null) return undefined;
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setLeft(seconds);
      if (seconds === 0) setDeadline(null);
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [deadline]);

  const start = useCallback((seconds: number) => {
    setLeft(seconds);
    setDeadline(Date.now() + seconds * 1000);
  }, []);
  return { left, running: deadline !== null && left > 0, start };
}
