/**
 * One order (issue 14 §5; PATHS.order): the spec's order labels (order number, sub-order number, create time,
 * serial number, payment time, amount paid, order amount, coupon, discount), its lines, the status it shows
 * now, the payment deadline's countdown and the pay button (orderPay → the provider's cashier page).
 *
 * Back from the cashier (?paid=1) the page shows the payment result: the order is asked again every second
 * for up to PAYMENT_POLL.maxPolls seconds until it reads paid ("registered successfully", or "paid, waiting
 * for the draw" while its entries await the ballot), else "payment not confirmed yet" with a refresh. Back
 * with ?paid=0 (the cashier reported the payment failed, or the runner cancelled there), or with ?paid=1
 * while the order reads that its latest payment failed (paymentFailed, from the provider's notification), it
 * says the payment was not completed and offers paying again while the order is payable.
 */
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ENTRY_STATUSES, ORDER_STATUSES, formatFen, placeByDraw, type OrderView } from '#contract/entry';
import { PATHS } from '@/config/paths';
import type zhCentre from '@/locales/zh/centre.json';
import { pickLang } from '@/lib/pick-lang';
import { useLoad } from '@/lib/use-load';
import { useRaceTime } from '@/lib/use-race-time';
import { useAppStore } from '@/stores/app-store';
import { getMyEntries, getOrder } from '../api/entries';
import { isPayable, orderStatusKey } from '../utils/orders';
import { useServerClock } from '../utils/use-clock';
import { CentreFrame, LoadView } from './centre-frame';
import { DeadlineCountdown } from './countdown';
import { PayButton } from './pay-button';

type OrderLabel = Exclude<keyof typeof zhCentre.order.labels, 'subOrderNo'>;

/** The payment result's polling: one call a second, at most this many. */
export const PAYMENT_POLL = { intervalMs: 1000, maxPolls: 15 } as const;

export default function OrderPage() {
  const { t } = useTranslation();
  const { orderNo = '' } = useParams();
  const [search] = useSearchParams();
  const backFromCashier = search.get('paid') === '1';
  const failedAtCashier = search.get('paid') === '0';
  const { result, reload, set } = useLoad(() => getOrder(orderNo), orderNo);
  return (
    <CentreFrame title={t('centre.order.title')} testId="order-page">
      <p className="centre-back">
        <Link to={PATHS.myIndex}>{t('centre.order.back')}</Link>
      </p>
      <LoadView load={result} retry={reload}>
        {(order) => (
          <>
            {backFromCashier ? <PaymentResult order={order} onOrder={set} /> : null}
            {failedAtCashier && order.status !== ORDER_STATUSES.paid ? <PaymentFailed order={order} /> : null}
            <OrderDetails order={order} />
          </>
        )}
      </LoadView>
    </CentreFrame>
  );
}

type Phase = 'checking' | 'paid' | 'failed' | 'unconfirmed' | 'settled';

const phaseOf = (order: OrderView): Phase =>
  order.status === ORDER_STATUSES.paid
    ? 'paid'
    : order.status === ORDER_STATUSES.cancelled || order.status === ORDER_STATUSES.refunded
      ? 'settled'
      : order.paymentFailed
        ? 'failed'
        : 'checking';

function PaymentResult({ order, onOrder }: { order: OrderView; onOrder: (order: OrderView) => void }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>(() => phaseOf(order));
  const [round, setRound] = useState(0);
  const [waitingForDraw, setWaitingForDraw] = useState<boolean | null>(null);
  const { orderNo } = order;

  useEffect(() => {
    if (phase !== 'checking') return undefined;
    let live = true;
    let polls = 0;
    let timer: number | undefined;
    const poll = async () => {
      polls += 1;
      try {
        const next = await getOrder(orderNo, true);
        if (!live) return;
        onOrder(next);
        const nextPhase = phaseOf(next);
        if (nextPhase !== 'checking') {
          setPhase(nextPhase);
          return;
        }
      } catch {
        // A failed poll counts as one more second without a result.
      }
      if (!live) return;
      if (polls >= PAYMENT_POLL.maxPolls) setPhase('unconfirmed');
      else timer = window.setTimeout(() => void poll(), PAYMENT_POLL.intervalMs);
    };
    timer = window.setTimeout(() => void poll(), PAYMENT_POLL.intervalMs);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [phase, round, orderNo, onOrder]);

  // Paid: registered, or waiting for the draw while an entry of the order still awaits it.
  const entryNos = order.lines.map((line) => line.entryNo).join(',');
  useEffect(() => {
    if (phase !== 'paid') return undefined;
    let live = true;
    const nos = new Set(entryNos.split(','));
    getMyEntries().then(
      (mine) => {
        if (!live) return;
        const entries = mine.entries.filter((entry) => nos.has(entry.entryNo));
        setWaitingForDraw(
          entries.some((entry) => entry.status === ENTRY_STATUSES.submitted && placeByDraw(entry.model, entry.channel)),
        );
      },
      () => live && setWaitingForDraw(false),
    );
    return () => {
      live = false;
    };
  }, [phase, entryNos]);

  if (phase === 'settled') return null;
  // The provider told the server the payment failed (or was cancelled at its cashier).
  if (phase === 'failed') return <PaymentFailed order={order} />;
  if (phase === 'checking') {
    return (
      <div className="centre-panel centre-panel--info" role="status" data-testid="payment-checking">
        {t('centre.payment.checking')}
      </div>
    );
  }
  if (phase === 'unconfirmed') {
    return (
      <div className="centre-panel centre-panel--warn" role="alert" data-testid="payment-unconfirmed">
        <p className="centre-panel__title">{t('centre.payment.notConfirmed')}</p>
        <p>{t('centre.payment.notConfirmedHelp')}</p>
        <Button
          onClick={() => {
            setPhase('checking');
            setRound((n) => n + 1);
          }}
          data-testid="payment-refresh"
        >
          {t('centre.payment.refresh')}
        </Button>
      </div>
    );
  }
  if (waitingForDraw === null) {
    return (
      <div className="centre-panel centre-panel--info" role="status" data-testid="payment-checking">
        {t('centre.payment.checking')}
      </div>
    );
  }
  return (
    <div className="centre-panel centre-panel--ok" role="status" data-testid="payment-success">
      <p className="centre-panel__title">
        {waitingForDraw ? t('centre.payment.paidAwaitingDraw') : t('centre.payment.registered')}
      </p>
      <p>{t('centre.payment.paidAmount', { amount: formatFen(order.paidFen) })}</p>
    </div>
  );
}

/** Back from a payment that failed or was cancelled at the cashier: said so, with paying again if still payable. */
function PaymentFailed({ order }: { order: OrderView }) {
  const { t } = useTranslation();
  const now = useServerClock(undefined, order.deadlineAt !== null);
  const payable = isPayable(order, now);
  return (
    <div className="centre-panel centre-panel--warn" role="alert" data-testid="payment-failed">
      <p className="centre-panel__title">{t('centre.payment.failed')}</p>
      <p>{t(payable ? 'centre.payment.failedHelp' : 'centre.payment.failedClosed')}</p>
      {payable ? (
        <PayButton orderNo={order.orderNo} label={t('centre.payment.payAgain')} testId="payment-pay-again" />
      ) : null}
    </div>
  );
}

function OrderDetails({ order }: { order: OrderView }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const time = useRaceTime();
  const now = useServerClock(undefined, order.deadlineAt !== null);
  const payable = isPayable(order, now);
  const money = (fen: number) => `¥${formatFen(fen)}`;
  const rows: [OrderLabel, React.ReactNode, string][] = [
    ['orderNo', order.orderNo, 'order-no'],
    ['createTime', time(order.createdAt), 'order-created'],
    ['serialNo', order.serialNo ?? '—', 'order-serial'],
    ['payTime', order.paidAt ? time(order.paidAt) : '—', 'order-paid-at'],
    ['orderAmount', money(order.amountFen), 'order-amount'],
    ['coupon', money(order.couponFen), 'order-coupon'],
    ['discount', money(order.discountFen), 'order-discount'],
    ['paidAmount', money(order.paidFen), 'order-paid'],
  ];
  return (
    <div className="centre-order" data-testid={`order-${order.orderNo}`}>
      <div className="centre-order__status">
        <span className={`centre-tag centre-tag--o${order.status}`} data-testid="order-status">
          {t(orderStatusKey(order, now))}
        </span>
        {payable && order.deadlineAt !== null ? (
          <>
            <span>{t('centre.order.payBefore', { time: time(order.deadlineAt) })}</span>
            <DeadlineCountdown deadlineAt={order.deadlineAt} now={now} testId="order-countdown" />
          </>
        ) : null}
        {payable ? <PayButton orderNo={order.orderNo} /> : null}
      </div>
      {order.status === ORDER_STATUSES.cancelled ? (
        <p className="centre-panel centre-panel--off" data-testid="order-cancelled-note">
          {t('centre.order.cancelledNote')}
        </p>
      ) : null}
      {order.status === ORDER_STATUSES.refunded ? (
        <p className="centre-panel centre-panel--off" data-testid="order-refunded-note">
          {t('centre.order.refundedNote', { amount: formatFen(order.refundedFen) })}
        </p>
      ) : null}
      {order.status !== ORDER_STATUSES.refunded && order.refundedFen > 0 ? (
        <p className="centre-panel centre-panel--off" data-testid="order-refunded-part">
          {t('centre.refund.orderNote', { amount: formatFen(order.refundedFen) })}
        </p>
      ) : null}
      <dl className="centre-kv centre-kv--order">
        {rows.map(([key, value, testId]) => (
          <div key={key}>
            <dt>{t(`centre.order.labels.${key}`)}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
      <table className="centre-lines phone-cards" data-testid="order-lines">
        <caption>{t('centre.order.lines')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('centre.order.labels.subOrderNo')}</th>
            <th scope="col">{t('centre.entry.entryNo')}</th>
            <th scope="col">{t('centre.entry.name')}</th>
            <th scope="col">{t('centre.entry.item')}</th>
            <th scope="col">{t('centre.order.labels.orderAmount')}</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={line.subOrderNo}>
              {/* data-label: on the mobile site each line is a card of labelled rows (centre-mobile.css); the
                  value's own span goes under its label, whole, when the two do not fit on one row. */}
              <td data-label={t('centre.order.labels.subOrderNo')}>
                <span>{line.subOrderNo}</span>
              </td>
              <td data-label={t('centre.entry.entryNo')}>
                <span>{line.entryNo}</span>
              </td>
              <td data-label={t('centre.entry.name')}>
                <span>{line.name}</span>
              </td>
              <td data-label={t('centre.entry.item')}>
                <span>{pickLang(language, line.itemName.zh, line.itemName.en)}</span>
              </td>
              <td data-label={t('centre.order.labels.orderAmount')}>
                <span>{money(line.amountFen)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
