import type { RaceInfo } from '#contract/site-config/race-types';
import type { SearchConfig, SiteConfig } from '#contract/site-config/schema';
import type { ActionSource } from './module-action';
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
  action: ActionSource;
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
 * The sign-up window (spec §2 register-now, registration-now-and-start-time): the searchConfigList item
 * with moduleType 1 (signUpStartTime, signUpEndTime, signUpTimeTitle), falling back to the race's
 * signUpStartTime / signUpEndTime. Null when there is nothing to show.
 */
export function getSignUpInfo(config: SiteConfig | null, race: RaceInfo | null): SignUpInfo | null {
  const module: SearchConfig | undefined = config?.searchConfigList?.find((m) => m.moduleType === 1);
  const zone = raceTimeZone(race);
  const dates = windowOf(module?.signUpStartTime, module?.signUpEndTime, zone) ??
    windowOf(race?.signUpStartTime, race?.signUpEndTime, zone) ?? { start: null, end: null };
  if (module) {
    return { ...dates, title: module.signUpTimeTitle, titleEn: module.signUpTimeTitleEn, action: module };
  }
  const hasRaceLink = !!race?.signUpUrl?.trim();
  if (dates.start === null && dates.end === null && !hasRaceLink) return null;
  return {
    ...dates,
    action: {
      openStatus: race?.signUpOpenStatus === 1 ? 1 : 0,
      jumpType: isClickableLink(race?.signUpUrl) ? 1 : 2,
      jumpUrl: race?.signUpUrl,
    },
  };
}

/** Where the window stands at `now`; without dates it is 'unscheduled'. */
export function signUpState(info: Pick<SignUpInfo, 'start' | 'end'>, now: number): SignUpState {
  const { start, end } = info;
  if (start === null && end === null) return 'unscheduled';
  if (start !== null && now < start) return 'upcoming';
  if (end !== null && now >= end) return 'closed';
  return 'open';
}
