import { useTranslation } from 'react-i18next';
import { remainingUntil } from '#contract/race-clock';

const pad = (n: number) => String(n).padStart(2, '0');

/** Time left until an order's deadline ('1 天 02:03:04'); 'expired' once it has passed. */
export function DeadlineCountdown({ deadlineAt, now, testId }: { deadlineAt: number; now: number; testId?: string }) {
  const { t } = useTranslation();
  if (deadlineAt <= now) {
    return (
      <span className="centre-countdown centre-countdown--over" data-testid={testId}>
        {t('centre.countdown.over')}
      </span>
    );
  }
  const { days, hours, minutes, seconds } = remainingUntil(deadlineAt, now);
  const clock = `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  return (
    <span className="centre-countdown" data-testid={testId} role="timer">
      {t('centre.countdown.left', { time: days > 0 ? t('centre.countdown.days', { days, clock }) : clock })}
    </span>
  );
}
