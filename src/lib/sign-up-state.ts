/**
 * Whether sign-up is open, as the public site says it (#27): the home page's register-now card and sign-up
 * module, and the ads shown only while sign-up is open (`whileSignUpOpen`, banner and home page). The race's
 * sign-up state is the contract's signUpWindow, the one the server's sign-up keeps.
 */
import type { RaceInfo } from '#contract/site-config/race-types';
import type { SearchConfig, SiteConfig } from '#contract/site-config/schema';
import { signUpWindow } from '#contract/entry';
import { parseRaceTime } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import { isClickableLink } from '@/lib/url';

export type SignUpState = 'upcoming' | 'open' | 'closed' | 'unscheduled';

export interface SignUpInfo {
  /** Epoch ms of the window, null when not given (or the pair is broken). */
  start: number | null;
  end: number | null;
  title?: string;
  titleEn?: string;
  /** What "sign up" does: the moduleType 1 item, else the race's own sign-up settings. */
  action: Pick<SearchConfig, 'openStatus' | 'jumpType' | 'jumpUrl' | 'dialogText' | 'dialogTextEn'>;
  /**
   * The race when the window shown is its own (signUpStartTime–signUpEndTime): then its sign-up state decides
   * (contract signUpWindow, as the server's sign-up does); null when the dates come from the module.
   */
  race: Pick<RaceInfo, 'signUpOpenStatus' | 'signUpStartTime' | 'signUpEndTime' | 'timeZone'> | null;
  /** The race's switch where the race has no window of its own: signUpOpenStatus 0 (entry-close) closes it. */
  raceClosed: boolean;
  /** The sign-up module's own switch (openStatus 1); true without a module. */
  moduleOpen: boolean;
}

function windowOf(startText: string | undefined, endText: string | undefined, zone: string) {
  const start = parseRaceTime(startText, zone);
  const end = parseRaceTime(endText, zone);
  if (start === null && end === null) return null;
  // An end before the start is a broken pair: show no dates rather than wrong ones.
  if (start !== null && end !== null && end <= start) return null;
  return { start, end };
}

/**
 * The sign-up window (spec §2 register-now, registration-now-and-start-time). One truth with the server's
 * sign-up: the race's own window (signUpStartTime / signUpEndTime of race.json) when it has both times, with
 * its switch (signUpOpenStatus, `site entry-close`); else the searchConfigList item with moduleType 1
 * (signUpStartTime, signUpEndTime: a sign-up run elsewhere), else whatever time the race gives. The title and
 * the button's action come from the module (signUpTimeTitle, jumpUrl, openStatus). Null when there is
 * nothing to show.
 */
export function getSignUpInfo(config: SiteConfig | null, race: RaceInfo | null): SignUpInfo | null {
  const module: SearchConfig | undefined = config?.searchConfigList?.find((m) => m.moduleType === 1);
  const zone = raceTimeZone(race);
  const raceWindow =
    race?.signUpStartTime && race.signUpEndTime ? windowOf(race.signUpStartTime, race.signUpEndTime, zone) : null;
  const dates = raceWindow ??
    windowOf(module?.signUpStartTime, module?.signUpEndTime, zone) ??
    windowOf(race?.signUpStartTime, race?.signUpEndTime, zone) ?? { start: null, end: null };
  const decided = {
    race: raceWindow && race ? race : null,
    raceClosed: race?.signUpOpenStatus === 0,
    moduleOpen: !module || module.openStatus === 1,
  };
  if (module) {
    return { ...dates, ...decided, title: module.signUpTimeTitle, titleEn: module.signUpTimeTitleEn, action: module };
  }
  const hasRaceLink = !!race?.signUpUrl?.trim();
  if (dates.start === null && dates.end === null && !hasRaceLink) return null;
  return {
    ...dates,
    ...decided,
    action: {
      openStatus: race?.signUpOpenStatus === 1 ? 1 : 0,
      jumpType: isClickableLink(race?.signUpUrl) ? 1 : 2,
      jumpUrl: race?.signUpUrl,
    },
  };
}

/** Where the shown dates stand at `now`; without dates it is 'unscheduled'. */
function datesState({ start, end }: Pick<SignUpInfo, 'start' | 'end'>, now: number): SignUpState {
  if (start === null && end === null) return 'unscheduled';
  if (start !== null && now < start) return 'upcoming';
  if (end !== null && now >= end) return 'closed';
  return 'open';
}

const FROM_WINDOW = { notYet: 'upcoming', open: 'open', ended: 'closed', closed: 'closed' } as const;

/**
 * Whether sign-up is open at `now`, as the home page says it (register-now card, the sign-up module): the
 * race's sign-up state (contract signUpWindow: its window and signUpOpenStatus) where the race has a window,
 * else the shown dates, closed by the race's signUpOpenStatus 0; never open while the module's openStatus is 0.
 */
export function signUpState(info: SignUpInfo, now: number): SignUpState {
  let state: SignUpState = info.race ? FROM_WINDOW[signUpWindow(info.race, now)] : datesState(info, now);
  if (!info.race && info.raceClosed && state !== 'unscheduled') state = 'closed';
  if (!info.moduleOpen && state === 'open') state = 'closed';
  return state;
}

/** The ads to show at `now`: those marked `whileSignUpOpen` only while sign-up is open. */
export function adsShownAt<T extends { whileSignUpOpen?: boolean }>(
  ads: readonly T[],
  config: SiteConfig | null,
  race: RaceInfo | null,
  now: number,
): T[] {
  if (!ads.some((ad) => ad.whileSignUpOpen)) return [...ads];
  const info = getSignUpInfo(config, race);
  const open = info !== null && signUpState(info, now) === 'open';
  return ads.filter((ad) => open || !ad.whileSignUpOpen);
}
