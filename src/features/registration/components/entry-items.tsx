/**
 * The sign-up page's window line (with the countdown to the opening) and its item cards: each item's name,
 * fee, entry model in one line, places, age limits, charity places, teams and the ballot's commitment.
 */
import { Button, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatFen, type EntryChannel, type EntryInfo, type EntryItemInfo } from '#contract/entry';
import { parseRaceTime, remainingUntil } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import { PATHS } from '@/config/paths';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { localText } from '../utils/form-utils';
import { useRaceTime } from '../utils/race-time';

/** '¥1,280.00': the one way a fee is shown. */
export const yuan = (fen: number) => `¥${formatFen(fen)}`;

const WINDOW_TAG = { notYet: 'default', open: 'success', ended: 'error', closed: 'error' } as const;

/** The sign-up window, its state, and before it opens a countdown (on the server's clock); `onOpen` when it reaches 0. */
export function EntryWindow({ info, onOpen }: { info: EntryInfo; onOpen: () => void }) {
  const { t } = useTranslation();
  const time = useRaceTime();
  const race = useSiteStore((s) => s.race);
  const start = parseRaceTime(info.signUpStartTime, raceTimeZone(race));
  // The server's clock: its `now` when answered, moved on by the local clock since.
  const [offset] = useState(() => info.now - Date.now());
  const [now, setNow] = useState(() => info.now);
  const counting = info.windowState === 'notYet' && start !== null;
  useEffect(() => {
    if (!counting) return undefined;
    const timer = window.setInterval(() => setNow(Date.now() + offset), 1000);
    return () => window.clearInterval(timer);
  }, [counting, offset]);
  const reached = counting && now >= start;
  useEffect(() => {
    if (reached) onOpen();
  }, [reached, onOpen]);
  const left = start !== null ? remainingUntil(start, now) : null;
  return (
    <div className={`en-window en-window--${info.windowState}`} data-testid="entry-window">
      <p className="rs-window">
        <span>{t('entry.signUp.window')}</span>
        {info.signUpStartTime ? <time>{time(info.signUpStartTime)}</time> : null}
        <span aria-hidden="true"> — </span>
        {info.signUpEndTime ? <time>{time(info.signUpEndTime)}</time> : null}
        <Tag className="rs-window__state" color={WINDOW_TAG[info.windowState]} data-testid="entry-window-state">
          {t(`entry.signUp.windowStates.${info.windowState}`)}
        </Tag>
      </p>
      {counting && left ? (
        <p className="en-countdown" role="timer" data-testid="entry-countdown">
          {t('entry.signUp.countdown', {
            days: left.days,
            hours: String(left.hours).padStart(2, '0'),
            minutes: String(left.minutes).padStart(2, '0'),
            seconds: String(left.seconds).padStart(2, '0'),
          })}
        </p>
      ) : null}
      <p className="en-window__text">{t(`entry.signUp.windowTexts.${info.windowState}`)}</p>
    </div>
  );
}

/** The model of an item in one line (first come / ballot after the window / pay first then draw). */
export function modelLine(t: TFunction, item: EntryItemInfo): string {
  const minutes = item.paymentMinutes;
  const within =
    minutes % 60 === 0
      ? t('entry.signUp.hours', { count: minutes / 60 })
      : t('entry.signUp.minutes', { count: minutes });
  const key = {
    firstCome: 'entry.signUp.models.firstCome',
    ballot: 'entry.signUp.models.ballot',
    payThenDraw: 'entry.signUp.models.payThenDraw',
  } as const;
  return t(key[item.model], { within });
}

function ageLine(t: TFunction, item: EntryItemInfo): string | null {
  if (item.minAge !== undefined && item.maxAge !== undefined)
    return t('entry.signUp.ageBetween', { min: item.minAge, max: item.maxAge });
  if (item.minAge !== undefined) return t('entry.signUp.ageMin', { min: item.minAge });
  if (item.maxAge !== undefined) return t('entry.signUp.ageMax', { max: item.maxAge });
  return null;
}

export function ItemCards({
  items,
  selected,
  selectable,
  onSelect,
  channel,
}: {
  items: EntryItemInfo[];
  selected: string | undefined;
  /** Which items may be chosen for the current channel (none: the cards only inform). */
  selectable: (item: EntryItemInfo) => boolean;
  onSelect: (code: string) => void;
  /** The channel chosen: an item whose channel the organiser closed reads closed. */
  channel?: EntryChannel;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const time = useRaceTime();
  return (
    <ul className="en-items" data-testid="entry-items">
      {items.map((item) => {
        const age = ageLine(t, item);
        const chosen = selected === item.code;
        const can = selectable(item);
        const full = item.left !== null && item.left <= 0;
        const closed = channel !== undefined && !!item.closedChannels?.includes(channel);
        return (
          <li
            key={item.code}
            className={`en-item${chosen ? ' en-item--chosen' : ''}`}
            data-testid={`entry-item-${item.code}`}
          >
            <div className="en-item__head">
              <h3 className="en-item__name">
                {localText(language, item.name)}
                {closed ? (
                  <Tag className="en-item__closed" color="error" data-testid={`entry-item-closed-${item.code}`}>
                    {t('entry.signUp.windowStates.closed')}
                  </Tag>
                ) : null}
              </h3>
              <span className="en-item__fee" data-testid="entry-item-fee">
                {yuan(item.feeFen)}
              </span>
            </div>
            <p className="en-item__model" data-testid="entry-item-model">
              {modelLine(t, item)}
            </p>
            <dl className="en-item__facts">
              <div>
                <dt>{t('entry.signUp.capacity')}</dt>
                <dd>{t('entry.signUp.places', { count: item.capacity })}</dd>
              </div>
              {item.left !== null ? (
                <div>
                  <dt>{t('entry.signUp.left')}</dt>
                  <dd data-testid="entry-item-left">
                    {full ? t('entry.signUp.full') : t('entry.signUp.places', { count: item.left })}
                  </dd>
                </div>
              ) : null}
              {age ? (
                <div>
                  <dt>{t('entry.signUp.age')}</dt>
                  <dd>{age}</dd>
                </div>
              ) : null}
              {item.charity ? (
                <div>
                  <dt>{t('entry.signUp.charity')}</dt>
                  <dd data-testid="entry-item-charity">
                    {t('entry.signUp.charityLine', {
                      fee: yuan(item.charity.feeFen),
                      count: item.charity.left,
                    })}
                  </dd>
                </div>
              ) : null}
              {item.teams ? (
                <div>
                  <dt>{t('entry.signUp.teams')}</dt>
                  <dd>{t('entry.signUp.teamsLine', { min: item.teams.minSize, max: item.teams.maxSize })}</dd>
                </div>
              ) : null}
            </dl>
            {item.ballot ? (
              <p className="en-item__ballot" data-testid="entry-item-ballot">
                <span>{t('entry.signUp.commitment', { time: time(item.ballot.committedAt) })}</span>
                <span className="en-item__ballot-line">
                  <code className="en-item__hash" title={item.ballot.commitment}>
                    {item.ballot.commitment.slice(0, 16)}…
                  </code>
                  <Link to={PATHS.ballot}>{t('entry.signUp.ballotLink')}</Link>
                </span>
              </p>
            ) : item.model !== 'firstCome' ? (
              // Before the commitment: how the draw is run and checked, on the public ballot page.
              <p className="en-item__ballot" data-testid="entry-item-ballot-how">
                <Link to={PATHS.ballot}>{t('entry.signUp.ballotHow')}</Link>
              </p>
            ) : null}
            {can ? (
              <Button
                className="en-item__choose"
                type={chosen ? 'primary' : 'default'}
                aria-pressed={chosen}
                onClick={() => onSelect(item.code)}
                data-testid={`entry-choose-${item.code}`}
              >
                {chosen ? t('entry.signUp.chosen') : t('entry.signUp.choose')}
              </Button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
