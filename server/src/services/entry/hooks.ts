/**
 * What other parts of sign-up do when something happens to a place (issue 14): a tiny registry, so that the
 * order lifecycle (services/entry/order-transitions.ts) does not import the ballot. The ballot registers the
 * wait-list promotion of a ballot item with `onPlaceFreed`; the cancellation job calls `placeFreed` inside the
 * transaction that freed the places, with that transaction's repositories.
 */
import type { Repositories } from '../../db/repositories.ts';

export interface PlaceFreed {
  raceId: string;
  itemCode: string;
  /** How many places of the item's main pool were given back. */
  n: number;
  /** The clock of the transition (epoch ms). */
  at: number;
}

export type PlaceFreedHandler = (repos: Repositories, freed: PlaceFreed) => Promise<void>;

const placeFreedHandlers = new Set<PlaceFreedHandler>();

/** Registers a handler of freed places of ballot items; returns its removal. Registering it again is a no-op. */
export function onPlaceFreed(handler: PlaceFreedHandler): () => void {
  placeFreedHandlers.add(handler);
  return () => {
    placeFreedHandlers.delete(handler);
  };
}

/** Runs every handler of freed places, in registration order. */
export async function placeFreed(repos: Repositories, freed: PlaceFreed): Promise<void> {
  for (const handler of placeFreedHandlers) await handler(repos, freed);
}
