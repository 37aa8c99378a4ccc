/**
 * One entry in the console (issue 30 §5; services/console/entry-detail.ts, entry-actions.ts): every role
 * against every call of the entry page, its view (masked numbers, the form's answers by label, orders,
 * timeline with who did each step), the whole numbers behind their own logged call, and each action with a
 * reason: its effects (places, wait list, orders, messages), its audit record and timeline step, and bad input
 * answered 400 with a clear message. Both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_REASON_MAX } from '#contract/console-entry';
import { STAFF_ROLES, type StaffRole } from '#contract/staff';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { verifyAuditChain } from '../src/services/staff/audit.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRaceApp,
  newRunner,
  saveDemoRace,
  unpaidEntry,
  wonPaidEntry,
  type TestEntry,
} from './after-entry-helpers.ts';
import { removeTempDirs } from './helpers.ts';
import { memberSession } from './console-helpers.ts';

const name = (zh: string, en = zh) => ({ zh, en });
const FORM = {
  version: 1,
  raceId: DEMO_RACE_ID,
  channel: 'public',
  title: name('报名信息', 'Entry form'),
  fields: [
    { key: 'name', type: 'input', label: name('姓名', 'Name'), required: true },
    { key: 'gender', type: 'gender', label: name('性别', 'Gender'), required: true },
    { key: 'certificateType', type: 'certificateType', label: name('证件类型', 'Type'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: name('证件号码', 'Certificate number'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: name('出生日期', 'Birthday'), required: true },
    { key: 'phone', type: 'phone', label: name('手机', 'Phone'), required: true },
    {
      key: 'shirt',
      type: 'radio',
      label: name('T恤尺码', 'T-shirt size'),
      options: [
        { value: 'S', label: name('小码', 'Small') },
        { value: 'L', label: name('大码', 'Large') },
      ],
    },
  ],
};

const clock = afterEntryClock();
let app: FastifyInstance;
const sessions = new Map<StaffRole, { cookie: string; csrf: string; id: number }>();

const member = (email: string, role: StaffRole, races: string[] | null = null) =>
  memberSession(app, { email, role, races, now: clock.now });

const call = (role: StaffRole, method: 'GET' | 'POST', url: string, payload?: object) => {
  const who = sessions.get(role)!;
  return app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${DEMO_RACE_ID}/entries${url}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
    ...(payload ? { payload } : {}),
  });
};

let personSeq = 500;
/** The form's values of a new person (a valid ID card of their own). */
function person(changes: Record<string, unknown> = {}) {
  personSeq += 1;
  return {
    name: `新跑者${personSeq}`,
    gender: 2,
    certificateType: 1,
    certificateNumber: idCard(`330106199203${String(10 + (personSeq % 18)).padStart(2, '0')}${personSeq}`),
    birthday: `1992-03-${String(10 + (personSeq % 18)).padStart(2, '0')}`,
    phone: `1391234${String(personSeq).padStart(4, '0')}`,
    shirt: 'L',
    ...changes,
  };
}

const audits = (action: string) => app.repos.audit.find({ action, limit: 50 });
const outbox = () => app.repos.outbox.latest(200);
const tenK = async () => (await app.repos.entries.places(DEMO_RACE_ID)).find((p) => p.itemCode === '10K')!.taken;

beforeAll(async () => {
  app = await demoRaceApp(clock);
  await publishRegistrationForm({
    repos: app.repos,
    raceId: DEMO_RACE_ID,
    channel: 'public',
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: clock.now(),
  });
  for (const role of STAFF_ROLES) sessions.set(role, await member(`${role}@example.org`, role));
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('every role against every call of one entry', () => {
  let entry: TestEntry;
  beforeAll(async () => {
    entry = await unpaidEntry(app, await newRunner(app, clock.now()), clock.now());
  });
  // Allowed roles get past the permission check: the empty reason is then refused with its own message.
  const ACTIONS: { path: string; allowed: StaffRole[] }[] = [
    { path: 'answers', allowed: ['owner', 'service'] },
    { path: 'transfer', allowed: ['owner', 'service'] },
    { path: 'cancel', allowed: ['owner', 'service'] },
    { path: 'bib', allowed: ['owner', 'service'] },
    { path: 'offline-payment', allowed: ['owner', 'finance'] },
    { path: 'refund', allowed: ['owner', 'finance'] },
  ];
  it.each([...STAFF_ROLES])('GET the entry, POST personal: %s', async (role) => {
    const view = (await call(role, 'GET', `/${entry.entryNo}`)).json();
    if (['owner', 'finance', 'service'].includes(role)) expect(view).toMatchObject({ code: 0 });
    else expect(view).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    const personal = (await call(role, 'POST', `/${entry.entryNo}/personal`)).json();
    if (['owner', 'service'].includes(role)) expect(personal).toMatchObject({ code: 0 });
    else expect(personal).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
  });
  for (const { path, allowed } of ACTIONS) {
    it.each([...STAFF_ROLES])(`POST ${path}: %s`, async (role) => {
      const res = await call(role, 'POST', `/${entry.entryNo}/${path}`, { reason: '  ' });
      expect(res.headers['cache-control']).toBe('no-store');
      if (allowed.includes(role)) {
        expect(res.json()).toMatchObject({ code: 400, msgCode: 'entryReasonRequired', msgParams: { max: 500 } });
      } else {
        expect(res.json()).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
      }
    });
  }
  it('refuses a member limited to other races, and an unknown entry with 404', async () => {
    const res = await call('owner', 'GET', '/E00000000');
    expect(res.json()).toMatchObject({ code: 404, msgCode: 'entryNotFound' });
    const limited = await member('limited@example.org', 'service', ['fixture-race-2025']);
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/personal'],
      ['POST', '/cancel'],
    ] as const) {
      const refused = await app.inject({
        method,
        url: `${ADMIN_PREFIX}/races/${DEMO_RACE_ID}/entries/${entry.entryNo}${path}`,
        headers: { cookie: limited.cookie, [CSRF_HEADER]: limited.csrf },
        ...(method === 'POST' ? { payload: { reason: 'r' } } : {}),
      });
      expect(refused.json()).toMatchObject({ code: 403, msgCode: 'staffRaceForbidden' });
    }
    expect((await app.repos.entries.findById(entry.entryId))!.status).toBe(0);
  });
});

describe('the entry page', () => {
  it('shows the person masked, the answers by the form’s labels, the order and the timeline with who did it', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const res = await call('finance', 'GET', `/${entry.entryNo.toLowerCase()}`);
    const body = res.json();
    expect(body.code, res.body).toBe(0);
    const detail = body.data;
    expect(detail).toMatchObject({
      entryNo: entry.entryNo,
      itemCode: '10K',
      status: 1,
      holdsPlace: true,
      person: { name: entry.name, birthday: entry.birthday },
      allows: { transfer: false },
      letter: { enabled: true, signed: false },
    });
    expect(detail.person.certMasked).toMatch(/^\d{4}\*+\w{4}$/);
    expect(res.body).not.toContain(entry.certNumber);
    expect(res.body).not.toContain(entry.phone);
    expect(detail.answers.map((a: { label: { en: string } }) => a.label.en)).toContain('Certificate number');
    expect(detail.orders).toHaveLength(1);
    expect(detail.orders[0]).toMatchObject({ orderNo: entry.orderNo, status: 3, lineFen: entry.feeFen });
    expect(detail.orders[0].payments[0]).toMatchObject({ provider: 'sandbox', status: 'paid' });
    expect(detail.timeline.map((s: { step: string; actor: { kind: string } }) => [s.step, s.actor.kind])).toEqual([
      ['submitted', 'runner'],
      ['paid', 'runner'],
    ]);
  });

  it('answers the whole numbers to a role that may see them, and logs each opening', async () => {
    const entry = await wonPaidEntry(app, await newRunner(app, clock.now()), clock.now());
    const before = (await audits('entry.personal')).length;
    const res = await call('service', 'POST', `/${entry.entryNo}/personal`);
    expect(res.json()).toMatchObject({ code: 0, data: { certNumber: entry.certNumber, phone: entry.phone } });
    const logged = await audits('entry.personal');
    expect(logged).toHaveLength(before + 1);
    expect(logged[0]).toMatchObject({
      actor: `staff:${sessions.get('service')!.id}`,
      target: entry.entryNo,
      raceId: DEMO_RACE_ID,
    });
    expect(JSON.stringify(logged[0])).not.toContain(entry.certNumber);
  });
});

describe('the actions', () => {
  it('refuses a reason too long, and a body of the wrong shape, with a clear 400', async () => {
    const entry = await wonPaidEntry(app, await newRunner(app, clock.now()), clock.now());
    const long = await call('owner', 'POST', `/${entry.entryNo}/cancel`, { reason: 'x'.repeat(ENTRY_REASON_MAX + 1) });
    expect(long.json()).toMatchObject({ code: 400, msgCode: 'entryReasonRequired' });
    const notObject = await call('owner', 'POST', `/${entry.entryNo}/answers`, { reason: 'r', values: 'x' });
    expect(notObject.statusCode).toBeLessThan(500);
    expect(notObject.json()).toMatchObject({ code: 400 });
    const badAmount = await call('owner', 'POST', `/${entry.entryNo}/refund`, { reason: 'r', amountFen: 'lots' });
    expect(badAmount.json()).toMatchObject({ code: 400, msgCode: 'entryRefundAmount' });
    expect((await app.repos.entries.findById(entry.entryId))!.status).toBe(1);
  });

  it('edits the answers by the form’s rules, on the timeline and in the audit log, and tells the runner', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const bad = await call('service', 'POST', `/${entry.entryNo}/answers`, {
      reason: '跑者来电更正',
      values: person({ certificateNumber: '123', phone: '12' }),
    });
    expect(bad.json()).toMatchObject({ code: 400, msgCode: 'entryAnswersInvalid' });
    expect(Object.keys(bad.json().data.fields)).toEqual(expect.arrayContaining(['certificateNumber', 'phone']));
    const values = person({ name: entry.name, certificateNumber: entry.certNumber, birthday: entry.birthday });
    const res = await call('service', 'POST', `/${entry.entryNo}/answers`, { reason: '跑者来电更正尺码', values });
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    const detail = (await call('service', 'GET', `/${entry.entryNo}`)).json().data;
    const shirt = detail.answers.find((a: { key: string }) => a.key === 'shirt');
    expect(shirt).toMatchObject({ value: 'L', shown: { zh: '大码', en: 'Large' } });
    expect(detail.timeline.at(-1)).toMatchObject({
      step: 'answersEdited',
      note: '跑者来电更正尺码',
      actor: { kind: 'staff', name: 'service 员工' },
    });
    const [record] = await audits('entry.edit');
    expect(record).toMatchObject({ target: entry.entryNo, actor: `staff:${sessions.get('service')!.id}` });
    expect(record!.after).toContain('跑者来电更正尺码');
    expect(`${record!.before}${record!.after}`).not.toContain(entry.certNumber);
    expect(`${record!.before}${record!.after}`).not.toContain(values.phone);
    expect((await outbox()).some((m) => m.destination === runner.phone && m.subject.includes('Entry details'))).toBe(
      true,
    );
    // A person who has another live entry of the race is refused.
    const other = await wonPaidEntry(app, await newRunner(app, clock.now()), clock.now());
    const clash = await call('service', 'POST', `/${entry.entryNo}/answers`, {
      reason: 'r',
      values: { ...values, name: other.name, certificateNumber: other.certNumber, birthday: other.birthday },
    });
    expect(clash.json()).toMatchObject({ code: 400, msgCode: 'entryPersonLive' });
  });

  it('keeps the stored certificate number and phone when an edit sends them back masked, as the page shows them', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const values = person({ name: entry.name, certificateNumber: entry.certNumber, birthday: entry.birthday });
    expect((await call('owner', 'POST', `/${entry.entryNo}/answers`, { reason: '补全', values })).json()).toMatchObject(
      {
        code: 0,
      },
    );
    const shown = (await call('owner', 'GET', `/${entry.entryNo}`)).json().data.answers as {
      key: string;
      value: unknown;
    }[];
    const masked = Object.fromEntries(shown.map((a) => [a.key, a.value]));
    expect(masked.certificateNumber).not.toBe(entry.certNumber);
    const res = await call('owner', 'POST', `/${entry.entryNo}/answers`, {
      reason: '改尺码',
      values: { ...masked, shirt: 'S' },
    });
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    const kept = (await app.repos.entries.findById(entry.entryId))!;
    expect(kept).toMatchObject({ certNumber: entry.certNumber, phone: values.phone });
    expect((await app.repos.entries.valuesOf(entry.entryId)).shirt).toBe('S');
  });

  it('cancels an unpaid entry: its place back, its order cancelled, the runner told; not twice', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await unpaidEntry(app, runner, clock.now());
    const taken = await tenK();
    const res = await call('owner', 'POST', `/${entry.entryNo}/cancel`, { reason: '重复报名' });
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { placeGiven: true, orderCancelled: true, paidFen: 0 },
    });
    expect(await tenK()).toBe(taken - 1);
    expect((await app.repos.orders.findByNo(entry.orderNo))!.status).toBe(4);
    expect((await app.repos.entries.findById(entry.entryId))!.status).toBe(3);
    const [record] = await audits('entry.cancel');
    expect(record).toMatchObject({ target: entry.entryNo });
    expect(JSON.parse(record!.before!)).toMatchObject({ status: 0, holdsPlace: true });
    expect((await outbox()).some((m) => m.destination === runner.phone && m.subject.includes('cancelled'))).toBe(true);
    const again = await call('owner', 'POST', `/${entry.entryNo}/cancel`, { reason: '重复报名' });
    expect(again.json()).toMatchObject({ code: 400, msgCode: 'entryNotCancellable' });
  });

  it('transfers only where the race allows it, to another person checked by the form', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const off = await call('service', 'POST', `/${entry.entryNo}/transfer`, { reason: '转让', values: person() });
    expect(off.json()).toMatchObject({ code: 400, msgCode: 'entryTransferOff' });
    const race = (await app.repos.races.findById(DEMO_RACE_ID))!;
    await saveDemoRace(app, clock.now(), { entry: { ...race.entry!, allowTransfer: true } });
    try {
      const same = await call('service', 'POST', `/${entry.entryNo}/transfer`, {
        reason: '转让',
        values: person({ name: entry.name, certificateNumber: entry.certNumber, birthday: entry.birthday }),
      });
      expect(same.json()).toMatchObject({ code: 400, msgCode: 'entryTransferSamePerson' });
      const next = person();
      const res = await call('service', 'POST', `/${entry.entryNo}/transfer`, { reason: '伤病转让', values: next });
      expect(res.json(), res.body).toMatchObject({ code: 0 });
      const moved = (await app.repos.entries.findById(entry.entryId))!;
      expect(moved).toMatchObject({ name: next.name, certNumber: next.certificateNumber, status: 1, holdsPlace: true });
      expect(await app.repos.entries.liveByCert(DEMO_RACE_ID, app.repos.raceCenter.certHash(entry.certNumber))).toBe(
        undefined,
      );
      const events = (await app.repos.entries.events([entry.entryId])).get(entry.entryId)!;
      expect(events.at(-1)).toMatchObject({ step: 'transferred', actor: `staff:${sessions.get('service')!.id}` });
      expect((await audits('entry.transfer'))[0]).toMatchObject({ target: entry.entryNo });
    } finally {
      await saveDemoRace(app, clock.now(), { entry: race.entry });
    }
  });

  it('records an offline payment for the order’s whole amount: paid as a notification pays it', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await unpaidEntry(app, runner, clock.now());
    const url = `/${entry.entryNo}/offline-payment`;
    const base = { reason: '现场现金缴费', method: 'cash', reference: 'R-0001' };
    expect((await call('finance', 'POST', url, { ...base, amountFen: 1 })).json()).toMatchObject({
      code: 400,
      msgCode: 'entryAmountMismatch',
      msgParams: { amount: '80.00' },
    });
    expect((await call('finance', 'POST', url, { ...base, method: 'gold', amountFen: 8000 })).json()).toMatchObject({
      code: 400,
      msgCode: 'entryPaymentMethod',
    });
    expect((await call('finance', 'POST', url, { ...base, reference: '', amountFen: 8000 })).json()).toMatchObject({
      code: 400,
      msgCode: 'entryReferenceInvalid',
    });
    const res = await call('finance', 'POST', url, { ...base, amountFen: entry.feeFen });
    expect(res.json(), res.body).toMatchObject({ code: 0, data: { orderNo: entry.orderNo, amountFen: 8000 } });
    expect((await app.repos.orders.findByNo(entry.orderNo))!).toMatchObject({ status: 3, paidFen: 8000 });
    expect((await app.repos.entries.findById(entry.entryId))!.status).toBe(1);
    const payment = (await app.repos.payments.paidOf((await app.repos.orders.findByNo(entry.orderNo))!.id))!;
    expect(payment).toMatchObject({ provider: 'offline:cash', tradeNo: 'R-0001', status: 'paid' });
    const events = (await app.repos.entries.events([entry.entryId])).get(entry.entryId)!;
    expect(events.at(-1)).toMatchObject({ step: 'paid', actor: `staff:${sessions.get('finance')!.id}` });
    expect((await outbox()).some((m) => m.destination === runner.phone && m.subject.includes('Payment received'))).toBe(
      true,
    );
    expect((await audits('entry.payOffline'))[0]).toMatchObject({ target: entry.entryNo });
    const twice = await call('finance', 'POST', url, { ...base, amountFen: entry.feeFen });
    expect(twice.json()).toMatchObject({ code: 400, msgCode: 'entryNoUnpaidOrder' });
    // Paid offline: no provider can give the money back; it goes back by hand, recorded at once.
    expect((await call('finance', 'POST', `/${entry.entryNo}/refund`, { reason: '退赛' })).json()).toMatchObject({
      code: 0,
      data: { offline: true, pending: 0 },
    });
  });

  it('refunds part of a paid order through the provider, once per order', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const url = `/${entry.entryNo}/refund`;
    expect((await call('finance', 'POST', url, { reason: '差价', amountFen: 8001 })).json()).toMatchObject({
      code: 400,
      msgCode: 'entryRefundAmount',
      msgParams: { max: '80.00' },
    });
    const res = await call('finance', 'POST', url, { reason: '组委会补偿差价', amountFen: 3000 });
    expect(res.json(), res.body).toMatchObject({
      code: 0,
      data: { amountFen: 3000, whole: false, refundedFen: 3000, pending: 0 },
    });
    const order = (await app.repos.orders.findByNo(entry.orderNo))!;
    expect(order).toMatchObject({ status: 3, refundedFen: 3000 });
    expect((await app.repos.entries.findById(entry.entryId))!.status).toBe(1);
    expect((await call('finance', 'POST', url, { reason: '再退', amountFen: 100 })).json()).toMatchObject({
      code: 400,
      msgCode: 'entryRefundDone',
    });
    expect((await outbox()).some((m) => m.destination === runner.phone && m.subject.includes('Refund'))).toBe(true);
    expect((await audits('entry.refund'))[0]).toMatchObject({ target: entry.entryNo });
  });

  it('refunds a paid entry whole: the place given back, refunded once the provider confirms', async () => {
    const entry = await wonPaidEntry(app, await newRunner(app, clock.now()), clock.now());
    const taken = await tenK();
    const res = await call('owner', 'POST', `/${entry.entryNo}/refund`, { reason: '伤病退赛' });
    expect(res.json(), res.body).toMatchObject({ code: 0, data: { amountFen: 8000, whole: true, refundedFen: 8000 } });
    expect(await tenK()).toBe(taken - 1);
    expect((await app.repos.entries.findById(entry.entryId))!.status).toBe(5);
    expect((await app.repos.orders.findByNo(entry.orderNo))!).toMatchObject({ status: 5, refundedFen: 8000 });
    const steps = (await app.repos.entries.events([entry.entryId])).get(entry.entryId)!.map((e) => e.step);
    expect(steps.slice(-2)).toEqual(['organiserRefund', 'refunded']);
  });

  it('assigns and changes a bib, unique in the race, only to a registered entry', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now());
    const other = await wonPaidEntry(app, await newRunner(app, clock.now()), clock.now());
    const unpaid = await unpaidEntry(app, await newRunner(app, clock.now()), clock.now());
    const bib = (no: string, value: string, role: StaffRole = 'service') =>
      call(role, 'POST', `/${no}/bib`, { reason: '补发号码', bib: value }).then((r) => r.json());
    expect(await bib(entry.entryNo, '00000')).toMatchObject({ code: 400, msgCode: 'entryBibInvalid' });
    expect(await bib(entry.entryNo, 'A-1')).toMatchObject({ code: 400, msgCode: 'entryBibInvalid' });
    expect(await bib(unpaid.entryNo, 'K90001')).toMatchObject({ code: 400, msgCode: 'entryNotRegistered' });
    expect(await bib(entry.entryNo, 'k90001')).toMatchObject({ code: 0, data: { bib: 'K90001', changed: true } });
    expect(await bib(other.entryNo, 'K90001')).toMatchObject({
      code: 400,
      msgCode: 'entryBibTaken',
      msgParams: { bib: 'K90001' },
    });
    expect(await bib(entry.entryNo, 'K90002')).toMatchObject({ code: 0, data: { bib: 'K90002' } });
    expect(await bib(other.entryNo, 'K90001')).toMatchObject({ code: 0 });
    expect((await app.repos.entries.findById(entry.entryId))!.bib).toBe('K90002');
    const [record] = await audits('entry.bib');
    expect(record).toMatchObject({ target: other.entryNo });
    expect((await outbox()).some((m) => m.destination === runner.phone && m.body.includes('K90002'))).toBe(true);
  });

  it('keeps the audit chain whole through every action', async () => {
    expect(await verifyAuditChain(app.repos)).toMatchObject({ ok: true });
  });
});
