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
 *
 * The ways to pay (issue 31): one button per method the server takes (order.payMethods: 微信支付 / WeChat Pay,
 * 支付宝 / Alipay, 测试支付 / Test payment), the first the default; with one, the one pay button. A method
 * paid by scanning a QR code (orderPay's display 'qr': WeChat Pay on a desktop) shows the code here, with the
 * amount and the deadline, and asks for the order every QR_POLL_MS until it is paid (then the payment result, as
 * back from a cashier) or no longer payable, or the runner closes it. ?method= (from a list of orders) opens
 * that method's payment at once.
 */
import { Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  ENTRY_STATUSES,
  ORDER_STATUSES,
  formatFen,
  placeByDraw,
  type OrderPayAnswer,
  type OrderView,
} from '#contract/entry';
import { PATHS } from '@/config/paths';
import type zhCentre from '@/locales/zh/centre.json';
import { pickLang } from '@/lib/pick-lang';
import { useLoad } from '@/lib/use-load';
import { useRaceTime } from '@/lib/use-race-time';
import { useAppStore } from '@/stores/app-store';
import { getMyEntries, getOrder } from '../api/entries';
import { isPayable, orderStatusKey } from '../utils/orders';
import { useServerClock } from '../utils/use-clock';
import { usePay } from '../utils/use-pay';
import { useQrCode } from '../utils/use-qr-code';
import { CentreFrame, LoadView } from './centre-frame';
import { DeadlineCountdown } from './countdown';
import { PayMethods, usePayMethodName } from './pay-button';

type OrderLabel = Exclude<keyof typeof zhCentre.order.labels, 'subOrderNo'>;

const awaitingPayment = (order: OrderView) =>
  order.status === ORDER_STATUSES.awaitingPayment || order.status === ORDER_STATUSES.cancelSoon;

/** The payment result's polling: one call a second, at most this many. */
export const PAYMENT_POLL = { intervalMs: 1000, maxPolls: 15 } as const;
/** While a QR code is shown, the order is asked this often until it is paid or no longer payable. */
export const QR_POLL_MS = 2000;

export default function OrderPage() {
  const { t } = useTranslation();
  const { orderNo = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const backFromCashier = search.get('paid') === '1';
  const failedAtCashier = search.get('paid') === '0';
  const { result, reload, set } = useLoad(() => getOrder(orderNo), orderNo);
  /** The QR code of a payment being made by scanning, while it is shown. */
  const [qr, setQr] = useState<OrderPayAnswer | null>(null);
  const { pay } = usePay(setQr);
  // ?method= (a list of orders chose a method paid by scanning): that payment opened once the order is here.
  const asked = search.get('method');
  const opened = useRef(false);
  const loaded = result.state === 'ready' ? result.data : undefined;
  useEffect(() => {
    if (!asked || opened.current || !loaded) return;
    opened.current = true;
    setSearch({}, { replace: true });
    if (awaitingPayment(loaded)) void pay(loaded.orderNo, asked);
  }, [asked, loaded, pay, setSearch]);
  const onPaid = () => {
    setQr(null);
    setSearch({ paid: '1' }, { replace: true });
  };
  return (
    <CentreFrame title={t('centre.order.title')} testId="order-page">
      <p className="centre-back">
        <Link to={PATHS.myIndex}>{t('centre.order.back')}</Link>
      </p>
      <LoadView load={result} retry={reload}>
        {(order) => (
          <>
            {backFromCashier ? <PaymentResult order={order} onOrder={set} /> : null}
            {failedAtCashier && order.status !== ORDER_STATUSES.paid ? (
              <PaymentFailed order={order} onQr={setQr} />
            ) : null}
            {qr && qr.orderNo === order.orderNo ? (
              <QrPayment answer={qr} onOrder={set} onPaid={onPaid} onClose={() => setQr(null)} />
            ) : null}
            <OrderDetails order={order} onQr={setQr} />
          </>
        )}
      </LoadView>
    </CentreFrame>
  );
}

/**
 * A payment by scanning (the provider's QR code, e.g. WeChat Pay Native): the code, the amount and the deadline;
 * the order asked every QR_POLL_MS until it is paid (onPaid) or can no longer be paid; closed by the runner.
 */
function QrPayment({
  answer,
  onOrder,
  onPaid,
  onClose,
}: {
  answer: OrderPayAnswer;
  onOrder: (order: OrderView) => void;
  onPaid: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const time = useRaceTime();
  const methodName = usePayMethodName();
  const image = useQrCode(answer.qrContent);
  const [ended, setEnded] = useState(false);
  const { orderNo } = answer;
  useEffect(() => {
    if (ended) return undefined;
    let live = true;
    let timer: number | undefined;
    const poll = async () => {
      try {
        const next = await getOrder(orderNo, true);
        if (!live) return;
        onOrder(next);
        if (next.status === ORDER_STATUSES.paid) {
          onPaid();
          return;
        }
        if (!awaitingPayment(next)) {
          setEnded(true);
          return;
        }
      } catch {
        // asked again at the next tick
      }
      if (live) timer = window.setTimeout(() => void poll(), QR_POLL_MS);
    };
    timer = window.setTimeout(() => void poll(), QR_POLL_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [ended, orderNo, onOrder, onPaid]);
  const scan =
    answer.method === 'wechatpay'
      ? t('centre.payment.scanWechat')
      : t('centre.payment.scanWith', { method: methodName(answer.method) });
  return (
    <section
      className="centre-panel centre-panel--info centre-qr-pay"
      aria-labelledby="qr-pay-title"
      data-testid="pay-qr"
    >
      <h2 id="qr-pay-title" className="centre-panel__title">
        {scan}
      </h2>
      {ended ? (
        <p role="alert">{t('centre.payment.failedClosed')}</p>
      ) : (
        <>
          <div className="centre-qr-pay__code">
            {image ? (
              <img
                src={image}
                alt={t('centre.payment.qrAlt', { method: methodName(answer.method) })}
                width={184}
                height={184}
                data-testid="pay-qr-image"
              />
            ) : null}
          </div>
          <p data-testid="pay-qr-amount">{t('centre.payment.amountDue', { amount: formatFen(answer.amountFen) })}</p>
          <p>{t('centre.order.payBefore', { time: time(answer.deadlineAt) })}</p>
          <p role="status">{t('centre.payment.qrWaiting')}</p>
        </>
      )}
      <Button onClick={onClose} data-testid="pay-qr-close">
        {t('centre.payment.qrClose')}
      </Button>
    </section>
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
function PaymentFailed({ order, onQr }: { order: OrderView; onQr?: (answer: OrderPayAnswer) => void }) {
  const { t } = useTranslation();
  const now = useServerClock(undefined, order.deadlineAt !== null);
  const payable = isPayable(order, now);
  return (
    <div className="centre-panel centre-panel--warn" role="alert" data-testid="payment-failed">
      <p className="centre-panel__title">{t('centre.payment.failed')}</p>
      <p>{t(payable ? 'centre.payment.failedHelp' : 'centre.payment.failedClosed')}</p>
      {payable ? <PayMethods orderNo={order.orderNo} methods={order.payMethods} onQr={onQr} again /> : null}
    </div>
  );
}

function OrderDetails({ order, onQr }: { order: OrderView; onQr: (answer: OrderPayAnswer) => void }) {
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
        {payable ? (
          <span className="centre-order__due" data-testid="order-due">
            {t('centre.payment.amountDue', { amount: formatFen(order.amountFen) })}
          </span>
        ) : null}
        {payable ? <PayMethods orderNo={order.orderNo} methods={order.payMethods} onQr={onQr} /> : null}
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
