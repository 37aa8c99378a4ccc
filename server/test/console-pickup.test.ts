/**
 * The console's pick-up (issue 32; routes/admin/pickup.ts): the organiser's view (slots, live booked and
 * collected figures, staff keys), issuing and revoking check-in keys, a slot's capacity changed through the
 * race info (refused below the places booked), the export, and the volunteer's check-in screen: a pass looked
 * up, then handed over once per pass and per nonce (a resend of the same nonce is the same hand-over, a
 * second nonce for a collected pass is refused with when and by whom, in parallel too). Who may do what, and
 * the audit records with the CLI's action names. Both engines.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterVersionHash, pickupSlotId, STAFF_KEY_HEADER, type PackPickupSettings } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import type { StaffRole } from '#contract/staff';
import { sql } from '../src/db/engine.ts';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { verifyAuditChain } from '../src/services/staff/audit.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRace,
  demoRaceApp,
  newRunner,
  saveDemoRace,
  wonPaidEntry,
} from './after-entry-helpers.ts';
import { removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { memberSession } from './console-helpers.ts';

const clock = afterEntryClock();
const dataDir = tempDir();
let app: FastifyInstance;

/** The slot running at the test clock (2026-12-01 10:00, race clock) and a small one for the capacity. */
const NOW_SLOT = pickupSlotId('2026-12-01', '09:00');
const SMALL = pickupSlotId('2026-12-02', '10:00');

function pickupSettings(): PackPickupSettings {
  const base = demoRace().packPickup!;
  return {
    ...base,
    days: [
      ...base.days,
      { date: '2026-12-01', slots: [{ start: '09:00', end: '12:00', capacity: 50 }] },
      { date: '2026-12-02', slots: [{ start: '10:00', end: '12:00', capacity: 3 }] },
    ],
  };
}

interface Session {
  cookie: string;
  csrf: string;
  id: number;
  name: string;
}
const sessions = new Map<string, Session>();

async function member(key: string, role: StaffRole, races: string[] | null = null): Promise<Session> {
  const session = await memberSession(app, {
    email: `${key}@pickup.example.com`,
    name: `${key} 志愿者`,
    role,
    races,
    now: clock.now,
  });
  sessions.set(key, session);
  return session;
}

const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: object, raceId = DEMO_RACE_ID) => {
  const session = sessions.get(who)!;
  const res = await app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${raceId}/pickup${url}`,
    headers: { cookie: session.cookie, [CSRF_HEADER]: session.csrf },
    ...(payload ? { payload } : {}),
  });
  return res;
};
const json = async (...args: Parameters<typeof call>) => (await call(...args)).json();

const nonce = () => randomBytes(12).toString('base64url');
const audits = (action: string) => app.repos.audit.find({ action, limit: 100 });
const slotOf = async (who: string, slotId: string) =>
  (
    (await json(who, 'GET', '')).data.slots as { slotId: string; booked: number; collected: number; capacity: number }[]
  ).find((s) => s.slotId === slotId)!;

/** A runner with a won, paid, signed entry, booked into `slotId`: the pass code. */
async function bookedPass(slotId = NOW_SLOT): Promise<{ pass: string; entryNo: string; entryId: number }> {
  const who = await newRunner(app, clock.now());
  const entry = await wonPaidEntry(app, who, clock.now());
  const hash = letterVersionHash(demoRace().commitmentLetter!);
  await app.repos.db.run(sql`
    INSERT INTO letter_signatures (race_id, entry_id, user_id, version_hash, signer_name, accepted, ip, user_agent, signed_at)
    VALUES (${DEMO_RACE_ID}, ${entry.entryId}, ${who.id}, ${hash}, ${entry.name}, '[0,1,2]', '127.0.0.1', 'test', ${clock.now()})`);
  const booked = await app.inject({
    method: 'POST',
    url: API_PATHS.pickupBook,
    payload: { raceId: DEMO_RACE_ID, entryNo: entry.entryNo, slotId },
    headers: { token: who.token },
  });
  expect(booked.json(), 'booking').toMatchObject({ code: 0 });
  return { pass: booked.json().data.passCode as string, entryNo: entry.entryNo, entryId: entry.entryId };
}

beforeAll(async () => {
  app = await demoRaceApp(clock, { dataDir });
  await saveDemoRace(app, clock.now(), { packPickup: pickupSettings() });
  expect(await app.repos.pickup.syncSlots(DEMO_RACE_ID, pickupSettings())).toEqual({ ok: true });
  await member('owner', 'owner');
  await member('service', 'service');
  await member('desk', 'checkIn');
  await member('desk2', 'checkIn');
  const other = (await app.repos.races.list()).find((race) => race.raceId !== DEMO_RACE_ID)!;
  await member('elsewhere', 'checkIn', [other.raceId]);
  await member('observer', 'observer');
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

describe('who may do what', () => {
  it('a checkIn member can only look passes up and hand packs over; pick-up admin is for pickup', async () => {
    const { pass } = await bookedPass();
    for (const [method, url, body] of [
      ['GET', '', undefined],
      ['POST', '/keys', { label: 'desk-x' }],
      ['POST', '/keys/revoke', { label: 'desk-x' }],
      ['POST', '/capacity', { slotId: SMALL, capacity: 4 }],
      ['GET', '/export?format=csv', undefined],
    ] as const) {
      expect(await json('desk', method, url, body), `desk ${url}`).toMatchObject({
        code: 403,
        msgCode: 'staffForbidden',
      });
      expect(await json('observer', method, url, body), `observer ${url}`).toMatchObject({ code: 403 });
    }
    expect(await json('service', 'GET', `/passes/${pass}`)).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    expect(await json('service', 'POST', '/checkin', { passCode: pass, nonce: nonce() })).toMatchObject({
      code: 403,
      msgCode: 'staffForbidden',
    });
    expect(await json('elsewhere', 'GET', `/passes/${pass}`)).toMatchObject({
      code: 403,
      msgCode: 'staffRaceForbidden',
    });
    expect((await json('service', 'GET', '')).code).toBe(0);
    expect((await json('desk', 'GET', `/passes/${pass}`)).code).toBe(0);
    // Nothing was collected by the refused calls.
    expect((await json('desk', 'GET', `/passes/${pass}`)).data.status).toBe('booked');
  });
});

describe('staff check-in keys', () => {
  it('issues a key shown once, lists it without the key, refuses a second of a label, revokes it', async () => {
    const issued = await json('service', 'POST', '/keys', { label: '  Desk 7 ' });
    expect(issued).toMatchObject({ code: 0, data: { label: 'Desk 7' } });
    const key = issued.data.key as string;
    expect(key.length).toBeGreaterThanOrEqual(32);
    const staffKey = () =>
      app.inject({
        method: 'POST',
        url: API_PATHS.pickupStaffKey,
        payload: { raceId: DEMO_RACE_ID },
        headers: { [STAFF_KEY_HEADER]: key },
      });
    expect((await staffKey()).json()).toMatchObject({ code: 0, data: { label: 'Desk 7' } });

    const view = await json('service', 'GET', '');
    expect(view.data.keys).toContainEqual({ label: 'Desk 7', createdAt: clock.now(), revokedAt: null });
    expect(JSON.stringify(view)).not.toContain(key);

    expect(await json('service', 'POST', '/keys', { label: 'Desk 7' })).toMatchObject({
      code: 409,
      msgCode: 'pickupKeyExists',
      msgParams: { label: 'Desk 7' },
    });
    expect(await json('service', 'POST', '/keys', { label: '   ' })).toMatchObject({
      code: 400,
      msgCode: 'pickupKeyLabelInvalid',
    });
    expect(await json('service', 'POST', '/keys', { label: 'x'.repeat(41) })).toMatchObject({ code: 400 });

    expect(await json('service', 'POST', '/keys/revoke', { label: 'Desk 7' })).toMatchObject({ code: 0 });
    expect((await staffKey()).json()).toMatchObject({ code: 403, msgCode: 'staffKeyInvalid' });
    expect(await json('service', 'POST', '/keys/revoke', { label: 'Desk 7' })).toMatchObject({
      code: 404,
      msgCode: 'pickupKeyMissing',
    });
    const revoked = (await json('service', 'GET', '')).data.keys.find((k: { label: string }) => k.label === 'Desk 7');
    expect(revoked.revokedAt).toBe(clock.now());

    // In the audit log with the CLI's action names, the label and never the key.
    const service = sessions.get('service')!;
    const issuedRecords = (await audits('pickup.staffKeyIssue')).filter((r) => r.target === 'Desk 7');
    expect(issuedRecords).toHaveLength(1);
    expect(issuedRecords[0]).toMatchObject({ staffId: service.id, raceId: DEMO_RACE_ID });
    expect(JSON.stringify(issuedRecords)).not.toContain(key);
    expect((await audits('pickup.staffKeyRevoke')).filter((r) => r.target === 'Desk 7')).toHaveLength(1);
  });

  it('the CLI writes the same audit records as the console', async () => {
    const cli = siteCli(dataDir, clock.now);
    const issued = await cli('staff-key-issue', '--race', DEMO_RACE_ID, '--label', 'cli-desk');
    expect(issued.code, issued.err).toBe(0);
    const revoked = await cli('staff-key-revoke', '--race', DEMO_RACE_ID, '--label', 'cli-desk');
    expect(revoked.code, revoked.err).toBe(0);
    expect((await audits('pickup.staffKeyIssue')).filter((r) => r.target === 'cli-desk')).toMatchObject([
      { staffId: null },
    ]);
    expect((await audits('pickup.staffKeyRevoke')).filter((r) => r.target === 'cli-desk')).toHaveLength(1);
    expect(await audits('cli.staff-key-issue')).toEqual([]);
  });
});

describe('slot capacities', () => {
  it('changes a capacity in the race info, refuses one below the places booked, and bad numbers', async () => {
    await bookedPass(SMALL);
    await bookedPass(SMALL);
    expect(await slotOf('owner', SMALL)).toMatchObject({ capacity: 3, booked: 2, collected: 0, left: 1 });

    expect(await json('owner', 'POST', '/capacity', { slotId: SMALL, capacity: 1 })).toMatchObject({
      code: 409,
      msgCode: 'pickupCapacityBelowBooked',
      msgParams: { slot: '2026-12-02 10:00–12:00', booked: 2 },
    });
    // Nothing changed: the race info nor the slot's places.
    const stored = (await app.repos.races.findById(DEMO_RACE_ID))!.packPickup!.days.at(-1)!.slots[0]!;
    expect(stored.capacity).toBe(3);
    expect((await app.repos.pickup.slots(DEMO_RACE_ID)).find((s) => s.slotId === SMALL)!.capacity).toBe(3);

    for (const capacity of [-1, 2.5, 100_001]) {
      expect(await json('owner', 'POST', '/capacity', { slotId: SMALL, capacity }), String(capacity)).toMatchObject({
        code: 400,
        msgCode: 'pickupCapacityInvalid',
      });
    }
    expect(await json('owner', 'POST', '/capacity', { slotId: '2026-12-02 08:00', capacity: 5 })).toMatchObject({
      code: 404,
      msgCode: 'pickupSlotMissing',
    });

    // Exactly the places booked is allowed (the slot is full), and more.
    expect(await json('service', 'POST', '/capacity', { slotId: SMALL, capacity: 2 })).toMatchObject({ code: 0 });
    expect(await slotOf('owner', SMALL)).toMatchObject({ capacity: 2, left: 0 });
    expect(await json('owner', 'POST', '/capacity', { slotId: SMALL, capacity: 10 })).toMatchObject({ code: 0 });
    expect(await slotOf('owner', SMALL)).toMatchObject({ capacity: 10, left: 8 });
    const saved = (await app.repos.races.findById(DEMO_RACE_ID))!.packPickup!.days.at(-1)!.slots[0]!;
    expect(saved.capacity).toBe(10);

    const records = (await audits('pickup.capacity')).filter((r) => r.target === SMALL);
    expect(records.map((r) => [JSON.parse(r.before!).capacity, JSON.parse(r.after!).capacity])).toEqual([
      [2, 10],
      [3, 2],
    ]);
  });
});

describe('the check-in screen', () => {
  it('looks a pass up (masked certificate, item, bib), nothing written', async () => {
    const { pass, entryNo } = await bookedPass();
    const found = await json('desk', 'GET', `/passes/${pass.slice(0, 5)}-${pass.slice(5).toLowerCase()}`);
    expect(found).toMatchObject({
      code: 0,
      data: { passCode: pass, status: 'booked', entryNo, slotId: NOW_SLOT, outsideSlot: false, collectedAt: null },
    });
    expect(found.data.certificateNumber).toMatch(/\*/);
    expect(found.data.itemName.en).toBeTruthy();
    expect(await json('desk', 'GET', '/passes/ABCDEFGHJK')).toMatchObject({ code: 404, msgCode: 'pickupPassMissing' });
    expect(await json('desk', 'GET', '/passes/not-a-pass')).toMatchObject({ code: 404, msgCode: 'pickupPassMissing' });
  });

  it('the same nonce twice is one hand-over; a second nonce for the pass is refused with when and by whom', async () => {
    const { pass, entryNo, entryId } = await bookedPass();
    const before = await slotOf('owner', NOW_SLOT);
    const first = nonce();
    const handed = await json('desk', 'POST', '/checkin', {
      passCode: pass,
      nonce: first,
      handedAt: clock.now() - 5000,
    });
    expect(handed).toMatchObject({ code: 0, data: { entryNo, repeated: false, outsideSlot: false } });
    const again = await json('desk', 'POST', '/checkin', { passCode: pass, nonce: first });
    expect(again).toMatchObject({ code: 0, data: { entryNo, repeated: true, collectedAt: handed.data.collectedAt } });

    const other = await json('desk2', 'POST', '/checkin', { passCode: pass, nonce: nonce() });
    expect(other).toMatchObject({
      code: 409,
      msgCode: 'pickupCollectedBy',
      msgParams: { at: '2026-12-01 10:00', by: sessions.get('desk')!.name },
    });
    // A nonce recorded for this pass is not another pass's.
    const { pass: second } = await bookedPass();
    expect(await json('desk', 'POST', '/checkin', { passCode: second, nonce: first })).toMatchObject({
      code: 409,
      msgCode: 'pickupNonceReused',
    });
    expect(await json('desk', 'POST', '/checkin', { passCode: second, nonce: 'short' })).toMatchObject({
      code: 400,
      msgCode: 'pickupNonceInvalid',
    });
    expect((await json('desk', 'GET', `/passes/${second}`)).data.status).toBe('booked');

    // One collection: one timeline step, one audit record (by the member, with the device's time), the figures.
    const steps = ((await app.repos.entries.events([entryId])).get(entryId) ?? []).filter(
      (e) => e.step === 'packCollected',
    );
    expect(steps).toHaveLength(1);
    const records = (await audits('pickup.checkIn')).filter((r) => r.target === entryNo);
    expect(records).toHaveLength(1);
    expect(records[0]!.staffId).toBe(sessions.get('desk')!.id);
    expect(JSON.parse(records[0]!.after!)).toMatchObject({ pass, nonce: first, handedAt: clock.now() - 5000 });
    const after = await slotOf('owner', NOW_SLOT);
    expect(after.collected).toBe(before.collected + 1);
    // One booked pass collected, the second pass booked since.
    expect(after.booked).toBe(before.booked - 1 + 1);
    expect(await json('desk', 'GET', `/passes/${pass}`)).toMatchObject({
      data: { status: 'collected', collectedBy: sessions.get('desk')!.name },
    });
    expect((await verifyAuditChain(app.repos)).ok).toBe(true);
  });

  it('in parallel: one nonce sent five times is one hand-over; five nonces for one pass, one succeeds', async () => {
    const { pass, entryId } = await bookedPass();
    const same = nonce();
    const resends = await Promise.all(
      Array.from({ length: 5 }, () => json('desk', 'POST', '/checkin', { passCode: pass, nonce: same })),
    );
    expect(resends.map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
    expect(resends.filter((r) => r.data.repeated === false)).toHaveLength(1);

    const { pass: contested, entryId: contestedId } = await bookedPass();
    const desks = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        json(i % 2 === 0 ? 'desk' : 'desk2', 'POST', '/checkin', { passCode: contested, nonce: nonce() }),
      ),
    );
    expect(desks.filter((r) => r.code === 0)).toHaveLength(1);
    expect(desks.filter((r) => r.code === 409 && r.msgCode === 'pickupCollectedBy')).toHaveLength(4);

    for (const id of [entryId, contestedId]) {
      const steps = ((await app.repos.entries.events([id])).get(id) ?? []).filter((e) => e.step === 'packCollected');
      expect(steps).toHaveLength(1);
    }
  });

  it('a pass outside its slot needs the volunteer to confirm', async () => {
    const later = pickupSlotId('2026-12-02', '10:00');
    const { pass } = await bookedPass(later);
    expect((await json('desk', 'GET', `/passes/${pass}`)).data.outsideSlot).toBe(true);
    const refused = await json('desk', 'POST', '/checkin', { passCode: pass, nonce: nonce() });
    expect(refused).toMatchObject({ code: 409, msgCode: 'pickupOutsideSlot' });
    const confirmed = await json('desk', 'POST', '/checkin', {
      passCode: pass,
      nonce: nonce(),
      outsideSlotConfirmed: true,
    });
    expect(confirmed).toMatchObject({ code: 0, data: { outsideSlot: true } });
  });
});

describe('the export', () => {
  it('hands the bookings out as .csv and .xlsx, recorded in the audit log', async () => {
    const { pass } = await bookedPass();
    const csv = await call('service', 'GET', '/export?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/qc-marathon-2027-pickup-\d{8}-\d{4}\.csv/);
    expect(csv.body).toContain(`${pass.slice(0, 5)} ${pass.slice(5)}`);
    const xlsx = await call('service', 'GET', '/export');
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(await json('service', 'GET', '/export?format=pdf')).toMatchObject({ code: 400, msgCode: 'staffBadQuery' });
    const records = await audits('pickup.export');
    expect(records.map((r) => JSON.parse(r.after!).format).slice(0, 2)).toEqual(['xlsx', 'csv']);
  });
});
