/**
 * Refunds and deferral (issue 15 §4; PATHS.refund): the race's terms (until when, the share, what comes back
 * in yuan), and per entry: a refund request with a reason (REFUND_REASON_LIMITS) confirmed in a dialog that
 * names the amount, the deferral request when the race offers it, and the entry's requests with their status
 * (under review, approved, rejected with the organiser's reason). `?entryNo=` chooses the entry when the
 * account has several.
 */
import { Button, Input, Modal, Select } from 'antd';
import { useId, useRef, useState } from 'react';
import { generatePath, Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  REFUND_REASON_LIMITS,
  type RefundAnswer,
  type RefundRequestKind,
  type RefundRequestView,
} from '#contract/after-entry';
import { ENTRY_STATUSES, entryStatusLabel, formatFen, type EntryChannel, type EntryModel } from '#contract/entry';
import { PATHS } from '@/config/paths';
import { moveFocus } from '@/lib/move-focus';
import { notify } from '@/lib/notify';
import { pickLang } from '@/lib/pick-lang';
import { useLoad } from '@/lib/use-load';
import { useRaceId } from '@/lib/use-race-id';
import { useRaceTime } from '@/lib/use-race-time';
import { useAppStore } from '@/stores/app-store';
import { getMyEntries } from '../api/entries';
import { getRefunds, requestRefund } from '../api/refund';
import { CentreFrame, LoadView } from './centre-frame';
import '../refund.css';

type RefundEntry = RefundAnswer['entries'][number];

interface RefundData {
  refunds: RefundAnswer;
  /** entryNo → its channel, item model and latest order (deferral is not for charity and code places; the order link; the status label). */
  mine: Map<string, { channel: EntryChannel; model: EntryModel; orderNo: string | null }>;
}

async function loadRefunds(raceId: string): Promise<RefundData> {
  const [refunds, mine] = await Promise.all([getRefunds(raceId), getMyEntries().catch(() => undefined)]);
  const map: RefundData['mine'] = new Map();
  for (const entry of mine?.entries ?? [])
    map.set(entry.entryNo, { channel: entry.channel, model: entry.model, orderNo: entry.orderNo });
  return { refunds, mine: map };
}

/** A race that offers deferral but no refunds: the page speaks of deferral (its title, terms and notes). */
const deferralOnly = (refunds: RefundAnswer) =>
  refunds.refunds.state === 'closed' && refunds.deferral.state !== 'closed';

export default function RefundPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload, set } = useLoad(() => loadRefunds(raceId), raceId);
  const deferral = result.state === 'ready' && deferralOnly(result.data.refunds);
  return (
    <CentreFrame title={t(deferral ? 'centre.refund.deferralTitle' : 'centre.refund.title')} testId="refund-page">
      <p className="centre-back">
        <Link to={PATHS.myIndex}>{t('centre.refund.back')}</Link>
      </p>
      <LoadView load={result} retry={reload}>
        {(data) => <Refunds data={data} onChange={set} />}
      </LoadView>
    </CentreFrame>
  );
}

function Terms({ refunds }: { refunds: RefundAnswer }) {
  const { t } = useTranslation();
  const raceTime = useRaceTime();
  const { refunds: terms, deferral } = refunds;
  const time = (text: string) => raceTime(text, 'YYYY-MM-DD HH:mm');
  const onlyDeferral = deferralOnly(refunds);
  return (
    <section className="refund-terms" data-testid="refund-terms">
      <h2 className="refund-terms__title">
        {t(onlyDeferral ? 'centre.refund.deferralTermsTitle' : 'centre.refund.termsTitle')}
      </h2>
      {terms.state === 'closed' ? (
        <p data-testid="refund-terms-closed">{t('centre.refund.closed')}</p>
      ) : (
        <p data-testid="refund-terms-refund">
          {t(terms.state === 'open' ? 'centre.refund.terms' : 'centre.refund.termsEnded', {
            time: time(terms.until),
            share: terms.sharePercent,
          })}
        </p>
      )}
      {deferral.state === 'closed' ? null : (
        <p data-testid="refund-terms-deferral">
          {t(deferral.state === 'open' ? 'centre.refund.deferralTerms' : 'centre.refund.deferralEnded', {
            time: time(deferral.until),
          })}
        </p>
      )}
      <p className="centre-note">{t(onlyDeferral ? 'centre.refund.deferralHowItWorks' : 'centre.refund.howItWorks')}</p>
    </section>
  );
}

function Refunds({ data, onChange }: { data: RefundData; onChange: (data: RefundData) => void }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [search, setSearch] = useSearchParams();
  const { refunds } = data;
  const wanted = search.get('entryNo');
  const entry = refunds.entries.find((e) => e.entryNo === wanted) ?? refunds.entries[0];

  const onRequest = (entryNo: string, view: RefundRequestView) =>
    onChange({
      ...data,
      refunds: {
        ...refunds,
        entries: refunds.entries.map((e) =>
          e.entryNo === entryNo
            ? {
                ...e,
                status: view.kind === 'refund' ? ENTRY_STATUSES.refundReview : e.status,
                requests: [view, ...e.requests],
              }
            : e,
        ),
      },
    });

  return (
    <>
      <Terms refunds={refunds} />
      {entry === undefined ? (
        <div className="centre-panel centre-panel--info" data-testid="refund-no-entries">
          {t(deferralOnly(refunds) ? 'centre.refund.deferralNoEntries' : 'centre.refund.noEntries')}
        </div>
      ) : (
        <>
          {refunds.entries.length > 1 ? (
            <label className="refund-entry-choice">
              <span>{t('centre.refund.entryLabel')}</span>
              <Select
                value={entry.entryNo}
                onChange={(entryNo: string) => setSearch({ entryNo }, { replace: true })}
                options={refunds.entries.map((e) => ({
                  value: e.entryNo,
                  label: t('centre.refund.entryOption', {
                    name: e.name,
                    item: pickLang(language, e.itemName.zh, e.itemName.en),
                    entryNo: e.entryNo,
                  }),
                }))}
                data-testid="refund-entry-select"
              />
            </label>
          ) : null}
          <EntryRefund
            key={entry.entryNo}
            raceId={refunds.raceId}
            refunds={refunds}
            entry={entry}
            mine={data.mine.get(entry.entryNo)}
            onRequest={(view) => onRequest(entry.entryNo, view)}
          />
        </>
      )}
    </>
  );
}

/**
 * Why an entry may not ask for a refund now (a centre.refund.blocked key), or null when it may. Of a
 * deferral-only race the window is the deferral's, and notWon, notPaid and ended are said of deferral
 * (blockText).
 */
function refundBlock(refunds: RefundAnswer, entry: RefundEntry): string | null {
  if (entry.status === ENTRY_STATUSES.refundReview) return 'inReview';
  if (entry.status === ENTRY_STATUSES.refunded) return 'refunded';
  if (entry.requests.some((r) => r.kind === 'deferral' && r.status === 'approved')) return 'deferred';
  if (entry.status !== ENTRY_STATUSES.won) return 'notWon';
  if (entry.paidFen <= 0) return 'notPaid';
  if (entry.requests.some((r) => r.status === 'review')) return 'inReview';
  // Either request still open: nothing blocks (which buttons show is each window's own state). Both past:
  // 'ended', of the refund, or of the deferral on a deferral-only race.
  if (refunds.refunds.state === 'open' || refunds.deferral.state === 'open') return null;
  const window = deferralOnly(refunds) ? refunds.deferral : refunds.refunds;
  return window.state === 'ended' ? 'ended' : null;
}

/** The translation key of a block: the deferral's own words where a deferral-only race's differ. */
const blockKey = (refunds: RefundAnswer, block: string) =>
  (deferralOnly(refunds) && (block === 'notWon' || block === 'notPaid' || block === 'ended')
    ? `centre.refund.deferralBlocked.${block}`
    : `centre.refund.blocked.${block}`) as 'centre.refund.blocked.inReview';

function EntryRefund({
  raceId,
  refunds,
  entry,
  mine,
  onRequest,
}: {
  raceId: string;
  refunds: RefundAnswer;
  entry: RefundEntry;
  mine: { channel: EntryChannel; model: EntryModel; orderNo: string | null } | undefined;
  onRequest: (view: RefundRequestView) => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<RefundRequestKind | null>(null);
  const [sending, setSending] = useState(false);
  /** A request was just sent: the closing dialog hands focus to what the entry now says. */
  const sent = useRef(false);

  const block = refundBlock(refunds, entry);
  const canRefund = refunds.refunds.state === 'open' && block === null;
  const deferralUsed = entry.requests.some((r) => r.kind === 'deferral' && r.status === 'approved');
  const canDefer =
    refunds.deferral.state === 'open' &&
    block === null &&
    !deferralUsed &&
    mine?.channel !== 'charity' &&
    mine?.channel !== 'code';
  const deferralExcluded =
    refunds.deferral.state === 'open' && (mine?.channel === 'charity' || mine?.channel === 'code');

  const ask = (kind: RefundRequestKind) => {
    const length = [...reason.trim()].length;
    if (length < REFUND_REASON_LIMITS.min) {
      setError(t('messages.textTooShort', { count: REFUND_REASON_LIMITS.min }));
      return;
    }
    setError(null);
    setConfirming(kind);
  };

  const send = async () => {
    if (confirming === null) return;
    setSending(true);
    try {
      const view = await requestRefund({ raceId, entryNo: entry.entryNo, kind: confirming, reason: reason.trim() });
      sent.current = true;
      setConfirming(null);
      setReason('');
      notify.success(t('centre.refund.sent'));
      onRequest(view);
    } catch {
      // The refusal was shown as a toast; the dialog stays for another try or cancel.
    } finally {
      setSending(false);
    }
  };

  const money = (fen: number) => `¥${formatFen(fen)}`;
  const entrySelector = `[data-testid="refund-entry-${entry.entryNo}"]`;
  return (
    <article className="centre-entry refund-entry" data-testid={`refund-entry-${entry.entryNo}`}>
      <header className="centre-entry__head">
        <h3 className="centre-entry__item">{pickLang(language, entry.itemName.zh, entry.itemName.en)}</h3>
        <span className={`centre-tag centre-tag--s${entry.status}`} data-testid="refund-entry-status">
          {t(entryStatusLabel(entry.status, mine?.model, mine?.channel))}
        </span>
      </header>
      <div className="refund-entry__body">
        <dl className="centre-kv refund-entry__facts">
          <div>
            <dt>{t('centre.entry.entryNo')}</dt>
            <dd>{entry.entryNo}</dd>
          </div>
          <div>
            <dt>{t('centre.entry.name')}</dt>
            <dd>{entry.name}</dd>
          </div>
          <div>
            <dt>{t('centre.refund.paid')}</dt>
            <dd data-testid="refund-paid">{money(entry.paidFen)}</dd>
          </div>
          {deferralOnly(refunds) ? null : (
            <div>
              <dt>{t('centre.refund.amount', { share: refunds.refunds.sharePercent })}</dt>
              <dd data-testid="refund-amount">{money(entry.refundFen)}</dd>
            </div>
          )}
        </dl>

        {block !== null ? (
          <p
            className={`centre-panel ${block === 'refunded' || block === 'deferred' ? 'centre-panel--ok' : 'centre-panel--info'}`}
            role="status"
            data-testid={`refund-blocked-${block}`}
          >
            {t(blockKey(refunds, block), {
              amount: formatFen(
                entry.requests.find((r) => r.kind === 'refund' && r.status === 'approved')?.amountFen ??
                  entry.refundFen,
              ),
            })}
            {block === 'notPaid' && mine?.orderNo ? (
              <>
                {' '}
                <Link to={generatePath(PATHS.order, { orderNo: mine.orderNo })} data-testid="refund-order-link">
                  {t('centre.refund.toOrder')}
                </Link>
              </>
            ) : null}
          </p>
        ) : null}

        {canRefund || canDefer ? (
          <div className="refund-form" data-testid="refund-form">
            <label htmlFor={reasonId} className="refund-form__label">
              {t('centre.refund.reasonLabel')}
            </label>
            <Input.TextArea
              id={reasonId}
              value={reason}
              onChange={(event) => {
                setReason(event.target.value);
                if (error) setError(null);
              }}
              maxLength={REFUND_REASON_LIMITS.max}
              showCount
              autoSize={{ minRows: 3, maxRows: 6 }}
              placeholder={t('centre.refund.reasonPlaceholder', REFUND_REASON_LIMITS)}
              status={error ? 'error' : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${reasonId}-error` : undefined}
              data-testid="refund-reason"
            />
            {error ? (
              <p id={`${reasonId}-error`} className="refund-form__error" role="alert" data-testid="refund-reason-error">
                {error}
              </p>
            ) : null}
            <div className="refund-form__actions">
              {canRefund ? (
                <Button type="primary" danger onClick={() => ask('refund')} data-testid="refund-request">
                  {t('centre.refund.requestRefund')}
                </Button>
              ) : null}
              {canDefer ? (
                <Button onClick={() => ask('deferral')} data-testid="refund-request-deferral">
                  {t('centre.refund.requestDeferral')}
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
        {deferralExcluded ? <p className="centre-note">{t('centre.refund.deferralExcluded')}</p> : null}

        <Requests requests={entry.requests} />
      </div>

      <Modal
        open={confirming !== null}
        title={t(confirming === 'deferral' ? 'centre.refund.confirmDeferralTitle' : 'centre.refund.confirmTitle')}
        okText={t('centre.refund.confirmOk')}
        cancelText={t('centre.refund.cancel')}
        okButtonProps={{ danger: confirming === 'refund', loading: sending, ...{ 'data-testid': 'refund-confirm-ok' } }}
        onOk={() => void send()}
        onCancel={() => setConfirming(null)}
        afterClose={() => {
          // The request buttons are gone with the form: the entry's state (under review) takes the focus.
          if (sent.current) moveFocus(`${entrySelector} [data-testid^="refund-blocked-"]`, `${entrySelector} h3`);
          sent.current = false;
        }}
        destroyOnHidden
      >
        <p data-testid="refund-confirm-text">
          {confirming === 'deferral'
            ? t('centre.refund.confirmDeferral', { name: entry.name, entryNo: entry.entryNo })
            : t('centre.refund.confirmRefund', {
                name: entry.name,
                entryNo: entry.entryNo,
                amount: formatFen(entry.refundFen),
                share: refunds.refunds.sharePercent,
                paid: formatFen(entry.paidFen),
              })}
        </p>
      </Modal>
    </article>
  );
}

function Requests({ requests }: { requests: RefundRequestView[] }) {
  const { t } = useTranslation();
  const raceTime = useRaceTime();
  if (requests.length === 0) return null;
  return (
    <section className="refund-requests" data-testid="refund-requests">
      <h4 className="refund-requests__title">{t('centre.refund.requestsTitle')}</h4>
      <ul className="refund-requests__list">
        {requests.map((r) => (
          <li key={r.id} className="refund-request" data-testid={`refund-request-${r.id}`}>
            <div className="refund-request__head">
              <strong>{t(`centre.refund.kinds.${r.kind}`)}</strong>
              <span className={`refund-status refund-status--${r.status}`} data-testid="refund-request-status">
                {t(`centre.refund.statuses.${r.status}`)}
              </span>
              {r.kind === 'refund' ? <span>¥{formatFen(r.amountFen)}</span> : null}
              <span className="centre-note">{t('centre.refund.requestedAt', { time: raceTime(r.createdAt) })}</span>
            </div>
            <p className="refund-request__reason">{t('centre.refund.yourReason', { reason: r.reason })}</p>
            {r.status === 'rejected' && r.rejectReason ? (
              <p className="refund-request__reject" data-testid="refund-reject-reason">
                {t('centre.refund.rejectReason', { reason: r.rejectReason })}
              </p>
            ) : null}
            {r.decidedAt !== null ? (
              <p className="centre-note">{t('centre.refund.decidedAt', { time: raceTime(r.decidedAt) })}</p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
