/**
 * The console's ballot and bib pages (issue 32): per ballot item its rounds (committed, drawn, revealed, the
 * draw re-run on the server from the public record once revealed), the pool a draw would draw now, the wait
 * list in order with each promotion and how its place was freed; per item its bibs (given, awaited, the series
 * in use). The actions are the CLI's own services (services/entry/ballot.ts, bibs.ts), which audit them.
 */
import { recheckDraw } from '#contract/ballot';
import { API_PATHS } from '#contract/api';
import {
  BALLOT_PAGE_ROUTE,
  readPromotionNote,
  type ConsoleBallotAnswer,
  type ConsoleBallotItem,
  type ConsoleBallotRound,
  type ConsoleBibsAnswer,
} from '#contract/console-ballot';
import { raceTimeZone } from '#contract/time-zone';
import type { BallotRow } from '../../db/ballots-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { drawPool, toPublic, waitListOf } from '../entry/ballot.ts';
import { BIB_SERIES, bibsOfRace } from '../entry/bibs.ts';
import { parseRaceTime } from '#contract/race-clock';
import { signUpWindow } from '../entry/views.ts';
import type { RaceInfo } from '#contract/site-config/race-types';

/** The public record of one round (what `npm run site -- ballot-verify` takes). */
const recordPath = (raceId: string, itemCode: string, round: number) =>
  `${API_PATHS.ballotPublic}?${new URLSearchParams({ raceId, itemCode, round: String(round) }).toString()}`;

function roundView(row: BallotRow, race: RaceInfo): ConsoleBallotRound {
  const published = toPublic(row, race);
  return {
    round: row.round,
    commitment: row.commitment,
    beacon: row.beacon,
    committedAt: row.committedAt,
    drawnAt: row.drawnAt,
    revealed: row.seed !== null,
    seed: row.seed,
    places: row.places,
    entries: published.entries.length,
    winners: published.winners.length,
    waitList: published.waitList.length,
    check:
      row.seed === null || row.drawnAt === null
        ? null
        : recheckDraw({
            seed: row.seed,
            commitment: row.commitment,
            beacon: row.beacon,
            entries: published.entries,
            places: row.places ?? 0,
            winners: published.winners,
            waitList: published.waitList,
          }),
    recordPath: recordPath(row.raceId, row.itemCode, row.round),
  };
}

/** The ballot items of a race, or undefined when there is no such race. */
export async function ballotView(
  repos: Repositories,
  raceId: string,
  now: number,
): Promise<ConsoleBallotAnswer | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const zone = raceTimeZone(race);
  const signUpEnd = parseRaceTime(race.signUpEndTime, zone);
  const rows = await repos.ballots.list(raceId);
  const items: ConsoleBallotItem[] = [];
  for (const item of race.entry?.items ?? []) {
    if (item.model !== 'ballot' && item.model !== 'payThenDraw') continue;
    const rounds = rows.filter((r) => r.itemCode === item.code).sort((a, b) => a.round - b.round);
    const latest = rounds.at(-1);
    // The round a draw would draw next: the latest if not drawn, else the one after it (a ballot item's later
    // round over those not drawn); a pay-first item has one round only.
    const poolRound =
      latest === undefined
        ? 1
        : latest.drawnAt === null
          ? latest.round
          : item.model === 'ballot'
            ? latest.round + 1
            : null;
    const pool = poolRound === null ? null : await drawPool(repos, raceId, item, poolRound);
    const waitList = await waitListOf(repos, raceId, item.code);
    items.push({
      itemCode: item.code,
      itemName: item.name,
      model: item.model,
      capacity: item.capacity,
      keepsWaitList: item.model === 'ballot' && item.waitList !== false,
      pool:
        poolRound === null || pool === null
          ? null
          : { round: poolRound, entries: pool.candidates.length, places: pool.places },
      rounds: rounds.map((row) => roundView(row, race)),
      waitList: (waitList.ok ? waitList.value : []).map((row) => ({
        position: row.position,
        entryNo: row.entryNo,
        maskedName: row.maskedName,
        status: row.status,
        listedAt: row.listedAt,
        promotedAt: row.promotedAt,
        freed: row.promotedAt === null ? null : readPromotionNote(row.why),
      })),
    });
  }
  return {
    raceId,
    timeZone: zone,
    signUpEnd,
    entryOpen: signUpWindow(race, now) === 'open',
    windowClosed: signUpEnd !== null && now >= signUpEnd,
    publicPath: `/#${BALLOT_PAGE_ROUTE}`,
    items,
  };
}

/** The bibs of each item of a race, or undefined when there is no such race. */
export async function bibsView(repos: Repositories, raceId: string): Promise<ConsoleBibsAnswer | undefined> {
  const race = await repos.races.findById(raceId);
  if (!race) return undefined;
  const items = race.entry?.items ?? [];
  const bibs = await bibsOfRace(
    repos,
    raceId,
    items.map((i) => i.code),
  );
  return {
    items: bibs.map((b, index) => ({ ...b, itemName: items[index]!.name })),
    limits: {
      prefixMax: 10,
      fromMin: BIB_SERIES.from.min,
      fromMax: BIB_SERIES.from.max,
      widthMin: BIB_SERIES.width.min,
      widthMax: BIB_SERIES.width.max,
      widthDefault: BIB_SERIES.width.default,
    },
  };
}

/** Whether a race has an entry item: 'noRace', 'noItem' or 'ok' (the bib calls check it first). */
export async function raceItemState(
  repos: Repositories,
  raceId: string,
  itemCode: string,
): Promise<'noRace' | 'noItem' | 'ok'> {
  const race = await repos.races.findById(raceId);
  if (!race) return 'noRace';
  return race.entry?.items.some((i) => i.code === itemCode) ? 'ok' : 'noItem';
}
