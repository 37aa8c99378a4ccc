import { drawBallot, seedMatches } from '#contract/ballot';
import type { BallotPublic } from '#contract/entry';

export type Verification =
  | { state: 'ok'; winners: number }
  | { state: 'seedMismatch' }
  | { state: 'drawMismatch'; published: number; computed: number; differing: number; waitListDiffers: boolean };

/** Re-runs the draw on a ballot's published data: the seed against the commitment, then winners and wait list. */
export function verifyBallot(ballot: BallotPublic): Verification {
  if (!ballot.seed || !seedMatches(ballot.seed, ballot.commitment)) return { state: 'seedMismatch' };
  const draw = drawBallot(ballot.seed, ballot.beacon ?? '', ballot.entries, ballot.places ?? 0);
  const published = new Set(ballot.winners);
  const computed = new Set(draw.winners);
  const differing =
    draw.winners.filter((no) => !published.has(no)).length + ballot.winners.filter((no) => !computed.has(no)).length;
  const sameWinners =
    draw.winners.length === ballot.winners.length && draw.winners.every((no, i) => ballot.winners[i] === no);
  const sameWaitList =
    draw.waitList.length === ballot.waitList.length && draw.waitList.every((no, i) => ballot.waitList[i] === no);
  if (sameWinners && sameWaitList) return { state: 'ok', winners: draw.winners.length };
  return {
    state: 'drawMismatch',
    published: ballot.winners.length,
    computed: draw.winners.length,
    differing,
    waitListDiffers: !sameWaitList,
  };
}
