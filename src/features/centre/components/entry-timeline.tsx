import { Timeline } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TimelineStep } from '#contract/entry';
import { useRaceTime } from '@/lib/use-race-time';

/** What happened to a registration, oldest first, each step with its race-clock time. */
export function EntryTimeline({ steps }: { steps: { step: TimelineStep; at: number }[] }) {
  const { t } = useTranslation();
  const time = useRaceTime();
  if (steps.length === 0) return null;
  const sorted = [...steps].sort((a, b) => a.at - b.at);
  return (
    <div className="centre-timeline" data-testid="entry-timeline">
      <p className="centre-timeline__title">{t('centre.entry.timeline')}</p>
      <Timeline
        items={sorted.map((step, i) => ({
          key: `${step.step}-${step.at}`,
          color: i === sorted.length - 1 ? 'blue' : 'gray',
          content: (
            <span className="centre-timeline__step" data-testid={`timeline-${step.step}`}>
              <span>{t(`centre.timeline.${step.step}`)}</span>
              <time>{time(step.at)}</time>
            </span>
          ),
        }))}
      />
    </div>
  );
}
