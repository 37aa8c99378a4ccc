/**
 * Sign-up answers built from stored records (issue 14): a registration as its account holder sees it
 * (MyEntry: certificate number masked, the timeline, the latest order), the sign-up window of a race and the
 * lookups of its settings. Shared by the submission, the entry routes and the personal centre.
 */
import { entryServices } from '#contract/after-entry';
import {
  ENTRY_STATUSES,
  type EntryItemSettings,
  type EntrySettings,
  type MyEntry,
  type TimelineStep,
} from '#contract/entry';
import { DEFAULT_FORM_CHANNEL, type LocalText } from '#contract/registration-form';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { EntryEvent, EntryRecord } from '../../db/entries-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskCertNo } from '../../lib/race-center.ts';

/** The race's public sign-up window at `now`: the one rule, in the contract (the home page reads it too). */
export { signUpWindow, type SignUpWindowState as SignUpWindow } from '#contract/entry';

export const raceNameOf = (race: Pick<RaceInfo, 'raceName' | 'raceNameEn'> | undefined, raceId: string): LocalText => ({
  zh: race?.raceName ?? raceId,
  en: race?.raceNameEn || race?.raceName || raceId,
});

export const itemOf = (settings: EntrySettings | undefined, code: string): EntryItemSettings | undefined =>
  settings?.items.find((item) => item.code === code);

export const formChannelOf = (settings: EntrySettings | undefined) => settings?.formChannel ?? DEFAULT_FORM_CHANNEL;

/** MyEntry views of entries (with their timelines), reading races, teams and latest orders once each. */
export async function myEntryViews(
  repos: Repositories,
  entries: (EntryRecord & { events?: EntryEvent[] })[],
  /** What the caller already knows (a submission that just wrote them): not read again. */
  known: { races?: Map<string, RaceInfo | undefined>; orderNos?: Map<number, string> } = {},
): Promise<MyEntry[]> {
  const races = new Map<string, RaceInfo | undefined>(known.races);
  const teams = new Map<number, string | null>();
  for (const entry of entries) {
    if (!races.has(entry.raceId)) races.set(entry.raceId, await repos.races.findById(entry.raceId));
    if (entry.teamId !== null && !teams.has(entry.teamId)) {
      teams.set(entry.teamId, (await repos.entries.findTeamById(entry.teamId))?.teamCode ?? null);
    }
  }
  const ids = entries.map((e) => e.id);
  const orderNos = known.orderNos ?? (await repos.orders.latestOrderNos(ids));
  const missing = entries.filter((e) => e.events === undefined).map((e) => e.id);
  const timelines = await repos.entries.events(missing);
  return entries.map((entry) => {
    const race = races.get(entry.raceId);
    const item = itemOf(race?.entry, entry.itemCode);
    const events = entry.events ?? timelines.get(entry.id) ?? [];
    return {
      entryNo: entry.entryNo,
      raceId: entry.raceId,
      raceName: raceNameOf(race, entry.raceId),
      itemCode: entry.itemCode,
      itemName: item?.name ?? { zh: entry.itemCode, en: entry.itemCode },
      channel: entry.channel,
      model: item?.model ?? 'firstCome',
      status: entry.status,
      name: entry.name,
      certificateType: entry.certType,
      certificateNumber: maskCertNo(entry.certNumber),
      bib: entry.bib,
      teamCode: entry.teamId === null ? null : (teams.get(entry.teamId) ?? null),
      waitListPosition:
        entry.status === ENTRY_STATUSES.notWon || entry.status === ENTRY_STATUSES.submitted ? entry.waitRank : null,
      timeline: events.map((e) => ({ step: e.step as TimelineStep, at: e.at })),
      orderNo: orderNos.get(entry.id) ?? null,
      services: race ? entryServices(race, entry.status) : [],
      createdAt: entry.createdAt,
    };
  });
}
