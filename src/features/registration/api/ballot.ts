import { API_PATHS } from '#contract/api';
import type { BallotCheckAnswer, BallotPublic, BallotSummary } from '#contract/entry';
import { apiRequest } from '@/lib/api-client';

export type BallotListItem = BallotSummary & { itemCode: string };

/** GET every ballot of the race (one per item and round). */
export async function listBallots(raceId: string): Promise<BallotListItem[]> {
  const envelope = await apiRequest<BallotListItem[]>({
    method: 'GET',
    url: API_PATHS.ballotList,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/** GET one ballot with everything needed to re-run its draw. */
export async function getBallot(raceId: string, itemCode: string, round: number): Promise<BallotPublic> {
  const envelope = await apiRequest<BallotPublic>({
    method: 'GET',
    url: API_PATHS.ballotPublic,
    params: { raceId, itemCode, round },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST "am I in?": the ballot outcome of an entry number. */
export async function checkBallot(raceId: string, entryNo: string): Promise<BallotCheckAnswer> {
  const envelope = await apiRequest<BallotCheckAnswer>({
    method: 'POST',
    url: API_PATHS.ballotCheck,
    data: { raceId, entryNo },
    silent: 'answers',
  });
  return envelope.data;
}
