import { recheckDraw, seedMatches } from '#contract/ballot';
import type { BallotPublic } from '#contract/entry';

export type Verification =
  | { state: 'ok'; winners: number }
  | { state: 'seedMismatch' }
  | { state: 'drawMismatch'; published: number; computed: number; differing: number; waitListDiffers: boolean };

/**
 * Re-runs the draw on a ballot's published data (the one re-run, contract/ballot.ts recheckDraw, which the CLI's
 * ballot-verify and the console use too): the seed against the commitment, then winners and wait list.
 */
export function verifyBallot(ballot: BallotPublic): Verification {
  if (!ballot.seed || !seedMatches(ballot.seed, ballot.commitment)) return { state: 'seedMismatch' };
  const check = recheckDraw({
    seed: ballot.seed,
    commitment: ballot.commitment,
    beacon: ballot.beacon ?? '',
    entries: ballot.entries,
    places: ballot.places ?? 0,
    winners: ballot.winners,
    waitList: ballot.waitList,
  });
  if (check.winnersIdentical && check.waitListIdentical) return { state: 'ok', winners: check.redrawn };
  return {
    state: 'drawMismatch',
    published: check.published,
    computed: check.redrawn,
    differing: check.differing,
    waitListDiffers: !check.waitListIdentical,
  };
}
