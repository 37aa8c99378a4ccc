import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import {
  endOfRaceDay,
  formatRaceTime,
  remainingUntil,
  SHORT_DATE_TIME_FORMAT,
  timeZoneOffsetName,
} from '#contract/race-clock';
import { DEFAULT_RACE_TIME_ZONE, raceTimeZone } from '#contract/time-zone';
import { useAppStore } from '@/stores/app-store';
import type { RaceInfo } from '#contract/site-config/race-types';
import { useNow } from '../hooks/use-now';
import type { ModuleAction } from '../utils/module-action';
import { ActionLink } from './action-link';

export type RacePhase = 'before' | 'during' | 'after';

/** before: now < start; during: start ≤ now < end; after. Without an end the race lasts its day (in its zone). */
export function racePhase(start: number, end: number | null, now: number, zone = DEFAULT_RACE_TIME_ZONE): RacePhase {
  if (now < start) return 'before';
  const finish = end !== null && end > start ? end : endOfRaceDay(start, zone);
  return now < finish ? 'during' : 'after';
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The countdown to the race start (race.startTime, in the race's zone). Before: days, hours, minutes and seconds
 * ticking each second; during: "race in progress"; after: "race finished" and the score search. Its box
 * has a fixed height in every phase, so a phase change never moves the page.
 */
export function Countdown({
  race,
  start,
  end,
  scoreSearch,
  onNotice,
  now: fixedNow,
}: {
  race: RaceInfo;
  start: number;
  end: number | null;
  scoreSearch: ModuleAction;
  onNotice: (text: string) => void;
  /** Pins the clock (tests); otherwise it ticks each second. */
  now?: number;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const now = useNow(1000, fixedNow);
  const zone = raceTimeZone(race);
  const phase = racePhase(start, end, now, zone);
  const left = remainingUntil(start, now);
  const name = pickLang(language, race.raceName, race.raceNameEn);

  return (
    <div className={`countdown countdown--${phase}`} data-testid="countdown" data-phase={phase}>
      {name ? <p className="countdown__race">{name}</p> : null}
      {phase === 'before' ? (
        <>
          <h2 className="countdown__label">{t('home.countdown.label')}</h2>
          <div className="countdown__clock" role="timer" aria-label={t('home.countdown.timerLabel', { ...left })}>
            {(['days', 'hours', 'minutes', 'seconds'] as const).map((unit) => (
              <div className={`countdown__unit countdown__unit--${unit}`} key={unit} aria-hidden>
                <span className="countdown__value" data-testid={`countdown-${unit}`}>
                  {unit === 'days' ? left.days : pad(left[unit])}
                </span>
                <span className="countdown__name">{t(`home.countdown.${unit}`)}</span>
              </div>
            ))}
          </div>
        </>
      ) : (
        <div className="countdown__status" role="status">
          <h2 className="countdown__label countdown__label--status">
            {phase === 'during' ? <span className="countdown__pulse" aria-hidden /> : null}
            {t(phase === 'during' ? 'home.countdown.running' : 'home.countdown.finished')}
          </h2>
          <p className="countdown__hint">
            {t(phase === 'during' ? 'home.countdown.runningHint' : 'home.countdown.finishedHint')}
          </p>
          {phase === 'after' ? (
            <ActionLink action={scoreSearch} className="countdown__score" onNotice={onNotice}>
              {t('home.countdown.scoreSearch')}
              <span aria-hidden> →</span>
            </ActionLink>
          ) : null}
        </div>
      )}
      <p className="countdown__start">
        <span>{t('home.countdown.start')}</span>
        <time dateTime={new Date(start).toISOString()}>{formatRaceTime(start, SHORT_DATE_TIME_FORMAT, zone)}</time>
        <span className="countdown__zone">
          {zone === DEFAULT_RACE_TIME_ZONE ? t('home.time.zone') : timeZoneOffsetName(start, zone, language)}
        </span>
      </p>
    </div>
  );
}
