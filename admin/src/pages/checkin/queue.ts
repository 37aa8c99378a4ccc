/**
 * The check-in screen's hand-overs, kept on the device until the server has recorded them (issue 32): each
 * is written to localStorage first (it survives a reload and a network drop), with a nonce made once here, so
 * sending it again (after a drop, a reload, a timeout whose answer was lost) is the same hand-over to the
 * server, never a second one. Only what sending needs is kept: the race, the pass code, the nonce and when it
 * was handed over; nothing about the runner. A hand-over the server refuses (collected meanwhile at another
 * desk, say) stays as a conflict, with the server's reason, until the volunteer dismisses it. One the server
 * recorded is kept a day as sent, so a pass looked up while offline says this device already handed it over.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConsoleHandOverAnswer, ConsoleHandOverRequest } from '#contract/console-pickup';
import { api, ConsoleApiError } from '../../api/client';

export const QUEUE_KEY = 'race-site-console-handovers';

export interface QueuedHandOver {
  raceId: string;
  passCode: string;
  nonce: string;
  handedAt: number;
  state: 'waiting' | 'conflict' | 'sent';
  /** The server's reason for a conflict, in the console's language. */
  message?: string;
}

const isQueued = (value: unknown): value is QueuedHandOver => {
  const item = value as Partial<QueuedHandOver> | null;
  return (
    typeof item === 'object' &&
    item !== null &&
    typeof item.raceId === 'string' &&
    typeof item.passCode === 'string' &&
    typeof item.nonce === 'string' &&
    typeof item.handedAt === 'number' &&
    (item.state === 'waiting' || item.state === 'conflict' || item.state === 'sent')
  );
};

export function readQueue(): QueuedHandOver[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(QUEUE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isQueued) : [];
  } catch {
    return [];
  }
}

/** How long a sent hand-over is remembered on the device, and how many at most. */
const SENT_KEPT_MS = 24 * 3_600_000;
const SENT_KEPT_MAX = 3000;

function writeQueue(all: QueuedHandOver[]): boolean {
  const since = Date.now() - SENT_KEPT_MS;
  const sent = all.filter((i) => i.state === 'sent' && i.handedAt >= since).slice(-SENT_KEPT_MAX);
  const items = [...all.filter((i) => i.state !== 'sent'), ...sent];
  try {
    if (items.length === 0) window.localStorage.removeItem(QUEUE_KEY);
    else window.localStorage.setItem(QUEUE_KEY, JSON.stringify(items));
    return true;
  } catch {
    return false;
  }
}

const update = (change: (items: QueuedHandOver[]) => QueuedHandOver[]) => writeQueue(change(readQueue()));

/** A random nonce (crypto), 22 characters of base64url. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Refusals that sending again cannot change: the hand-over is a conflict for the volunteer to see. */
function isFinal(error: unknown): boolean {
  if (!(error instanceof ConsoleApiError)) return false;
  if (error.code === 400 || error.code === 404 || error.code === 409) return true;
  return error.code === 403 && (error.msgCode === 'staffForbidden' || error.msgCode === 'staffRaceForbidden');
}

export type SendOutcome =
  { kind: 'sent'; answer: ConsoleHandOverAnswer } | { kind: 'waiting' } | { kind: 'conflict'; message: string };

/** Sends one queued hand-over: removed when recorded, a conflict when refused for good, else left waiting. */
async function send(item: QueuedHandOver): Promise<SendOutcome> {
  const body: ConsoleHandOverRequest = {
    passCode: item.passCode,
    nonce: item.nonce,
    // The pack is already out of the door: the volunteer decided at the desk.
    outsideSlotConfirmed: true,
    handedAt: item.handedAt,
  };
  try {
    const answer = await api.post<ConsoleHandOverAnswer>(
      `/races/${encodeURIComponent(item.raceId)}/pickup/checkin`,
      body,
    );
    update((items) => items.map((i) => (i.nonce === item.nonce ? { ...i, state: 'sent' } : i)));
    return { kind: 'sent', answer };
  } catch (error) {
    if (!isFinal(error)) return { kind: 'waiting' };
    const message = (error as Error).message;
    update((items) => items.map((i) => (i.nonce === item.nonce ? { ...i, state: 'conflict', message } : i)));
    return { kind: 'conflict', message };
  }
}

/** How often waiting hand-overs are tried again while the screen is open (also at once when back online). */
const RETRY_MS = 5000;

/** The device's queue: its items, hand over (queued first, then sent), send the waiting ones, dismiss. */
export function useHandOverQueue() {
  const [items, setItems] = useState<QueuedHandOver[]>(readQueue);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(0);
  const busy = useRef(false);
  const refresh = useCallback(() => setItems(readQueue()), []);

  const flush = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setSending(true);
    try {
      for (const item of readQueue()) {
        if (item.state !== 'waiting') continue;
        const outcome = await send(item);
        if (outcome.kind === 'sent') setSent((n) => n + 1);
        // Not reachable: the rest waits for the next try.
        if (outcome.kind === 'waiting') break;
      }
    } finally {
      busy.current = false;
      setSending(false);
      refresh();
    }
  }, [refresh]);

  /** Hands a pass over: kept on the device first, then sent at once (or later). False when it cannot be kept. */
  const handOver = useCallback(
    async (raceId: string, passCode: string): Promise<SendOutcome | undefined> => {
      const item: QueuedHandOver = { raceId, passCode, nonce: newNonce(), handedAt: Date.now(), state: 'waiting' };
      if (!update((items) => [...items, item])) return undefined;
      refresh();
      if (busy.current) return { kind: 'waiting' };
      busy.current = true;
      setSending(true);
      try {
        const outcome = await send(item);
        if (outcome.kind === 'sent') setSent((n) => n + 1);
        return outcome;
      } finally {
        busy.current = false;
        setSending(false);
        refresh();
      }
    },
    [refresh],
  );

  const dismiss = useCallback(
    (nonce: string) => {
      update((list) => list.filter((i) => i.nonce !== nonce || i.state !== 'conflict'));
      refresh();
    },
    [refresh],
  );

  useEffect(() => {
    const online = () => void flush();
    // Another tab of this device changed the queue.
    const storage = (event: StorageEvent) => event.key === QUEUE_KEY && refresh();
    window.addEventListener('online', online);
    window.addEventListener('storage', storage);
    const timer = window.setInterval(() => {
      if (readQueue().some((i) => i.state === 'waiting')) void flush();
    }, RETRY_MS);
    void flush();
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('storage', storage);
      window.clearInterval(timer);
    };
  }, [flush, refresh]);

  return { items, sending, sent, flush, handOver, dismiss };
}
