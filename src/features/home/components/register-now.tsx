import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { DAY_MS, formatRaceTime, SHORT_DATE_TIME_FORMAT, timeZoneOffsetName } from '#contract/race-clock';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';
import { useAppStore } from '@/stores/app-store';
import { useNow } from '../hooks/use-now';
import { useModuleAction } from '../hooks/use-module-action';
import { moduleAction, type ActionSource } from '../utils/module-action';
import { signUpState, type SignUpInfo } from '@/lib/sign-up-state';
import { signUpAction } from '../utils/sign-up';

const loadSignUpDialog = () => import('./sign-up-dialog');
const SignUpDialog = lazy(loadSignUpDialog);

function Time({ ms, zone }: { ms: number; zone: string }) {
  return <time dateTime={new Date(ms).toISOString()}>{formatRaceTime(ms, SHORT_DATE_TIME_FORMAT, zone)}</time>;
}

/**
 * Register now + the sign-up window (spec §2 register-now, registration-now-and-start-time): the window's
 * dates and state (not yet open / open / closed), and a button that opens the sign-up-or-search dialog.
 */
export function RegisterNow({
  info,
  registrationSearch,
  timeZone = DEFAULT_RACE_TIME_ZONE,
  now: fixedNow,
}: {
  info: SignUpInfo;
  registrationSearch: ActionSource;
  /** The race's zone: the window's dates are shown on its clock. */
  timeZone?: string;
  now?: number;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const now = useNow(60 * 1000, fixedNow);
  const [dialogOpen, setDialogOpen] = useState(false);
  const { run } = useModuleAction();
  const state = signUpState(info, now);
  const { start, end } = info;
  const anchor = start ?? end;
  const title = pickLang(language, info.title, info.titleEn).trim() || t('home.signUp.title');
  const daysUntil = (target: number) => Math.max(1, Math.ceil((target - now) / DAY_MS));

  let hint: string | null = null;
  if (state === 'upcoming' && start !== null) hint = t('home.signUp.opensIn', { count: daysUntil(start) });
  else if (state === 'open' && end !== null) hint = t('home.signUp.closesIn', { count: daysUntil(end) });
  else if (state === 'closed') hint = t('home.signUp.closedHint');

  let dates: React.ReactNode = t('home.signUp.tba');
  if (start !== null && end !== null) {
    dates = (
      <>
        <Time ms={start} zone={timeZone} />
        <span className="signup__sep">{t('home.time.to')}</span>
        <Time ms={end} zone={timeZone} />
      </>
    );
  } else if (start !== null)
    dates = t('home.time.from', { start: formatRaceTime(start, SHORT_DATE_TIME_FORMAT, timeZone) });
  else if (end !== null) dates = t('home.time.until', { end: formatRaceTime(end, SHORT_DATE_TIME_FORMAT, timeZone) });

  const closedText = t('home.search.closed');
  return (
    <div className={`signup signup--${state}`} data-testid="register-now" data-state={state}>
      <div className="signup__head">
        <h2 className="signup__title">
          {title}
          {anchor !== null ? (
            <span className="signup__zone">
              {timeZone === DEFAULT_RACE_TIME_ZONE
                ? t('home.time.zone')
                : timeZoneOffsetName(anchor, timeZone, language)}
            </span>
          ) : null}
        </h2>
        {state !== 'unscheduled' ? (
          <span className={`signup__state signup__state--${state}`} data-testid="signup-state">
            {t(`home.signUp.state.${state}`)}
          </span>
        ) : null}
      </div>
      <p className="signup__window" data-testid="signup-window">
        {dates}
      </p>
      <p className="signup__hint">{hint}</p>
      <button
        type="button"
        className="signup__button"
        onClick={() => setDialogOpen(true)}
        // The dialog (and antd) starts loading when the visitor heads for the button.
        onPointerEnter={() => void loadSignUpDialog()}
        onFocus={() => void loadSignUpDialog()}
      >
        {t(state === 'closed' ? 'home.signUp.buttonClosed' : 'home.signUp.button')}
      </button>
      {dialogOpen ? (
        <Suspense fallback={null}>
          <SignUpDialog
            onClose={() => setDialogOpen(false)}
            signUp={signUpAction(info, state, language, {
              notOpen: closedText,
              closed: t('home.signUp.closedNotice'),
            })}
            search={moduleAction(registrationSearch, language, closedText)}
            onGo={(action) => {
              setDialogOpen(false);
              run(action);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
