/**
 * The outbox key of a message to a runner (services/entry/entry-messages.ts runnerMessage, which tellRunner
 * queues): the event's own key, then the race, `<key>:<raceId>`, so that the message goes once per key. One
 * definition for the writer (strings) and for a query looking for the message in the outbox (SQL pieces, joined
 * with `||`: the payment reminder's, db/orders-repository.ts toRemind).
 */
export function runnerMessageKeyParts<T>(key: T, raceId: T): (T | string)[] {
  return [key, ':', raceId];
}

export const runnerMessageKey = (key: string, raceId: string): string => runnerMessageKeyParts(key, raceId).join('');
