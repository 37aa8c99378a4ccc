/**
 * Pack pick-up appointments (issue 15 §2; PATHS.pickup): where and what to bring, the days as tabs with their
 * slots and places left (full ones disabled), booking, changing and cancelling with a confirmation until the
 * deadline, what blocks an entry (unpaid: its order; letter unsigned: the letter page) and the pick-up pass:
 * the pass code in groups of five and its QR code. `?entryNo=` chooses the entry when the account has several.
 */
import { Button, Popconfirm, Select } from 'antd';
import { PageTabs } from '@/components/ui/page-tabs';
import { useMemo, useState } from 'react';
import { generatePath, Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  formatPassCode,
  type PickupAnswer,
  type PickupBookingView,
  type PickupEntry,
  type PickupSlotView,
} from '#contract/after-entry';
import { PATHS } from '@/config/paths';
import { moveFocus } from '@/lib/move-focus';
import { notify } from '@/lib/notify';
import { pickLang } from '@/lib/pick-lang';
import { useLoad } from '@/lib/use-load';
import { useRaceId } from '@/lib/use-race-id';
import { useRaceTime } from '@/lib/use-race-time';
import { useAppStore } from '@/stores/app-store';
import { getMyEntries } from '../api/entries';
import { bookPickup, cancelPickup, getPickup } from '../api/pickup';
import { useQrCode } from '../utils/use-qr-code';
import { CentreFrame, LoadView } from './centre-frame';
import '../pickup.css';

interface PickupData {
  pickup: PickupAnswer;
  /** entryNo → its latest order (the payment link of an unpaid entry). */
  orders: Map<string, string>;
}

async function loadPickup(raceId: string): Promise<PickupData> {
  const [pickup, mine] = await Promise.all([getPickup(raceId), getMyEntries().catch(() => undefined)]);
  const orders = new Map<string, string>();
  for (const entry of mine?.entries ?? []) if (entry.orderNo) orders.set(entry.entryNo, entry.orderNo);
  return { pickup, orders };
}

export default function PickupPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload, set } = useLoad(() => loadPickup(raceId), raceId);
  return (
    <CentreFrame title={t('centre.pickup.title')} testId="pickup-page">
      <p className="centre-back">
        <Link to={PATHS.myIndex}>{t('centre.pickup.back')}</Link>
      </p>
      <LoadView load={result} retry={reload}>
        {(data) => <Pickup data={data} onChange={set} />}
      </LoadView>
    </CentreFrame>
  );
}

const PASS_TITLE = '#pickup-pass-title';
const SLOTS_TITLE = '#pickup-slots-title';
/** A slot's book button and the confirm button of its confirmation. */
const bookId = (slotId: string) => `pickup-book-${slotId.replace(/\W/g, '-')}`;
const confirmId = (slotId: string) => `pickup-confirm-${slotId.replace(/\W/g, '-')}`;
/** Closed without booking (Escape, Cancel): focus, left in the closing confirmation, goes back to its button. */
const focusBackOnBook = (slotId: string) =>
  moveFocus(() => {
    const active = document.activeElement;
    const lost = !active || active === document.body || active.closest('.ant-popconfirm');
    return lost ? document.getElementById(bookId(slotId)) : null;
  });

const slotText = (slot: Pick<PickupSlotView, 'date' | 'start' | 'end'>) => `${slot.date} ${slot.start}–${slot.end}`;

function Pickup({ data, onChange }: { data: PickupData; onChange: (data: PickupData) => void }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const raceTime = useRaceTime();
  const [search, setSearch] = useSearchParams();
  const { pickup } = data;
  const wanted = search.get('entryNo');
  const entry = pickup.entries.find((e) => e.entryNo === wanted) ?? pickup.entries[0];

  if (pickup.state === 'closed') {
    return (
      <div className="centre-panel centre-panel--off" data-testid="pickup-closed">
        {t('centre.pickup.closed')}
      </div>
    );
  }
  const replaceBooking = (entryNo: string, booking: PickupBookingView | null) =>
    onChange({
      ...data,
      pickup: {
        ...pickup,
        entries: pickup.entries.map((e) => (e.entryNo === entryNo ? { ...e, booking } : e)),
      },
    });
  return (
    <>
      <section className="pickup-info" data-testid="pickup-info">
        <p className="pickup-info__location">
          <span className="pickup-info__label">{t('centre.pickup.location')}</span>
          {pickLang(language, pickup.location.zh, pickup.location.en)}
        </p>
        <p className="pickup-info__notice">{pickLang(language, pickup.notice.zh, pickup.notice.en)}</p>
        <p className="centre-note" data-testid="pickup-deadline">
          {t('centre.pickup.deadline', { time: raceTime(pickup.deadline, 'YYYY-MM-DD HH:mm') })}
        </p>
      </section>
      {pickup.state === 'ended' ? (
        <div className="centre-panel centre-panel--warn" role="status" data-testid="pickup-ended">
          {t('centre.pickup.ended')}
        </div>
      ) : null}
      {entry === undefined ? (
        <div className="centre-panel centre-panel--info" data-testid="pickup-no-entries">
          {t('centre.pickup.noEntries')}
        </div>
      ) : (
        <>
          {pickup.entries.length > 1 ? (
            <label className="pickup-entry-choice">
              <span>{t('centre.pickup.entryLabel')}</span>
              <Select
                value={entry.entryNo}
                onChange={(entryNo: string) => setSearch({ entryNo }, { replace: true })}
                options={pickup.entries.map((e) => ({
                  value: e.entryNo,
                  label: t('centre.pickup.entryOption', {
                    name: e.name,
                    item: pickLang(language, e.itemName.zh, e.itemName.en),
                    entryNo: e.entryNo,
                  }),
                }))}
                data-testid="pickup-entry-select"
              />
            </label>
          ) : null}
          <EntryPickup
            key={entry.entryNo}
            raceId={pickup.raceId}
            entry={entry}
            slots={pickup.slots}
            open={pickup.state === 'open'}
            orderNo={data.orders.get(entry.entryNo)}
            onBooking={(booking) => replaceBooking(entry.entryNo, booking)}
          />
        </>
      )}
    </>
  );
}

function EntryPickup({
  raceId,
  entry,
  slots,
  open,
  orderNo,
  onBooking,
}: {
  raceId: string;
  entry: PickupEntry;
  slots: PickupSlotView[];
  open: boolean;
  orderNo: string | undefined;
  onBooking: (booking: PickupBookingView | null) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [leftNow, setLeftNow] = useState<Record<string, number>>({});
  const booking = entry.booking;
  const current = booking ? slots.find((s) => s.slotId === booking.slotId) : undefined;
  const blocked = entry.blockedBy;

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // The refusal was shown as a toast by the client.
    } finally {
      setBusy(false);
    }
  };
  const book = (slot: PickupSlotView) =>
    act(async () => {
      const made = await bookPickup(raceId, entry.entryNo, slot.slotId);
      const was = booking?.slotId;
      setLeftNow((left) => ({
        ...left,
        [slot.slotId]: (left[slot.slotId] ?? slot.left) - 1,
        ...(was && current ? { [was]: (left[was] ?? current.left) + 1 } : {}),
      }));
      onBooking(made);
      notify.success(t(was ? 'centre.pickup.changed' : 'centre.pickup.booked'));
      // The chosen slot's button is gone: focus goes to the pass that now holds the booking.
      moveFocus(PASS_TITLE);
    });
  const cancel = () =>
    act(async () => {
      await cancelPickup(raceId, entry.entryNo);
      if (current) setLeftNow((left) => ({ ...left, [current.slotId]: (left[current.slotId] ?? current.left) + 1 }));
      onBooking(null);
      notify.success(t('centre.pickup.cancelled'));
      moveFocus(SLOTS_TITLE);
    });

  return (
    <>
      {blocked ? (
        <div className="centre-panel centre-panel--warn" role="status" data-testid="pickup-blocked">
          <p>{t(`centre.pickup.blocked.${blocked}`)}</p>
          <Link
            to={
              blocked === 'pickupMailingChosen'
                ? PATHS.post
                : blocked === 'pickupNeedsPayment'
                  ? orderNo
                    ? generatePath(PATHS.order, { orderNo })
                    : PATHS.myIndex
                  : `${PATHS.letter}?entryNo=${encodeURIComponent(entry.entryNo)}`
            }
            className="pickup-unblock"
            data-testid="pickup-unblock"
          >
            {t(`centre.pickup.unblock.${blocked}`)}
          </Link>
        </div>
      ) : null}
      {booking ? (
        <Pass
          booking={booking}
          slot={current}
          name={entry.name}
          onCancel={open && booking.status === 'booked' ? cancel : undefined}
          busy={busy}
        />
      ) : null}
      {booking?.status === 'collected' ? null : (
        <Slots
          slots={slots.map((s) => ({ ...s, left: leftNow[s.slotId] ?? s.left }))}
          bookedSlot={booking?.slotId}
          bookable={open && !blocked}
          busy={busy}
          onBook={book}
        />
      )}
    </>
  );
}

function Slots({
  slots,
  bookedSlot,
  bookable,
  busy,
  onBook,
}: {
  slots: PickupSlotView[];
  bookedSlot: string | undefined;
  bookable: boolean;
  busy: boolean;
  onBook: (slot: PickupSlotView) => Promise<void>;
}) {
  const { t } = useTranslation();
  const days = useMemo(() => [...new Set(slots.map((s) => s.date))], [slots]);
  const bookedDay = slots.find((s) => s.slotId === bookedSlot)?.date;
  const [day, setDay] = useState(bookedDay ?? days[0]);
  const from = slots.find((s) => s.slotId === bookedSlot);
  if (days.length === 0) return null;
  return (
    <section className="pickup-slots" aria-labelledby="pickup-slots-title" data-testid="pickup-slots">
      <h2 className="pickup-slots__title" id="pickup-slots-title">
        {t('centre.pickup.slots')}
      </h2>
      <PageTabs
        activeKey={day}
        onChange={setDay}
        items={days.map((date) => ({
          key: date,
          label: <span data-testid={`pickup-day-${date}`}>{date}</span>,
          children: (
            <ul className="pickup-slot-list">
              {slots
                .filter((s) => s.date === date)
                .map((slot) => {
                  const mine = slot.slotId === bookedSlot;
                  const full = slot.left <= 0;
                  const prompt = from
                    ? t('centre.pickup.confirmChange', { from: slotText(from), to: slotText(slot) })
                    : t('centre.pickup.confirmBook', { slot: slotText(slot) });
                  return (
                    <li
                      key={slot.slotId}
                      className={`pickup-slot${mine ? ' pickup-slot--mine' : ''}${full && !mine ? ' pickup-slot--full' : ''}`}
                      data-testid={`pickup-slot-${slot.slotId}`}
                    >
                      <span className="pickup-slot__time">
                        {t('centre.pickup.slotTime', { start: slot.start, end: slot.end })}
                      </span>
                      <span className="pickup-slot__left">
                        {mine
                          ? t('centre.pickup.yours')
                          : full
                            ? t('centre.pickup.full')
                            : t('centre.pickup.left', { n: slot.left })}
                      </span>
                      {mine ? null : (
                        <Popconfirm
                          title={prompt}
                          okText={t('centre.pickup.confirmOk')}
                          cancelText={t('centre.pickup.confirmBack')}
                          onConfirm={() => onBook(slot)}
                          disabled={!bookable || full || busy}
                          // In the page right after the slot's button (not at the end of the page, after the
                          // footer), and focus on its confirm button as it opens.
                          getPopupContainer={(trigger) => trigger.parentElement ?? document.body}
                          okButtonProps={{ id: confirmId(slot.slotId) }}
                          onOpenChange={(opened) =>
                            opened ? moveFocus(`#${confirmId(slot.slotId)}`) : focusBackOnBook(slot.slotId)
                          }
                        >
                          <Button
                            id={bookId(slot.slotId)}
                            type={from ? 'default' : 'primary'}
                            disabled={!bookable || full || busy}
                            data-testid="pickup-book"
                          >
                            {t(from ? 'centre.pickup.change' : 'centre.pickup.book')}
                          </Button>
                        </Popconfirm>
                      )}
                    </li>
                  );
                })}
            </ul>
          ),
        }))}
      />
    </section>
  );
}

/** The pick-up pass: its code and QR code, the slot and the runner; the cancel button while it may be cancelled. */
function Pass({
  booking,
  slot,
  name,
  onCancel,
  busy,
}: {
  booking: PickupBookingView;
  slot: PickupSlotView | undefined;
  name: string;
  onCancel: (() => Promise<void>) | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const raceTime = useRaceTime();
  const qr = useQrCode(booking.passCode);
  const code = formatPassCode(booking.passCode);
  const slotLabel = slot ? slotText(slot) : booking.slotId;
  return (
    <section
      className={`pickup-pass${booking.status === 'collected' ? ' pickup-pass--collected' : ''}`}
      aria-labelledby="pickup-pass-title"
      data-testid="pickup-pass"
    >
      <div className="pickup-pass__qr">
        {qr ? (
          <img
            src={qr}
            alt={t('centre.pickup.pass.qrAlt', { code })}
            width={184}
            height={184}
            data-testid="pickup-qr"
          />
        ) : null}
      </div>
      <div className="pickup-pass__body">
        <h2 className="pickup-pass__title" id="pickup-pass-title">
          {t('centre.pickup.pass.title')}
        </h2>
        <dl className="centre-kv">
          <div>
            <dt>{t('centre.pickup.pass.code')}</dt>
            <dd className="pickup-pass__code" data-testid="pickup-pass-code">
              {code}
            </dd>
          </div>
          <div>
            <dt>{t('centre.pickup.pass.slot')}</dt>
            <dd data-testid="pickup-pass-slot">
              {slot ? (
                // The day and the times may part at the space, never the times at their dash.
                <>
                  <span className="pickup-nowrap">{slot.date}</span>{' '}
                  <span className="pickup-nowrap">
                    {slot.start}–{slot.end}
                  </span>
                </>
              ) : (
                slotLabel
              )}
            </dd>
          </div>
          <div>
            <dt>{t('centre.pickup.pass.name')}</dt>
            <dd>{name}</dd>
          </div>
        </dl>
        {booking.status === 'collected' ? (
          <p className="pickup-pass__collected" data-testid="pickup-collected">
            {t('centre.pickup.pass.collected', {
              time: raceTime(booking.collectedAt ?? undefined, 'YYYY-MM-DD HH:mm'),
            })}
          </p>
        ) : (
          <p className="centre-note">{t('centre.pickup.pass.help')}</p>
        )}
        {onCancel ? (
          <Popconfirm
            title={t('centre.pickup.confirmCancel', { slot: slotLabel })}
            okText={t('centre.pickup.confirmOk')}
            cancelText={t('centre.pickup.confirmBack')}
            onConfirm={onCancel}
            disabled={busy}
          >
            <Button danger disabled={busy} data-testid="pickup-cancel">
              {t('centre.pickup.cancel')}
            </Button>
          </Popconfirm>
        ) : null}
      </div>
    </section>
  );
}
