/**
 * Pack pick-up appointments (issue 15 §2): who may book (won, paid, the current letter signed), booking,
 * changing and cancelling until the deadline, no overbooking under parallel bookings, the slots synced from
 * race.json (a capacity below the places booked refused), the pass checked in once by staff with a key (or
 * by the CLI), and the organiser's list and export.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  letterVersionHash,
  PASS_CODE_PATTERN,
  pickupSlotId,
  STAFF_KEY_HEADER,
  type PackPickupSettings,
  type PickupAnswer,
  type PickupBookingView,
} from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { sql } from '../src/db/engine.ts';
import { newStaffKey } from '../src/services/after-entry/pickup.ts';
import { givePlacesBack } from '../src/services/entry/order-transitions.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRace,
  demoRaceApp,
  newRunner,
  saveDemoRace,
  unpaidEntry,
  wonPaidEntry,
  type TestEntry,
  type TestRunner,
} from './after-entry-helpers.ts';
import { FIXTURES, removeTempDirs, siteCli, tempDir } from './helpers.ts';

const clock = afterEntryClock();
const dataDir = tempDir();
const cli = siteCli(dataDir);
let app: FastifyInstance;

const FIRST = pickupSlotId('2027-04-15', '09:00');
const SECOND = pickupSlotId('2027-04-15', '11:00');
/** A 3-place slot added to the demo race's days for the parallel bookings. */
const SMALL = pickupSlotId('2027-04-13', '10:00');
/** Slots of the test clock's day (2026-12-01, 10:00 on the race clock): the one running now, a later one. */
const NOW_SLOT = pickupSlotId('2026-12-01', '09:00');
const LATER_SLOT = pickupSlotId('2026-12-01', '12:00');

function pickupSettings(extra: Partial<PackPickupSettings> = {}): PackPickupSettings {
  const base = demoRace().packPickup!;
  return {
    ...base,
    days: [
      { date: '2027-04-13', slots: [{ start: '10:00', end: '12:00', capacity: 3 }] },
      ...base.days,
      {
        date: '2026-12-01',
        slots: [
          { start: '09:00', end: '12:00', capacity: 50 },
          { start: '12:00', end: '14:00', capacity: 50 },
        ],
      },
    ],
    ...extra,
  };
}

const get = async (who: TestRunner) => {
  const res = await app.inject({
    method: 'GET',
    url: `${API_PATHS.pickupGet}?raceId=${DEMO_RACE_ID}`,
    headers: { token: who.token },
  });
  return res.json() as { code: number; msgCode?: string; data: PickupAnswer };
};
const book = (who: TestRunner, entryNo: string, slotId: string) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.pickupBook,
    payload: { raceId: DEMO_RACE_ID, entryNo, slotId },
    headers: { token: who.token },
  });
const cancel = (who: TestRunner, entryNo: string) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.pickupCancel,
    payload: { raceId: DEMO_RACE_ID, entryNo },
    headers: { token: who.token },
  });
const checkIn = (key: string | undefined, passCode: string, raceId = DEMO_RACE_ID, outsideSlotConfirmed?: boolean) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.pickupCheckIn,
    payload: { raceId, passCode, ...(outsideSlotConfirmed === undefined ? {} : { outsideSlotConfirmed }) },
    headers: key === undefined ? {} : { [STAFF_KEY_HEADER]: key },
  });
const staffKeyCheck = (key: string | undefined, raceId = DEMO_RACE_ID) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.pickupStaffKey,
    payload: { raceId },
    headers: key === undefined ? {} : { [STAFF_KEY_HEADER]: key },
  });

const booked = async (slotId: string) =>
  (await app.repos.pickup.slots(DEMO_RACE_ID)).find((s) => s.slotId === slotId)?.booked ?? 0;
const steps = async (entryId: number) =>
  ((await app.repos.entries.events([entryId])).get(entryId) ?? []).map((e) => e.step);

/** Writes the entry's signature of the letter as it reads now (the letter feature's table, append-only). */
async function signLetter(who: TestRunner, entry: TestEntry) {
  const hash = letterVersionHash(demoRace().commitmentLetter!);
  await app.repos.db.run(sql`
    INSERT INTO letter_signatures (race_id, entry_id, user_id, version_hash, signer_name, accepted, ip, user_agent, signed_at)
    VALUES (${DEMO_RACE_ID}, ${entry.entryId}, ${who.id}, ${hash}, ${entry.name}, '[0,1,2]', '127.0.0.1', 'test', ${clock.now()})`);
}

/** A runner with a won, paid and signed 10K entry (may book). */
async function readyRunner(): Promise<{ who: TestRunner; entry: TestEntry }> {
  const who = await newRunner(app, clock.now());
  const entry = await wonPaidEntry(app, who, clock.now());
  await signLetter(who, entry);
  return { who, entry };
}

beforeAll(async () => {
  app = await demoRaceApp(clock, { dataDir });
  await saveDemoRace(app, clock.now(), { packPickup: pickupSettings() });
  expect(await app.repos.pickup.syncSlots(DEMO_RACE_ID, pickupSettings())).toEqual({ ok: true });
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('who may book', () => {
  it('lists the slots with places left and says what blocks an entry: payment, then the letter', async () => {
    const who = await newRunner(app, clock.now());
    const unpaid = await unpaidEntry(app, who, clock.now());
    // Submitted, not yet won: not listed, and refused.
    let answer = await get(who);
    expect(answer.code).toBe(0);
    expect(answer.data.state).toBe('open');
    expect(answer.data.location.en).toContain('Expo Centre');
    expect(answer.data.entries).toEqual([]);
    expect(answer.data.slots.find((s) => s.slotId === FIRST)).toMatchObject({ capacity: 1500, left: 1500 });
    expect((await book(who, unpaid.entryNo, FIRST)).json()).toMatchObject({ code: 400, msgCode: 'pickupNotWon' });

    // Won but its order unpaid (a free-of-charge place without an order would pass).
    await app.repos.entries.setStatus(unpaid.entryId, [0], 1, 'won', clock.now());
    answer = await get(who);
    expect(answer.data.entries).toMatchObject([{ entryNo: unpaid.entryNo, blockedBy: 'pickupNeedsPayment' }]);
    expect((await book(who, unpaid.entryNo, FIRST)).json()).toMatchObject({
      code: 400,
      msgCode: 'pickupNeedsPayment',
    });

    // Paid, the letter not signed; then signed an older version only; then the current one.
    const owner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, owner, clock.now());
    const blocked = (await get(owner)).data.entries.find((e) => e.entryNo === entry.entryNo)!;
    expect(blocked.blockedBy).toBe('pickupNeedsLetter');
    expect((await book(owner, entry.entryNo, FIRST)).json()).toMatchObject({ code: 400, msgCode: 'pickupNeedsLetter' });
    await app.repos.db.run(sql`
      INSERT INTO letter_signatures (race_id, entry_id, user_id, version_hash, signer_name, accepted, ip, user_agent, signed_at)
      VALUES (${DEMO_RACE_ID}, ${entry.entryId}, ${owner.id}, ${'0'.repeat(64)}, ${entry.name}, '[0,1,2]', '::1', 't', ${clock.now()})`);
    expect((await book(owner, entry.entryNo, FIRST)).json()).toMatchObject({ msgCode: 'pickupNeedsLetter' });
    await signLetter(owner, entry);
    expect((await get(owner)).data.entries.find((e) => e.entryNo === entry.entryNo)!.blockedBy).toBeNull();
    expect((await book(owner, entry.entryNo, FIRST)).json().code).toBe(0);
  });

  it('refuses without login, for an entry of another account, and an unknown slot', async () => {
    const { who, entry } = await readyRunner();
    const stranger = await newRunner(app, clock.now());
    const anonymous = await app.inject({ method: 'GET', url: `${API_PATHS.pickupGet}?raceId=${DEMO_RACE_ID}` });
    expect(anonymous.json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
    expect((await book(stranger, entry.entryNo, FIRST)).json()).toMatchObject({
      code: 404,
      msgCode: 'registrationMissing',
    });
    expect((await cancel(stranger, entry.entryNo)).json()).toMatchObject({ code: 404, msgCode: 'registrationMissing' });
    expect((await get(stranger)).data.entries).toEqual([]);
    expect((await book(who, entry.entryNo, '2027-04-15 08:00')).json()).toMatchObject({
      code: 404,
      msgCode: 'pickupSlotMissing',
    });
    expect((await cancel(who, entry.entryNo)).json()).toMatchObject({ code: 404, msgCode: 'pickupNotBooked' });
  });
});

describe('booking, changing and cancelling', () => {
  it('never overbooks a slot under parallel bookings', async () => {
    const ready = [];
    for (let i = 0; i < 10; i += 1) ready.push(await readyRunner());
    const before = await booked(SMALL);
    expect(before).toBe(0);
    const answers = await Promise.all(ready.map(({ who, entry }) => book(who, entry.entryNo, SMALL)));
    const codes = answers.map((res) => res.json().code as number);
    expect(codes.filter((c) => c === 0)).toHaveLength(3);
    expect(answers.filter((res) => res.json().msgCode === 'pickupSlotFull')).toHaveLength(7);
    expect(await booked(SMALL)).toBe(3);
    const small = (await get(ready[0]!.who)).data.slots.find((s) => s.slotId === SMALL)!;
    expect(small.left).toBe(0);
    // The ones that got a place have a pass each, all different.
    const passes = answers.filter((r) => r.json().code === 0).map((r) => (r.json().data as PickupBookingView).passCode);
    expect(new Set(passes).size).toBe(3);
    for (const pass of passes) expect(pass).toMatch(PASS_CODE_PATTERN);
  });

  it('moves runners across two slots at once both ways without a server error, and keeps the counts', async () => {
    // Issue 27: on PostgreSQL a move A→B beside a move B→A took the two slots' rows in opposite orders and
    // deadlocked (HTTP 500 after long waits).
    const ready = [];
    for (let i = 0; i < 24; i += 1) ready.push(await readyRunner());
    const [first0, second0] = [await booked(FIRST), await booked(SECOND)];
    const slotOf = new Map<string, string>();
    for (const [i, { who, entry }] of ready.entries()) {
      const slot = i % 2 === 0 ? FIRST : SECOND;
      expect((await book(who, entry.entryNo, slot)).json().code).toBe(0);
      slotOf.set(entry.entryNo, slot);
    }
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all(
        ready.map(({ who, entry }) => book(who, entry.entryNo, slotOf.get(entry.entryNo) === FIRST ? SECOND : FIRST)),
      );
      for (const res of answers) {
        expect(res.statusCode).toBeLessThan(500);
        expect(res.json().code).toBe(0);
      }
      for (const { entry } of ready) slotOf.set(entry.entryNo, slotOf.get(entry.entryNo) === FIRST ? SECOND : FIRST);
    }
    expect([await booked(FIRST), await booked(SECOND)]).toEqual([first0 + 12, second0 + 12]);
    const counts = await app.repos.pickup.counts(DEMO_RACE_ID);
    expect((counts.get(FIRST)?.booked ?? 0) + (counts.get(FIRST)?.collected ?? 0)).toBe(await booked(FIRST));
    expect((counts.get(SECOND)?.booked ?? 0) + (counts.get(SECOND)?.collected ?? 0)).toBe(await booked(SECOND));
    for (const { who, entry } of ready) {
      const mine = (await get(who)).data.entries.find((e) => e.entryNo === entry.entryNo)!;
      expect(mine.booking!.slotId).toBe(slotOf.get(entry.entryNo));
    }
  });

  it('changes the slot keeping the pass and giving the old place back, and cancels', async () => {
    const { who, entry } = await readyRunner();
    const [first0, second0] = [await booked(FIRST), await booked(SECOND)];
    const made = (await book(who, entry.entryNo, FIRST)).json();
    expect(made).toMatchObject({ code: 0, data: { slotId: FIRST, status: 'booked', collectedAt: null } });
    const pass = made.data.passCode as string;
    expect(await booked(FIRST)).toBe(first0 + 1);
    // Booking the same slot again changes nothing.
    expect((await book(who, entry.entryNo, FIRST)).json().data).toMatchObject({ slotId: FIRST, passCode: pass });
    expect(await booked(FIRST)).toBe(first0 + 1);

    const changed = (await book(who, entry.entryNo, SECOND)).json();
    expect(changed).toMatchObject({ code: 0, data: { slotId: SECOND, passCode: pass } });
    expect([await booked(FIRST), await booked(SECOND)]).toEqual([first0, second0 + 1]);
    expect((await get(who)).data.entries[0]!.booking).toMatchObject({ slotId: SECOND, passCode: pass });

    // A full slot refuses the change and the booking stays where it was.
    const full = await readyRunner();
    expect((await book(full.who, full.entry.entryNo, SMALL)).json()).toMatchObject({ msgCode: 'pickupSlotFull' });
    expect((await book(who, entry.entryNo, SMALL)).json()).toMatchObject({ code: 409, msgCode: 'pickupSlotFull' });
    expect((await get(who)).data.entries[0]!.booking!.slotId).toBe(SECOND);
    expect(await booked(SECOND)).toBe(second0 + 1);

    expect((await cancel(who, entry.entryNo)).json().code).toBe(0);
    expect(await booked(SECOND)).toBe(second0);
    expect((await get(who)).data.entries[0]!.booking).toBeNull();
    expect((await cancel(who, entry.entryNo)).json()).toMatchObject({ code: 404, msgCode: 'pickupNotBooked' });
    expect(await steps(entry.entryId)).toEqual([
      'submitted',
      'paid',
      'pickupBooked',
      'pickupBooked',
      'pickupCancelled',
    ]);

    // Booking again gets a new pass; the cancelled one no longer checks in.
    const again = (await book(who, entry.entryNo, FIRST)).json();
    expect(again.code).toBe(0);
    expect(again.data.passCode).not.toBe(pass);
  });

  it('gives the slot back when the entry gives its place back (refunded, deferred, cancelled)', async () => {
    const { who, entry } = await readyRunner();
    const before = await booked(SECOND);
    const pass = (await book(who, entry.entryNo, SECOND)).json().data.passCode as string;
    expect(await booked(SECOND)).toBe(before + 1);
    await app.repos.transaction(async (tx) => {
      const record = (await tx.entries.findById(entry.entryId))!;
      expect(await tx.entries.setStatus(entry.entryId, [1], 5, 'refunded', clock.now())).toBe(true);
      expect(await givePlacesBack(tx, [record], clock.now())).toBe(1);
    });
    expect(await booked(SECOND)).toBe(before);
    expect((await steps(entry.entryId)).slice(-3)).toEqual(['pickupBooked', 'refunded', 'pickupCancelled']);
    const { key, hash } = newStaffKey();
    await app.repos.pickup.issueStaffKey(DEMO_RACE_ID, 'desk-refund', hash, clock.now());
    expect((await checkIn(key, pass)).json()).toMatchObject({ code: 404, msgCode: 'pickupPassMissing' });
  });

  it('ends booking, changing and cancelling at the deadline, and answers closed when disabled', async () => {
    const { who, entry } = await readyRunner();
    expect((await book(who, entry.entryNo, FIRST)).json().code).toBe(0);
    const deadline = pickupSettings({ deadline: '2026-12-01 10:30:00' });
    await saveDemoRace(app, clock.now(), { packPickup: deadline });
    clock.advance(31 * 60_000);
    try {
      expect((await get(who)).data.state).toBe('ended');
      expect((await book(who, entry.entryNo, SECOND)).json()).toMatchObject({ code: 400, msgCode: 'pickupEnded' });
      expect((await cancel(who, entry.entryNo)).json()).toMatchObject({ code: 400, msgCode: 'pickupEnded' });
      await saveDemoRace(app, clock.now(), { packPickup: { ...deadline, enabled: false } });
      const closed = await get(who);
      expect(closed.data).toMatchObject({ state: 'closed', slots: [] });
      expect((await book(who, entry.entryNo, SECOND)).json()).toMatchObject({ code: 400, msgCode: 'pickupClosed' });
    } finally {
      await saveDemoRace(app, clock.now(), { packPickup: pickupSettings() });
      clock.advance(-31 * 60_000);
    }
    expect((await get(who)).data.state).toBe('open');
  });
});

describe('slots from race.json', () => {
  it('refuses a capacity below the places booked and the removal of a slot with bookings', async () => {
    // SMALL holds 3 bookings (the parallel test).
    const lower = pickupSettings();
    lower.days[0]!.slots[0]!.capacity = 2;
    const refused = await app.repos.transaction((tx) => tx.pickup.syncSlots(DEMO_RACE_ID, lower));
    expect(refused).toEqual({
      ok: false,
      problem: `pick-up slot ${SMALL}: capacity 2 is below the 3 places already booked`,
      slotId: SMALL,
      capacity: 2,
      booked: 3,
    });
    const removed = await app.repos.pickup.syncSlots(DEMO_RACE_ID, { ...lower, days: lower.days.slice(1) });
    expect(removed).toMatchObject({
      ok: false,
      problem: expect.stringContaining(`${SMALL} is no longer in packPickup`),
    });

    // A new empty slot comes and goes.
    const extra = pickupSettings();
    extra.days.push({ date: '2027-04-12', slots: [{ start: '09:00', end: '10:00', capacity: 5 }] });
    expect(await app.repos.pickup.syncSlots(DEMO_RACE_ID, extra)).toEqual({ ok: true });
    expect((await app.repos.pickup.slots(DEMO_RACE_ID)).some((s) => s.slotId === '2027-04-12 09:00')).toBe(true);
    expect(await app.repos.pickup.syncSlots(DEMO_RACE_ID, pickupSettings())).toEqual({ ok: true });
    expect((await app.repos.pickup.slots(DEMO_RACE_ID)).some((s) => s.slotId === '2027-04-12 09:00')).toBe(false);
    expect(await booked(SMALL)).toBe(3);
  });
});

describe('check-in', () => {
  it('collects a pass once with a staff key and refuses the second time, a cancelled or unknown pass', async () => {
    const { key, hash } = newStaffKey();
    await app.repos.pickup.issueStaffKey(DEMO_RACE_ID, 'desk-1', hash, clock.now());
    const { who, entry } = await readyRunner();
    await app.repos.db.run(sql`UPDATE entries SET bib = 'B01234' WHERE id = ${entry.entryId}`);
    // Booked for the slot running now (2026-12-01 09:00-12:00; the race clock reads 10:00).
    const pass = (await book(who, entry.entryNo, NOW_SLOT)).json().data.passCode as string;

    // Typed with a space and in lower case, as staff may.
    const typed = `${pass.slice(0, 5)} ${pass.slice(5)}`.toLowerCase();
    const first = (await checkIn(key, typed)).json();
    expect(first).toMatchObject({
      code: 0,
      data: {
        entryNo: entry.entryNo,
        name: entry.name,
        bib: 'B01234',
        slotId: NOW_SLOT,
        itemName: { en: '10 km' },
        outsideSlot: false,
      },
    });
    // The slot's day and times, for the staff to compare with the clock.
    expect(first.data.slot).toEqual({ date: '2026-12-01', start: '09:00', end: '12:00' });
    expect(first.data.certificateNumber).not.toBe(entry.certNumber);
    expect(first.data.certificateNumber).toContain('*');
    expect(first.data.collectedAt).toBe(clock.now());
    const second = (await checkIn(key, pass)).json();
    expect(second).toMatchObject({ code: 409, msgCode: 'pickupCollected', msgParams: { at: '2026-12-01 10:00' } });
    expect((await get(who)).data.entries[0]!.booking).toMatchObject({ status: 'collected', collectedAt: clock.now() });
    expect(await steps(entry.entryId)).toContain('packCollected');
    // A collected booking can be neither changed nor cancelled.
    expect((await book(who, entry.entryNo, SECOND)).json()).toMatchObject({ msgCode: 'pickupCollected' });
    expect((await cancel(who, entry.entryNo)).json()).toMatchObject({ msgCode: 'pickupCollected' });

    const other = await readyRunner();
    const cancelled = (await book(other.who, other.entry.entryNo, FIRST)).json().data.passCode as string;
    await cancel(other.who, other.entry.entryNo);
    expect((await checkIn(key, cancelled)).json()).toMatchObject({ code: 404, msgCode: 'pickupPassMissing' });
    expect((await checkIn(key, 'ABCDEFGHJK')).json()).toMatchObject({ code: 404, msgCode: 'pickupPassMissing' });
    expect((await checkIn(key, 'not a pass')).json()).toMatchObject({ code: 404, msgCode: 'pickupPassMissing' });
  });

  it('warns of a pass outside its booked day or slot and collects it only once staff confirm', async () => {
    const { key, hash } = newStaffKey();
    await app.repos.pickup.issueStaffKey(DEMO_RACE_ID, 'desk-3', hash, clock.now());
    // Another day (2027-04-15 09:00-11:00), and later the same day (12:00-14:00), the race clock reading 10:00.
    for (const [slotId, slot] of [
      [FIRST, { date: '2027-04-15', start: '09:00', end: '11:00' }],
      [LATER_SLOT, { date: '2026-12-01', start: '12:00', end: '14:00' }],
    ] as const) {
      const { who, entry } = await readyRunner();
      const pass = (await book(who, entry.entryNo, slotId)).json().data.passCode as string;
      const warned = (await checkIn(key, pass)).json();
      expect(warned).toMatchObject({
        code: 409,
        msgCode: 'pickupOutsideSlot',
        msgParams: { slot: `${slot.date} ${slot.start}–${slot.end}`, now: '2026-12-01 10:00' },
        data: { slotId, slot, now: '2026-12-01 10:00' },
      });
      expect(warned.msg).toBe(
        `This pass is booked for ${slot.date} ${slot.start}–${slot.end}; it is now 2026-12-01 10:00`,
      );
      // Nothing is collected until staff confirm.
      expect((await get(who)).data.entries[0]!.booking!.status).toBe('booked');
      expect(await steps(entry.entryId)).not.toContain('packCollected');
      const confirmed = (await checkIn(key, pass, DEMO_RACE_ID, true)).json();
      expect(confirmed).toMatchObject({ code: 0, data: { entryNo: entry.entryNo, slotId, slot, outsideSlot: true } });
      expect((await get(who)).data.entries[0]!.booking!.status).toBe('collected');
      // Collected is collected: the second time says so, confirmed or not.
      expect((await checkIn(key, pass, DEMO_RACE_ID, true)).json()).toMatchObject({
        code: 409,
        msgCode: 'pickupCollected',
      });
    }

    // A slot ends at its end: at 12:00 the 09:00-12:00 pass is outside it, the 12:00-14:00 one inside.
    const early = await readyRunner();
    const earlyPass = (await book(early.who, early.entry.entryNo, NOW_SLOT)).json().data.passCode as string;
    const late = await readyRunner();
    const latePass = (await book(late.who, late.entry.entryNo, LATER_SLOT)).json().data.passCode as string;
    clock.advance(2 * 60 * 60_000);
    try {
      expect((await checkIn(key, earlyPass)).json()).toMatchObject({
        code: 409,
        msgCode: 'pickupOutsideSlot',
        msgParams: { now: '2026-12-01 12:00' },
      });
      expect((await checkIn(key, latePass)).json()).toMatchObject({ code: 0, data: { outsideSlot: false } });
    } finally {
      clock.advance(-2 * 60 * 60_000);
    }
  });

  it('checks a staff key on its own, before any pass: its label, or refused when missing, wrong, revoked or of another race', async () => {
    const { key, hash } = newStaffKey();
    await app.repos.pickup.issueStaffKey(DEMO_RACE_ID, 'desk-4', hash, clock.now());
    const good = await staffKeyCheck(key);
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ code: 0, msg: 'success', data: { label: 'desk-4' } });
    expect(good.headers['cache-control']).toBe('no-store');
    for (const refused of [
      await staffKeyCheck(undefined),
      await staffKeyCheck('wrong-key'),
      await staffKeyCheck(key, 'fixture-race-2025'),
    ]) {
      expect(refused.json()).toMatchObject({ code: 403, msgCode: 'staffKeyInvalid', data: null });
    }
    expect(await app.repos.pickup.revokeStaffKey(DEMO_RACE_ID, 'desk-4', clock.now())).toBe(1);
    expect((await staffKeyCheck(key)).json()).toMatchObject({ code: 403, msgCode: 'staffKeyInvalid' });
    // A body without its race is refused by the schema, not answered 500.
    const bare = await app.inject({ method: 'POST', url: API_PATHS.pickupStaffKey, payload: {} });
    expect(bare.statusCode).toBeLessThan(500);
    expect(bare.json().code).not.toBe(0);
  });

  it('refuses a missing, wrong, revoked or other race staff key', async () => {
    const { who, entry } = await readyRunner();
    const pass = (await book(who, entry.entryNo, FIRST)).json().data.passCode as string;
    expect((await checkIn(undefined, pass)).json()).toMatchObject({ code: 403, msgCode: 'staffKeyInvalid' });
    expect((await checkIn('wrong-key', pass)).json()).toMatchObject({ code: 403, msgCode: 'staffKeyInvalid' });
    const { key, hash } = newStaffKey();
    await app.repos.pickup.issueStaffKey(DEMO_RACE_ID, 'desk-2', hash, clock.now());
    expect((await checkIn(key, pass, 'fixture-race-2025')).json()).toMatchObject({
      code: 403,
      msgCode: 'staffKeyInvalid',
    });
    expect(await app.repos.pickup.revokeStaffKey(DEMO_RACE_ID, 'desk-2', clock.now())).toBe(1);
    expect((await checkIn(key, pass)).json()).toMatchObject({ code: 403, msgCode: 'staffKeyInvalid' });
    // Nothing was collected.
    expect((await get(who)).data.entries[0]!.booking!.status).toBe('booked');
  });
});

describe('mailing OR pick-up', () => {
  const mailing = (who: TestRunner, method: 'mail' | 'pickup') =>
    app.inject({
      method: 'POST',
      url: API_PATHS.mailingSave,
      headers: { token: who.token },
      payload:
        method === 'mail'
          ? {
              raceId: DEMO_RACE_ID,
              method,
              name: '收件人',
              phone: '13612342222',
              region: ['320000', '320100', '320102'],
              address: '中山路1号',
            }
          : { raceId: DEMO_RACE_ID, method },
    });
  const mailingGet = async (who: TestRunner) =>
    (
      await app.inject({
        method: 'GET',
        url: `${API_PATHS.mailingGet}?raceId=${DEMO_RACE_ID}`,
        headers: { token: who.token },
      })
    ).json();

  it('a runner who chose mailing books no slot until they switch to pick-up, and one with a booking cannot choose mailing', async () => {
    const { who, entry } = await readyRunner();
    expect((await mailing(who, 'mail')).json().code).toBe(0);
    // Mailing chosen: the pick-up page says so and booking is refused with the reason.
    expect((await get(who)).data.entries[0]!.blockedBy).toBe('pickupMailingChosen');
    const refused = (await book(who, entry.entryNo, FIRST)).json();
    expect(refused).toMatchObject({ code: 400, msgCode: 'pickupMailingChosen', data: null });
    expect(refused.msg).toBe('You chose to have your race pack mailed: switch to on-site pick-up first to book a slot');
    expect((await get(who)).data.entries[0]!.booking).toBeNull();

    // Switched to pick-up on /post: the slot is booked.
    expect((await mailing(who, 'pickup')).json().code).toBe(0);
    expect((await get(who)).data.entries[0]!.blockedBy).toBeNull();
    expect((await book(who, entry.entryNo, FIRST)).json().code).toBe(0);

    // Booked: /post says so, and mailing is refused with the booked slot, the choice left as it was.
    expect((await mailingGet(who)).data.pickupBookings).toEqual([
      { slotId: FIRST, slot: { date: '2027-04-15', start: '09:00', end: '11:00' } },
    ]);
    const both = (await mailing(who, 'mail')).json();
    expect(both).toMatchObject({
      code: 409,
      msgCode: 'mailingPickupBooked',
      msgParams: { slot: '2027-04-15 09:00–11:00' },
    });
    expect(both.msg).toBe(
      'You booked pack pick-up for 2027-04-15 09:00–11:00: cancel that booking first to have your pack mailed',
    );
    expect((await mailingGet(who)).data.choice.method).toBe('pickup');

    // Cancelled: mailing may be chosen again, and then the slot may not be booked.
    expect((await cancel(who, entry.entryNo)).json().code).toBe(0);
    expect((await mailingGet(who)).data.pickupBookings).toBeUndefined();
    expect((await mailing(who, 'mail')).json().code).toBe(0);
    expect((await book(who, entry.entryNo, SECOND)).json().msgCode).toBe('pickupMailingChosen');
  });

  it('a mailing choice counts only where the race offers mailing', async () => {
    const { who, entry } = await readyRunner();
    expect((await mailing(who, 'mail')).json().code).toBe(0);
    await saveDemoRace(app, clock.now(), {
      packPickup: pickupSettings(),
      packMailing: { ...demoRace().packMailing!, enabled: false },
    });
    try {
      expect((await get(who)).data.entries[0]!.blockedBy).toBeNull();
      expect((await book(who, entry.entryNo, SECOND)).json().code).toBe(0);
    } finally {
      await saveDemoRace(app, clock.now(), { packPickup: pickupSettings() });
    }
  });
});

describe('the organiser CLI', () => {
  it('issues and revokes staff keys, checks a pass in, lists and exports the bookings', async () => {
    const issued = await cli('staff-key-issue', '--race', DEMO_RACE_ID, '--label', 'desk-9');
    expect(issued.code, issued.err).toBe(0);
    const key = issued.out.split('\n')[1]!;
    expect(key.length).toBeGreaterThanOrEqual(32);
    const again = await cli('staff-key-issue', '--race', DEMO_RACE_ID, '--label', 'desk-9');
    expect(again.code).toBe(1);
    expect(again.err).toContain('already has an active staff key');

    const { who, entry } = await readyRunner();
    const pass = (await book(who, entry.entryNo, SECOND)).json().data.passCode as string;
    expect((await checkIn(key, 'ABCDEFGHJK')).json().msgCode).toBe('pickupPassMissing');

    const checked = await cli('pickup-checkin', '--race', DEMO_RACE_ID, '--pass', pass);
    expect(checked.code, checked.err).toBe(0);
    expect(checked.out).toContain(`collected: ${entry.name}`);
    // The CLI hands over outside the booked slot (the organiser typed the pass) and says so.
    expect(checked.out).toContain('slot 2027-04-15 11:00-13:00 (outside the booked slot),');
    const twice = await cli('pickup-checkin', '--race', DEMO_RACE_ID, '--pass', pass);
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('already collected at');

    const list = await cli('pickup-list', '--race', DEMO_RACE_ID);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(/2027-04-13 10:00-12:00\s+3\s+3\s+0\s+0/);
    expect(list.out).toMatch(new RegExp(`${SECOND}-13:00\\s+1500\\s+\\d+\\s+1\\s+\\d+`));

    const out = path.join(dataDir, 'pickup.csv');
    const exported = await cli('pickup-export', '--race', DEMO_RACE_ID, '--out', out);
    expect(exported.code, exported.err).toBe(0);
    expect(existsSync(out)).toBe(true);
    const csv = readFileSync(out, 'utf8');
    expect(csv).toContain('slot,status,pass,entryNo,name');
    expect(csv).toContain(`${entry.entryNo},${entry.name}`);
    expect(csv).toContain('collected');
    expect((await cli('pickup-export', '--race', DEMO_RACE_ID, '--out', path.join(FIXTURES, 'x.txt'))).code).toBe(1);

    expect((await cli('staff-key-revoke', '--race', DEMO_RACE_ID, '--label', 'desk-9')).code).toBe(0);
    expect((await checkIn(key, pass)).json().msgCode).toBe('staffKeyInvalid');
    expect((await cli('staff-key-revoke', '--race', DEMO_RACE_ID, '--label', 'desk-9')).code).toBe(1);
    expect((await cli('pickup-list')).code).toBe(2);
  });
});
