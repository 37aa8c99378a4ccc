import { useTranslation } from 'react-i18next';
import { parseRaceTime } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import { useAppStore } from '@/stores/app-store';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { SiteConfig } from '#contract/site-config/schema';
import { useModuleAction } from '../hooks/use-module-action';
import { moduleAction, searchEntry } from '../utils/module-action';
import { getSignUpInfo } from '@/lib/sign-up-state';
import { Countdown } from './countdown';
import { Notice } from './notice';
import { RegisterNow } from './register-now';

/**
 * The band under the search modules: the countdown to the start and the sign-up window with "register
 * now". Each half hides when its data is missing or broken; the band hides when both do.
 */
export function RaceBand({ config, race, now }: { config: SiteConfig; race: RaceInfo | null; now?: number }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const { notice, closeNotice, run } = useModuleAction();
  const zone = raceTimeZone(race);
  const start = parseRaceTime(race?.startTime, zone);
  const end = parseRaceTime(race?.endTime, zone);
  const signUp = getSignUpInfo(config, race);
  if ((start === null || !race) && !signUp) return null;

  return (
    <section className="race-band" data-testid="race-band">
      <div className="race-band__inner container">
        {start !== null && race ? (
          <Countdown
            race={race}
            start={start}
            end={end}
            now={now}
            scoreSearch={moduleAction(searchEntry(config, 3), language, t('home.search.closed'))}
            onNotice={(text) => run({ kind: 'notice', text })}
          />
        ) : null}
        {signUp ? (
          <RegisterNow info={signUp} registrationSearch={searchEntry(config, 2)} timeZone={zone} now={now} />
        ) : null}
      </div>
      <Notice text={notice} onClose={closeNotice} />
    </section>
  );
}
