import { useEffect, useState, useSyncExternalStore } from 'react';

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;

/**
 * The current time, floored to `stepMs` and updated when it changes. It polls four times per step, so a
 * second is never skipped when the timer fires late, yet the component renders only once per step.
 * Tests drive it with vi.useFakeTimers (Date and setInterval); `fixed` pins it (no timer at all).
 */
export function useNow(stepMs = 1000, fixed?: number): number {
  const [now, setNow] = useState(() => floorTo(Date.now(), stepMs));
  const pinned = fixed !== undefined;
  useEffect(() => {
    if (pinned) return undefined;
    const tick = () => setNow(floorTo(Date.now(), stepMs));
    const timer = window.setInterval(tick, Math.max(50, Math.min(1000, stepMs / 4)));
    return () => window.clearInterval(timer);
  }, [stepMs, pinned]);
  return pinned ? floorTo(fixed, stepMs) : now;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia?.(REDUCED_MOTION);
  query?.addEventListener?.('change', onChange);
  return () => query?.removeEventListener?.('change', onChange);
}

/** Whether the visitor asked for less motion: tickers and carousels then stand still. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => !!window.matchMedia?.(REDUCED_MOTION).matches,
    () => false,
  );
}
