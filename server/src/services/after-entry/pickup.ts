/**
 * Pack pick-up appointments (issue 15 §2; shapes in contract/after-entry.ts): who may book (a won entry of the
 * caller's, paid unless the race says otherwise, the current letter signed when the race asks for it), booking
 * or changing a slot and cancelling until the deadline, and the check-in of a pass by staff (the route, with a
 * staff key) or the organiser (CLI pickup-checkin). The routes (routes/after-entry/pickup.ts) and the CLI
 * (cli/pickup-commands.ts) only parse and answer.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  formatPassCode,
  letterVersionHash,
  PASS_CODE_ALPHABET,
  PASS_CODE_PATTERN,
  pickupSlotId,
  pickupSlotTimes,
  type PickupAnswer,
  type PickupBookingView,
  type PickupCheckInAnswer,
  type PickupEntry,
  type PickupOutsideSlot,
  type PickupSlotTimes,
  type PickupSlotView,
} from '#contract/after-entry';
import { ENTRY_STATUSES } from '#contract/entry';
import type { ConsoleMessageCode } from '#contract/console-messages';
import type { MessageCode, MessageParams } from '#contract/messages';
import { formatRaceTime } from '#contract/race-clock';
import { deadlineState } from '#contract/registration-screens';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { EntryRecord } from '../../db/entries-repository.ts';
import type { PickupBookingRecord, PickupExportRow } from '../../db/pickup-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskCertNo } from '../../lib/race-center.ts';
import { itemOf } from '../entry/views.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

/** A refusal: the HTTP-like status, the message code and its parameters. */
export interface PickupRefusal {
  status: number;
  code: MessageCode | ConsoleMessageCode;
  params?: MessageParams;
  /** What the answer's data carries (pickupOutsideSlot: its PickupOutsideSlot). */
  data?: unknown;
}
export type PickupOutcome<T> = { ok: true; value: T } | { ok: false; refusal: PickupRefusal };

const refuse = (
  status: number,
  code: MessageCode | ConsoleMessageCode,
  params?: MessageParams,
): { ok: false; refusal: PickupRefusal } => ({
  ok: false,
  refusal: params ? { status, code, params } : { status, code },
});

class Refused extends Error {
  constructor(readonly refusal: PickupRefusal) {
    super(refusal.code);
  }
}

/** The time a pass was collected, as staff and runners read it (race clock). */
export const collectedAtText = (race: RaceInfo | undefined, at: number) =>
  formatRaceTime(at, 'YYYY-MM-DD HH:mm', raceTimeZone(race));

/** A new random pass code (PASS_CODE_ALPHABET, 10 characters). */
export const newPassCode = () =>
  Array.from({ length: 10 }, () => PASS_CODE_ALPHABET[randomInt(PASS_CODE_ALPHABET.length)]).join('');

/** A new staff key (shown once) and the sha256 hex kept of it. */
export function newStaffKey(): { key: string; hash: string } {
  const key = randomBytes(24).toString('base64url');
  return { key, hash: staffKeyHash(key) };
}
export const staffKeyHash = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * The check-in desk of a `staffKey` header: the organiser's key for `raceId`, or undefined when the key is
 * empty, too long to be one, unknown, revoked or for another race.
 */
export async function staffOfKey(
  repos: Repositories,
  key: string,
  raceId: string,
): Promise<{ raceId: string; label: string } | undefined> {
  const staff = key === '' || key.length > 200 ? undefined : await repos.pickup.findStaffKey(staffKeyHash(key));
  return staff && staff.revokedAt === null && staff.raceId === raceId ? staff : undefined;
}

/** The pick-up state of a race at `now`: closed (disabled or absent), open, or ended (past the deadline). */
export const pickupState = (race: RaceInfo | undefined, now: number): PickupAnswer['state'] =>
  deadlineState(race?.packPickup, now, raceTimeZone(race));

/**
 * Whether the account chose to have its race pack mailed (/post) in a race that offers mailing: a pack is
 * mailed OR collected, never both, so such a runner books no pick-up slot until they switch back.
 */
export async function choseMailing(repos: Repositories, race: RaceInfo, userId: number): Promise<boolean> {
  if (!race.packMailing?.enabled) return false;
  return (await repos.runnerChoices.mailing(race.raceId, userId))?.method === 'mail';
}

/**
 * The account's live pick-up bookings (booked or collected) in the race, each with its slot's day and times:
 * while there is one, the runner may not choose mailing (mailingPickupBooked).
 */
export async function pickupBookingsOf(
  repos: Repositories,
  race: RaceInfo,
  userId: number,
): Promise<{ slotId: string; slot: PickupSlotTimes | null }[]> {
  const mine = (await repos.entries.listForUser(userId)).filter((e) => e.raceId === race.raceId);
  const bookings = await repos.pickup.liveBookings(mine.map((e) => e.id));
  return [...bookings.values()].map((b) => ({ slotId: b.slotId, slot: pickupSlotTimes(race.packPickup, b.slotId) }));
}

/** Why an entry may not book yet, or null. */
async function blockedBy(repos: Repositories, race: RaceInfo, entry: EntryRecord): Promise<PickupEntry['blockedBy']> {
  if (await choseMailing(repos, race, entry.userId)) return 'pickupMailingChosen';
  const pickup = race.packPickup;
  if ((pickup?.requirePaid ?? true) && entry.feeFen > 0) {
    const order = await repos.orders.latestOfEntry(entry.id);
    if (order?.status !== 3) return 'pickupNeedsPayment';
  }
  const letter = race.commitmentLetter;
  if ((pickup?.requireLetter ?? true) && letter?.enabled) {
    if (!(await repos.pickup.letterSigned(entry.id, letterVersionHash(letter)))) return 'pickupNeedsLetter';
  }
  return null;
}

const bookingView = (booking: PickupBookingRecord): PickupBookingView => ({
  slotId: booking.slotId,
  status: booking.status,
  passCode: booking.passCode,
  bookedAt: booking.createdAt,
  collectedAt: booking.collectedAt,
});

/** The slots of the settings with their places left (rows that do not exist yet have every place left). */
async function slotViews(repos: Repositories, race: RaceInfo): Promise<PickupSlotView[]> {
  const rows = new Map((await repos.pickup.slots(race.raceId)).map((row) => [row.slotId, row]));
  return (race.packPickup?.days ?? []).flatMap((day) =>
    day.slots.map((slot) => {
      const slotId = pickupSlotId(day.date, slot.start);
      const booked = rows.get(slotId)?.booked ?? 0;
      return {
        slotId,
        date: day.date,
        start: slot.start,
        end: slot.end,
        capacity: slot.capacity,
        left: Math.max(0, slot.capacity - booked),
      };
    }),
  );
}

/** pickupGet: the race's slots and each of the caller's won entries of the race with its booking. */
export async function pickupOverview(
  repos: Repositories,
  input: { userId: number; raceId: string; now: number },
): Promise<PickupOutcome<PickupAnswer>> {
  const race = await repos.races.findById(input.raceId);
  if (!race) return refuse(404, 'raceNotFound');
  const state = pickupState(race, input.now);
  const pickup = race.packPickup;
  const mine = (await repos.entries.listForUser(input.userId)).filter(
    (e) => e.raceId === race.raceId && e.status === ENTRY_STATUSES.won,
  );
  const bookings = await repos.pickup.liveBookings(mine.map((e) => e.id));
  const entries: PickupEntry[] = [];
  for (const entry of mine) {
    const booking = bookings.get(entry.id);
    entries.push({
      entryNo: entry.entryNo,
      name: entry.name,
      itemName: itemOf(race.entry, entry.itemCode)?.name ?? { zh: entry.itemCode, en: entry.itemCode },
      blockedBy: state === 'closed' ? null : await blockedBy(repos, race, entry),
      booking: booking ? bookingView(booking) : null,
    });
  }
  return {
    ok: true,
    value: {
      raceId: race.raceId,
      state,
      location: pickup?.location ?? { zh: '', en: '' },
      notice: pickup?.notice ?? { zh: '', en: '' },
      deadline: pickup?.deadline ?? '',
      slots: state === 'closed' ? [] : await slotViews(repos, race),
      entries,
    },
  };
}

/** The race, its open pick-up and the caller's won entry, or the refusal. */
async function bookable(
  repos: Repositories,
  input: { userId: number; raceId: string; entryNo: string; now: number },
): Promise<PickupOutcome<{ race: RaceInfo; entry: EntryRecord }>> {
  const race = await repos.races.findById(input.raceId);
  if (!race) return refuse(404, 'raceNotFound');
  const entry = await repos.entries.findByNo(input.entryNo);
  if (!entry || entry.userId !== input.userId || entry.raceId !== race.raceId)
    return refuse(404, 'registrationMissing');
  const state = pickupState(race, input.now);
  if (state === 'closed') return refuse(400, 'pickupClosed');
  if (entry.status !== ENTRY_STATUSES.won) return refuse(400, 'pickupNotWon');
  if (state === 'ended') return refuse(400, 'pickupEnded');
  return { ok: true, value: { race, entry } };
}

/**
 * pickupBook: books a slot for a won entry of the caller's, or moves its booking to another slot (the new
 * place taken and the old one given back in one transaction; the pass code stays). Booking the slot it
 * already holds answers the booking as it is.
 */
export async function bookPickup(
  repos: Repositories,
  input: { userId: number; raceId: string; entryNo: string; slotId: string; now: number },
): Promise<PickupOutcome<PickupBookingView>> {
  const checked = await bookable(repos, input);
  if (!checked.ok) return checked;
  const { race, entry } = checked.value;
  const blocked = await blockedBy(repos, race, entry);
  if (blocked) return refuse(400, blocked);
  const { slotId, now } = input;
  if (!(await slotViews(repos, race)).some((slot) => slot.slotId === slotId)) return refuse(404, 'pickupSlotMissing');
  const take = async (tx: Repositories) => {
    if (await tx.pickup.takeSlot(race.raceId, slotId)) return;
    // A race saved without the sync gets its slot rows first.
    await tx.pickup.ensureSlots(race.raceId, race.packPickup);
    if (!(await tx.pickup.takeSlot(race.raceId, slotId))) throw new Refused({ status: 409, code: 'pickupSlotFull' });
  };
  try {
    const booking = await repos.transaction(async (tx) => {
      await tx.db.lock(`pickup-entry:${entry.id}`);
      const live = (await tx.pickup.liveBookings([entry.id])).get(entry.id);
      if (live?.status === 'collected') {
        throw new Refused({
          status: 409,
          code: 'pickupCollected',
          params: { at: collectedAtText(race, live.collectedAt ?? live.updatedAt) },
        });
      }
      if (live && live.slotId === slotId) return live;
      if (live) {
        // A move writes two slot rows: always in slot order (the one given back first when it sorts first),
        // so a move A→B beside a move B→A waits instead of deadlocking on PostgreSQL (issue 27). A full new
        // slot rolls the give-back back with the rest.
        if (live.slotId < slotId) await tx.pickup.giveBackSlot(race.raceId, live.slotId);
        await take(tx);
        if (live.slotId > slotId) await tx.pickup.giveBackSlot(race.raceId, live.slotId);
        if (!(await tx.pickup.moveBooking(live.id, live.slotId, slotId, now))) {
          throw new Error('pick-up booking changed under the entry lock');
        }
        await tx.entries.addEvent(entry.id, 'pickupBooked', now, slotId);
        return { ...live, slotId, updatedAt: now };
      }
      await take(tx);
      for (let attempt = 0; attempt < 8; attempt += 1) {
        const made = await tx.pickup.insertBooking({
          raceId: race.raceId,
          entryId: entry.id,
          slotId,
          passCode: newPassCode(),
          now,
        });
        if (made) {
          await tx.entries.addEvent(entry.id, 'pickupBooked', now, slotId);
          return made;
        }
      }
      throw new Error('no free pass code after 8 attempts');
    });
    return { ok: true, value: bookingView(booking) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

/** pickupCancel: cancels the entry's booking and gives its place back (until the deadline). */
export async function cancelPickup(
  repos: Repositories,
  input: { userId: number; raceId: string; entryNo: string; now: number },
): Promise<PickupOutcome<null>> {
  const checked = await bookable(repos, input);
  if (!checked.ok) return checked;
  const { race, entry } = checked.value;
  try {
    await repos.transaction(async (tx) => {
      await tx.db.lock(`pickup-entry:${entry.id}`);
      const live = (await tx.pickup.liveBookings([entry.id])).get(entry.id);
      if (!live) throw new Refused({ status: 404, code: 'pickupNotBooked' });
      if (live.status === 'collected' || !(await tx.pickup.cancelBooking(live.id, input.now))) {
        throw new Refused({
          status: 409,
          code: 'pickupCollected',
          params: { at: collectedAtText(race, live.collectedAt ?? live.updatedAt) },
        });
      }
      await tx.pickup.giveBackSlot(race.raceId, live.slotId);
      await tx.entries.addEvent(entry.id, 'pickupCancelled', input.now, live.slotId);
    });
    return { ok: true, value: null };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}

/** A slot's day and times as staff read them: '2027-04-16 11:00–13:00'. */
export const slotText = (slot: PickupSlotTimes) => `${slot.date} ${slot.start}–${slot.end}`;

/**
 * Whether `now` (race clock) lies inside the booked slot: its day, from its start up to its end. A slot the
 * organiser has since removed (null) is outside.
 */
export function insideSlot(race: RaceInfo, slot: PickupSlotTimes | null, now: number): boolean {
  if (!slot) return false;
  const zone = raceTimeZone(race);
  if (formatRaceTime(now, 'YYYY-MM-DD', zone) !== slot.date) return false;
  const time = formatRaceTime(now, 'HH:mm', zone);
  return slot.start <= time && time < slot.end;
}

/**
 * Checks a pass in: marks its booking collected once and answers its holder; a second collection is refused
 * with pickupCollected (its time, and who: `by`), an unknown or cancelled pass (or one whose entry no longer holds a place)
 * with pickupPassMissing. A pass presented outside its booked day and slot is refused with pickupOutsideSlot
 * (409, the slot and the time now as data) until staff confirm (`outsideSlotConfirmed`); nothing is marked
 * before. `by` names who checked it in (the staff key's label, the console member's name, or 'cli').
 *
 * A hand-over of the console's check-in screen carries a `nonce` made once on the device: the pass is
 * collected once per nonce, the nonce recorded in the same transaction (pickup_handovers), and a resend of a
 * recorded nonce answers that hand-over again (`repeated`) with nothing written; a nonce recorded for another
 * pass is refused (pickupNonceReused). With an `actor`, the collection is in the audit log (pickup.checkIn).
 */
export async function checkInPass(
  repos: Repositories,
  input: {
    raceId: string;
    passCode: string;
    by: string;
    now: number;
    outsideSlotConfirmed?: boolean;
    nonce?: string;
    actor?: AuditActor;
    /** When the hand-over was made on the device (a queued one's), for the audit log. */
    handedAt?: number;
  },
): Promise<PickupOutcome<PickupCheckInAnswer & { repeated?: boolean }>> {
  const race = await repos.races.findById(input.raceId);
  if (!race) return refuse(404, 'raceNotFound');
  const passCode = input.passCode;
  if (!PASS_CODE_PATTERN.test(passCode)) return refuse(404, 'pickupPassMissing');
  let outsideSlot = false;
  let repeated = false;
  let collected: PickupBookingRecord | undefined;
  const { nonce, actor } = input;
  try {
    collected = await repos.transaction(async (tx) => {
      const found = await tx.pickup.findByPass(race.raceId, passCode);
      // Under the entry's lock, as a booking or a move takes it: the slot read is the slot collected.
      if (found) await tx.db.lock(`pickup-entry:${found.entryId}`);
      const live = found && (await tx.pickup.findByPass(race.raceId, passCode));
      // A resend of a hand-over already recorded (read under the lock the first send held): the same one.
      const seen = nonce === undefined ? undefined : await tx.pickup.handoverOf(race.raceId, nonce);
      if (seen && seen.passCode !== passCode) throw new Refused({ status: 409, code: 'pickupNonceReused' });
      if (seen && live?.status === 'collected') {
        repeated = true;
        return live;
      }
      if (live?.status === 'booked') {
        const slot = pickupSlotTimes(race.packPickup, live.slotId);
        outsideSlot = !insideSlot(race, slot, input.now);
        if (outsideSlot && !input.outsideSlotConfirmed) {
          const now = formatRaceTime(input.now, 'YYYY-MM-DD HH:mm', raceTimeZone(race));
          const data: PickupOutsideSlot = { slotId: live.slotId, slot, now };
          throw new Refused({
            status: 409,
            code: 'pickupOutsideSlot',
            params: { slot: slot ? slotText(slot) : live.slotId, now },
            data,
          });
        }
      }
      const booking = await tx.pickup.collect(race.raceId, passCode, input.now, input.by);
      if (!booking) return booking;
      await tx.entries.addEvent(booking.entryId, 'packCollected', input.now, input.by);
      const staffId = actor?.kind === 'staff' ? actor.staffId : null;
      if (nonce !== undefined) {
        await tx.pickup.recordHandover({ raceId: race.raceId, nonce, passCode, staffId, now: input.now });
      }
      if (actor) {
        const entryNo = (await tx.entries.findById(booking.entryId))?.entryNo ?? '';
        await appendAudit(
          tx,
          actor,
          {
            action: 'pickup.checkIn',
            raceId: race.raceId,
            target: entryNo,
            after: {
              pass: passCode,
              slot: booking.slotId,
              by: input.by,
              outsideSlot,
              ...(nonce === undefined ? {} : { nonce }),
              ...(input.handedAt === undefined ? {} : { handedAt: input.handedAt }),
            },
          },
          input.now,
        );
      }
      return booking;
    });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
  if (!collected) {
    const booking = await repos.pickup.findByPass(race.raceId, passCode);
    if (booking?.status === 'collected') {
      return refuse(409, 'pickupCollected', {
        at: collectedAtText(race, booking.collectedAt ?? booking.updatedAt),
        by: booking.collectedBy ?? '',
      });
    }
    return refuse(404, 'pickupPassMissing');
  }
  const entry = await repos.entries.findById(collected.entryId);
  return {
    ok: true,
    value: {
      entryNo: entry?.entryNo ?? '',
      name: entry?.name ?? '',
      certificateType: entry?.certType ?? 1,
      certificateNumber: maskCertNo(entry?.certNumber ?? ''),
      itemName: itemOf(race.entry, entry?.itemCode ?? '')?.name ?? {
        zh: entry?.itemCode ?? '',
        en: entry?.itemCode ?? '',
      },
      bib: entry?.bib ?? null,
      slotId: collected.slotId,
      slot: pickupSlotTimes(race.packPickup, collected.slotId),
      outsideSlot,
      collectedAt: collected.collectedAt ?? input.now,
      ...(nonce === undefined ? {} : { repeated }),
    },
  };
}

/**
 * A new check-in key of the race labelled `label` (the CLI's staff-key-issue, the console's): the key, shown
 * once (only its sha256 is kept), or undefined when the race already has an active key of that label. In the
 * audit log as pickup.staffKeyIssue (the label, never the key).
 */
export async function issueStaffKey(
  repos: Repositories,
  raceId: string,
  label: string,
  now: number,
  actor: AuditActor,
): Promise<string | undefined> {
  const { key, hash } = newStaffKey();
  return repos.transaction(async (tx) => {
    await tx.db.lock(`staff-key:${raceId}`);
    if (!(await tx.pickup.issueStaffKey(raceId, label, hash, now))) return undefined;
    await appendAudit(tx, actor, { action: 'pickup.staffKeyIssue', raceId, target: label }, now);
    return key;
  });
}

/**
 * Revokes the race's active key labelled `label` (it stops working at once); false when there is none. In
 * the audit log as pickup.staffKeyRevoke.
 */
export async function revokeStaffKey(
  repos: Repositories,
  raceId: string,
  label: string,
  now: number,
  actor: AuditActor,
): Promise<boolean> {
  return repos.transaction(async (tx) => {
    if ((await tx.pickup.revokeStaffKey(raceId, label, now)) === 0) return false;
    await appendAudit(tx, actor, { action: 'pickup.staffKeyRevoke', raceId, target: label }, now);
    return true;
  });
}

/** A pick-up slot with its bookings: booked (not yet collected), collected, and places left. */
export interface PickupSlotFigures extends PickupSlotView {
  booked: number;
  collected: number;
}

/** Every slot of the race's settings with its bookings (the CLI's pickup-list). */
export async function pickupSlotFigures(repos: Repositories, race: RaceInfo): Promise<PickupSlotFigures[]> {
  const counts = await repos.pickup.counts(race.raceId);
  return (await slotViews(repos, race)).map((slot) => ({
    ...slot,
    ...(counts.get(slot.slotId) ?? { booked: 0, collected: 0 }),
  }));
}

/** Every live booking of the race, by slot, for the organiser's export (the CLI's pickup-export). */
export const pickupBookingsForExport = (repos: Repositories, raceId: string): Promise<PickupExportRow[]> =>
  repos.pickup.exportRows(raceId);

/**
 * The export's table (header first; the CLI's pickup-export and the console's download): every live booking
 * with its slot, status, pass, entry, name, item, bib and times (race clock). Recorded in the audit log
 * (pickup.export: the format and how many rows) before it is handed out.
 */
export async function pickupExportTable(
  repos: Repositories,
  race: RaceInfo,
  format: 'xlsx' | 'csv',
  actor: AuditActor,
  now: number,
): Promise<string[][]> {
  const zone = raceTimeZone(race);
  const time = (ms: number | null) => (ms === null ? '' : formatRaceTime(ms, 'YYYY-MM-DD HH:mm:ss', zone));
  const bookings = await pickupBookingsForExport(repos, race.raceId);
  const header = ['slot', 'status', 'pass', 'entryNo', 'name', 'item', 'bib', 'bookedAt', 'collectedAt', 'by'];
  const rows = bookings.map((b) => [
    b.slotId,
    b.status,
    formatPassCode(b.passCode),
    b.entryNo,
    b.name,
    b.itemCode,
    b.bib ?? '',
    time(b.bookedAt),
    time(b.collectedAt),
    b.collectedBy ?? '',
  ]);
  await appendAudit(
    repos,
    actor,
    { action: 'pickup.export', raceId: race.raceId, target: race.raceId, after: { format, rows: rows.length } },
    now,
  );
  return [header, ...rows];
}
