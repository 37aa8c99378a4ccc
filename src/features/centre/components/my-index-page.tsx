/**
 * My registrations (issue 14 §5; PATHS.myIndex, reached at reg/#/my/my-index from the banner): every entry of
 * the account per race, with its status, the timeline of what happened (race-clock times), bib and masked
 * certificate, the wait-list position, the ballot page for ballot items, and its order: the status it shows
 * now, the amount, the countdown to the payment deadline and the pay button; the links to the entry's
 * after-entry services (issue 15: letter, pick-up, refund, the race-pack parcel). Nothing yet: a link to sign up.
 */
import { Link, generatePath } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  entryStatusLabel,
  placeByDraw,
  type MyEntriesAnswer,
  type MyEntry,
  type OrderView,
  formatFen,
} from '#contract/entry';
import { CERTIFICATE_TYPE_LABELS } from '#contract/enums';
import { PATHS } from '@/config/paths';
import { pickLang } from '@/lib/pick-lang';
import { useLoad } from '@/lib/use-load';
import { useAppStore } from '@/stores/app-store';
import { getMyEntries } from '../api/entries';
import { isPayable, orderStatusKey } from '../utils/orders';
import { useServerClock } from '../utils/use-clock';
import { CentreFrame, LoadView } from './centre-frame';
import { DeadlineCountdown } from './countdown';
import { PayButton } from './pay-button';
import { EntryServices } from './entry-services';
import { EntryTimeline } from './entry-timeline';

export default function MyIndexPage() {
  const { t } = useTranslation();
  const { result, reload } = useLoad(getMyEntries, 'mine');
  return (
    <CentreFrame title={t('centre.menu.myIndex')} testId="my-index-page">
      <LoadView load={result} retry={reload}>
        {(data) => <MyEntries data={data} />}
      </LoadView>
    </CentreFrame>
  );
}

/** Entries grouped per race, newest first as answered. */
function byRace(entries: MyEntry[]): MyEntry[][] {
  const groups = new Map<string, MyEntry[]>();
  for (const entry of entries) groups.set(entry.raceId, [...(groups.get(entry.raceId) ?? []), entry]);
  return [...groups.values()];
}

function MyEntries({ data }: { data: MyEntriesAnswer }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const orders = new Map(data.orders.map((order) => [order.orderNo, order]));
  const ticking = data.orders.some((order) => order.deadlineAt !== null);
  const now = useServerClock(data.now, ticking);
  if (data.entries.length === 0) {
    return (
      <div className="centre-panel centre-empty" data-testid="my-index-empty">
        <p>{t('centre.myIndex.empty')}</p>
        <Link className="button button--primary" to={PATHS.signUp} data-testid="my-index-sign-up">
          {t('centre.myIndex.signUp')}
        </Link>
      </div>
    );
  }
  return (
    <div className="centre-races">
      {byRace(data.entries).map((entries) => (
        <section key={entries[0]!.raceId} className="centre-race" data-testid={`race-${entries[0]!.raceId}`}>
          <h2 className="centre-race__name">{pickLang(language, entries[0]!.raceName.zh, entries[0]!.raceName.en)}</h2>
          {entries.map((entry) => (
            <EntryCard
              key={entry.entryNo}
              entry={entry}
              order={entry.orderNo ? orders.get(entry.orderNo) : undefined}
              now={now}
            />
          ))}
        </section>
      ))}
    </div>
  );
}

function EntryCard({ entry, order, now }: { entry: MyEntry; order: OrderView | undefined; now: number }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  return (
    <article className="centre-entry" data-testid={`entry-${entry.entryNo}`}>
      <header className="centre-entry__head">
        <h3 className="centre-entry__item">{pickLang(language, entry.itemName.zh, entry.itemName.en)}</h3>
        <span className={`centre-tag centre-tag--s${entry.status}`} data-testid="entry-status">
          {t(entryStatusLabel(entry.status, entry.model, entry.channel))}
        </span>
      </header>
      <div className="centre-entry__body">
        <dl className="centre-kv">
          <div>
            <dt>{t('centre.entry.entryNo')}</dt>
            <dd data-testid="entry-no">{entry.entryNo}</dd>
          </div>
          <div>
            <dt>{t('centre.entry.channel')}</dt>
            <dd>{t(`centre.channels.${entry.channel}`)}</dd>
          </div>
          <div>
            <dt>{t('centre.entry.name')}</dt>
            <dd>{entry.name}</dd>
          </div>
          <div className="centre-kv__number">
            <dt>{t(CERTIFICATE_TYPE_LABELS[entry.certificateType])}</dt>
            <dd className="centre-number" data-testid="entry-certificate">
              {entry.certificateNumber}
            </dd>
          </div>
          {entry.bib ? (
            <div>
              <dt>{t('centre.entry.bib')}</dt>
              <dd data-testid="entry-bib">{entry.bib}</dd>
            </div>
          ) : null}
          {entry.teamCode ? (
            <div>
              <dt>{t('centre.entry.team')}</dt>
              <dd>{entry.teamCode}</dd>
            </div>
          ) : null}
          {entry.waitListPosition !== null ? (
            <div>
              <dt>{t('centre.entry.waitList')}</dt>
              <dd data-testid="entry-wait-list">{t('centre.entry.waitListPosition', { n: entry.waitListPosition })}</dd>
            </div>
          ) : null}
        </dl>
        <EntryTimeline steps={entry.timeline} />
      </div>
      {placeByDraw(entry.model, entry.channel) ? (
        <p className="centre-entry__ballot">
          <Link to={PATHS.ballot} data-testid="entry-ballot-link">
            {t('centre.entry.ballotLink')}
          </Link>
        </p>
      ) : null}
      <EntryServices entryNo={entry.entryNo} services={entry.services} />
      {order ? <OrderStrip order={order} now={now} /> : null}
    </article>
  );
}

function OrderStrip({ order, now }: { order: OrderView; now: number }) {
  const { t } = useTranslation();
  const payable = isPayable(order, now);
  return (
    <footer className="centre-order-strip" data-testid={`order-${order.orderNo}`}>
      <span>
        {t('centre.order.labels.orderNo')} <strong>{order.orderNo}</strong>
      </span>
      <span className="centre-tag" data-testid="order-status">
        {t(orderStatusKey(order, now))}
      </span>
      <span data-testid="order-amount">
        {t('centre.order.labels.orderAmount')} <strong>¥{formatFen(order.amountFen)}</strong>
      </span>
      {payable && order.deadlineAt !== null ? (
        <DeadlineCountdown deadlineAt={order.deadlineAt} now={now} testId="order-countdown" />
      ) : null}
      <span className="centre-order-strip__actions">
        <Link to={generatePath(PATHS.order, { orderNo: order.orderNo })} data-testid="order-details">
          {t('centre.order.details')}
        </Link>
        {payable ? <PayButton orderNo={order.orderNo} /> : null}
      </span>
    </footer>
  );
}
