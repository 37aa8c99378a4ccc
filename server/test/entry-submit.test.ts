/**
 * Sign-up submission and its calls (issue 14 §1, §2; services/entry/submit/, routes/entry/index.ts): the
 * window, items and channels, the form check per participant, age on race day, one registration per person
 * per race, places never oversold under parallel submissions, code uses never over their limit, idempotent
 * resubmission, orders by model, entryInfo, teams, myEntries and orderGet. Runs on both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings, EntrySubmitAnswer } from '#contract/entry';
import { messageText } from '#contract/messages';
import { formatRaceTime } from '#contract/race-clock';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import { sql } from '../src/db/engine.ts';
import { validateRaceInfo } from '../src/db/race-schema.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { newEntryNo, type SubmissionWrite } from '../src/db/entries-repository.ts';
import { newOrderNo } from '../src/db/orders-repository.ts';
import {
  buildTestApp,
  fakeClock,
  FIXTURE_RACE_ID,
  ON_POSTGRES,
  passedSlider,
  removeTempDirs,
  tempDir,
} from './helpers.ts';

const RACE = FIXTURE_RACE_ID;
// The app's clock stands at 2025-06-16 10:00 China time; the race is on 2025-11-02.
const OPEN = { signUpStartTime: '2025-06-01 10:00:00', signUpEndTime: '2025-07-01 18:00:00', signUpOpenStatus: 1 };
const name = (zh: string, en = zh) => ({ zh, en });
const ENTRY: EntrySettings = {
  allowMultiple: true,
  items: [
    {
      code: 'FC',
      name: name('10公里', '10 km'),
      capacity: 8,
      feeFen: 8000,
      model: 'firstCome',
      minAge: 12,
      maxAge: 70,
      paymentMinutes: 30,
      charity: { capacity: 2, feeFen: 300000 },
    },
    {
      code: 'BAL',
      name: name('马拉松', 'Marathon'),
      capacity: 100,
      feeFen: 20000,
      model: 'ballot',
      minAge: 20,
      teams: { minSize: 2, maxSize: 3 },
    },
    { code: 'PTD', name: name('半程', 'Half'), capacity: 100, feeFen: 15000, model: 'payThenDraw' },
    { code: 'FREE', name: name('亲子跑', 'Family run'), capacity: 10, feeFen: 0, model: 'firstCome' },
    { code: 'VIP', name: name('邀请', 'Invited'), capacity: 10, feeFen: 5000, model: 'firstCome', codeOnly: true },
  ],
};

const FORM = {
  version: 1,
  raceId: RACE,
  channel: 'public',
  title: name('报名信息', 'Entry form'),
  fields: [
    {
      key: 'item',
      type: 'radio',
      label: name('项目', 'Item'),
      required: true,
      options: ENTRY.items.map((item) => ({ value: item.code, label: item.name })),
    },
    { key: 'name', type: 'input', label: name('姓名', 'Name'), required: true },
    { key: 'gender', type: 'gender', label: name('性别', 'Gender'), required: true },
    { key: 'certificateType', type: 'certificateType', label: name('证件类型', 'Type'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: name('证件号码', 'Number'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: name('出生日期', 'Birthday'), required: true },
    { key: 'phone', type: 'phone', label: name('手机', 'Phone'), required: true },
  ],
};

const clock = fakeClock();
const dataDir = tempDir();
let app: FastifyInstance;
let baseRace: RaceInfo;
let passwordHash: string;
let phoneSeq = 0;
let personSeq = 0;
let keySeq = 0;

interface Account {
  id: number;
  token: string;
}

async function account(): Promise<Account> {
  phoneSeq += 1;
  const phone = `139${String(phoneSeq).padStart(8, '0')}`;
  const id = await app.repos.users.create({ phone, passwordHash }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 3_600_000, clock.now());
  return { id, token };
}

/** A new person's form values (a valid ID card number of their birthday), born `birthday`. */
function person(item: string, birthday = '1990-05-20', extra: Record<string, unknown> = {}) {
  personSeq += 1;
  const seq = String(personSeq).padStart(3, '0');
  return {
    item,
    name: `跑者${personSeq}`,
    gender: 1,
    certificateType: 1,
    certificateNumber: idCard(`320102${birthday.replaceAll('-', '')}${seq}`),
    birthday,
    phone: `1380000${String(personSeq).padStart(4, '0')}`,
    ...extra,
  };
}

const newKey = () => `key-${++keySeq}-${Date.now()}`;

/** A submission with a passed slider check of its own (as the SPA sends it). */
async function submit(
  who: Account,
  body: { itemCode: string; channel?: string; code?: string; participants: unknown[]; idempotencyKey?: string },
) {
  return app.inject({
    method: 'POST',
    url: API_PATHS.entrySubmit,
    headers: { token: who.token },
    payload: { raceId: RACE, channel: 'public', idempotencyKey: newKey(), captcha: await passedSlider(app), ...body },
  });
}

async function saveRace(changes: Partial<RaceInfo> = {}) {
  const race = { ...baseRace, ...changes };
  expect(validateRaceInfo(race)).toMatchObject({ ok: true });
  await app.repos.races.save(race, clock.now());
  expect(await app.repos.entries.syncPlaces(RACE, race.entry)).toEqual({ ok: true });
}

const place = async (itemCode: string, pool = 'main') =>
  (await app.repos.entries.places(RACE)).find((p) => p.itemCode === itemCode && p.pool === pool)!;

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off' }, now: clock.now });
  passwordHash = await hashPassword('Secret123');
  baseRace = { ...(await app.repos.races.findById(RACE))!, ...OPEN, entry: ENTRY };
  await saveRace();
  await publishRegistrationForm({
    repos: app.repos,
    raceId: RACE,
    channel: 'public',
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: clock.now(),
  });
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('entry settings', () => {
  it('validates race.json entry: codes, models, bounds, teams, charity, payment minutes', () => {
    const bad = (entry: unknown) => validateRaceInfo({ ...baseRace, entry });
    const item = ENTRY.items[0]!;
    expect(bad(ENTRY)).toMatchObject({ ok: true });
    expect(bad({ ...ENTRY, items: [item, item] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, code: 'a b' }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, capacity: -1 }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, feeFen: 1.5 }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, model: 'raffle' }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, minAge: 30, maxAge: 20 }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, teams: { minSize: 1, maxSize: 3 } }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, teams: { minSize: 5, maxSize: 3 } }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, charity: { capacity: 1 } }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, paymentMinutes: 0 }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, items: [{ ...item, paymentMinutes: 10081 }] })).toMatchObject({ ok: false });
    expect(bad({ ...ENTRY, unknown: 1 })).toMatchObject({ ok: false });
  });

  it('syncs places when a race is saved: capacity follows, taken kept, a capacity below taken refused', async () => {
    expect(await place('FC')).toMatchObject({ capacity: 8, taken: 0 });
    expect(await place('FC', 'charity')).toMatchObject({ capacity: 2, taken: 0 });
    expect(await app.repos.entries.takePlace(RACE, 'PTD', 'main', 3)).toBe(true);
    const items = ENTRY.items.map((i) => (i.code === 'PTD' ? { ...i, capacity: 2 } : i));
    const refused = await app.repos.entries.syncPlaces(RACE, { ...ENTRY, items });
    expect(refused).toMatchObject({ ok: false });
    expect(!refused.ok && refused.problem).toContain('PTD');
    expect(await place('PTD')).toMatchObject({ capacity: 100, taken: 3 });
    await saveRace({
      entry: { ...ENTRY, items: ENTRY.items.map((i) => (i.code === 'PTD' ? { ...i, capacity: 50 } : i)) },
    });
    expect(await place('PTD')).toMatchObject({ capacity: 50, taken: 3 });
    await app.db.run(sql`UPDATE entry_places SET taken = 0 WHERE race_id = ${RACE} AND item_code = 'PTD'`);
    await saveRace();
    expect(await place('PTD')).toMatchObject({ capacity: 100, taken: 0 });
  });
});

describe('entrySubmit', () => {
  it('takes a first-come place and makes an order to pay within the payment minutes', async () => {
    const who = await account();
    const runner = person('FC');
    const res = await submit(who, { itemCode: 'FC', participants: [runner] });
    expect(res.json().code, res.body).toBe(0);
    expect(res.body).not.toContain(runner.certificateNumber);
    expect(res.body).not.toContain(runner.phone);
    const answer = res.json().data as EntrySubmitAnswer;
    expect(answer.entries).toHaveLength(1);
    const [entry] = answer.entries;
    expect(entry).toMatchObject({ itemCode: 'FC', channel: 'public', model: 'firstCome', status: 0 });
    expect(entry!.entryNo).toMatch(/^E[A-Z0-9]{8}$/);
    expect(entry!.certificateNumber).toMatch(/^\d{4}\*+\d{3}[\dX]$/);
    expect(entry!.timeline.map((t) => t.step)).toEqual(['submitted', 'orderCreated']);
    expect(answer.order).toMatchObject({
      status: 1,
      amountFen: 8000,
      paidFen: 0,
      deadlineAt: clock.now() + 30 * 60_000,
      lines: [{ entryNo: entry!.entryNo, amountFen: 8000, itemName: { zh: '10公里', en: '10 km' } }],
    });
    expect(answer.order!.orderNo).toMatch(/^RS20250616\d{8}$/);
    expect(answer.order!.lines[0]!.subOrderNo).toBe(`${answer.order!.orderNo}-1`);
    expect(await place('FC')).toMatchObject({ taken: 1 });
    // Stored encrypted: neither the certificate number nor the phone in the row.
    const row = await app.db.get<Record<string, unknown>>(
      sql`SELECT * FROM entries WHERE entry_no = ${entry!.entryNo}`,
    );
    expect(JSON.stringify(row)).not.toContain(runner.certificateNumber);
    expect(JSON.stringify(row)).not.toContain(runner.phone);
    expect(String(row!.cert_enc)).toMatch(/^v1\./);
    expect(String(row!.values_enc)).not.toContain('跑者');
  });

  it('answers the same key with the first answer and changes nothing', async () => {
    const who = await account();
    const idempotencyKey = newKey();
    const p = person('FC');
    const first = await submit(who, { itemCode: 'FC', participants: [p], idempotencyKey });
    expect(first.json().code, first.body).toBe(0);
    const taken = (await place('FC')).taken;
    const again = await submit(who, { itemCode: 'FC', participants: [p], idempotencyKey });
    expect(again.json()).toEqual(first.json());
    const parallel = await Promise.all(
      [1, 2, 3].map(() => submit(who, { itemCode: 'FC', participants: [p], idempotencyKey })),
    );
    for (const res of parallel) expect(res.json()).toEqual(first.json());
    expect((await place('FC')).taken).toBe(taken);
  });

  it('tells the runner once that the submission is accepted, with the order to pay and its deadline', async () => {
    const who = await account();
    const phone = (await app.db.get<{ phone: string }>(sql`SELECT phone FROM users WHERE id = ${who.id}`))!.phone;
    const idempotencyKey = newKey();
    // A pay-then-draw item: an order to pay, and no place taken (the place counts of later tests stay).
    const p = person('PTD');
    const first = await submit(who, { itemCode: 'PTD', participants: [p], idempotencyKey });
    expect(first.json().code, first.body).toBe(0);
    expect((await submit(who, { itemCode: 'PTD', participants: [p], idempotencyKey })).json()).toEqual(first.json());
    const answer = first.json().data as EntrySubmitAnswer;
    const messages = await app.db.all<{ subject: string; body: string }>(
      sql`SELECT subject, body FROM outbox WHERE destination = ${phone}`,
    );
    expect(messages).toHaveLength(1);
    const { body } = messages[0]!;
    const { entryNo } = answer.entries[0]!;
    const { orderNo, deadlineAt } = answer.order!;
    const deadline = formatRaceTime(deadlineAt!, undefined, raceTimeZone(baseRace));
    expect(body).toContain(`半程 报名号 ${entryNo}`);
    expect(body).toContain(`请在 ${deadline} 前支付订单 ${orderNo}（¥150.00）`);
    expect(body).toContain(`Half entry ${entryNo}`);
    expect(body).toContain(`Pay order ${orderNo} (CNY 150.00) before ${deadline}`);
  });

  it('answers parallel first submissions of one key with one answer, and keeps one entry', async () => {
    // None of them finds the key answered when it starts: they meet in the key's lock (step by step) or in
    // the entries' unique index (PostgreSQL's one statement), and the later ones answer the first's answer.
    const who = await account();
    const idempotencyKey = newKey();
    const p = person('PTD');
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => submit(who, { itemCode: 'PTD', participants: [p], idempotencyKey })),
    );
    expect(answers[0]!.json().code, answers[0]!.body).toBe(0);
    for (const res of answers) expect(res.json()).toEqual(answers[0]!.json());
    const kept = await app.db.get<{ entries: number; orders: number }>(sql`
      SELECT (SELECT count(*) FROM entries WHERE user_id = ${who.id}) AS entries,
        (SELECT count(*) FROM orders WHERE user_id = ${who.id}) AS orders`);
    expect(kept).toEqual({ entries: 1, orders: 1 });
  });

  it('registers a person once when several accounts submit them at the same moment', async () => {
    const accounts = await Promise.all([1, 2, 3].map(() => account()));
    const p = person('PTD');
    const answers = await Promise.all(accounts.map((who) => submit(who, { itemCode: 'PTD', participants: [p] })));
    expect(answers.filter((res) => res.json().code === 0)).toHaveLength(1);
    for (const res of answers.filter((r) => r.json().code !== 0)) {
      expect(res.json()).toMatchObject({ code: 400, msgCode: 'alreadyRegistered' });
    }
    const orders = await app.db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM orders WHERE user_id IN (${sql.join(accounts.map((a) => a.id))})`,
    );
    expect(Number(orders!.n)).toBe(1);
  });

  // The one writer of entries (EntriesRepository.writeSubmission) travels two ways: one statement on
  // PostgreSQL, one statement per table in a transaction on SQLite. Both ways run here on PostgreSQL, the second
  // on SQLite, with the same expectations: a guard (SUBMISSION_GUARDS) that drifts between them fails here.
  it.each(ON_POSTGRES ? ['one statement', 'steps'] : ['steps'])(
    'writes a submission all or nothing, each guard answering the same whichever way it is written (%s)',
    async (way) => {
      const inSteps = way === 'steps';
      const who = await account();
      const first = await submit(who, { itemCode: 'PTD', participants: [person('PTD')] });
      const takenNo = first.json().data.entries[0].entryNo as string;
      const takenOrderNo = first.json().data.order.orderNo as string;
      const counts = async () =>
        app.db.get<Record<string, number>>(sql`
          SELECT (SELECT count(*) FROM entries) AS entries, (SELECT count(*) FROM entry_events) AS events,
            (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM order_lines) AS lines,
            (SELECT count(*) FROM submissions) AS saved, (SELECT count(*) FROM outbox) AS messages,
            (SELECT coalesce(sum(used), 0) FROM invitation_codes) AS used,
            (SELECT sum(taken) FROM entry_places WHERE race_id = ${RACE}) AS taken`);
      let n = 0;
      /** A new person's write of one FREE place, with an order to pay and a message; `change` on top. */
      const write = (change: Partial<SubmissionWrite> = {}): SubmissionWrite => {
        n += 1;
        const orderNo = newOrderNo(clock.now());
        return {
          userId: who.id,
          idempotencyKey: `writer-${way}-${n}`,
          answerJson: '{"entries":[],"order":null}',
          now: clock.now(),
          entry: {
            raceId: RACE,
            itemCode: 'FREE',
            channel: 'public',
            userId: who.id,
            status: 0,
            holdsPlace: true,
            feeFen: 8000,
          },
          people: [
            {
              entryNo: newEntryNo(),
              name: '写入',
              gender: 1,
              birthday: '1990-05-20',
              certType: 1,
              certHash: `writer-${way}-${n}`,
              certNumber: '110105199005200011',
              phone: '13800009999',
              values: {},
            },
          ],
          steps: ['submitted', 'orderCreated'],
          order: {
            orderNo,
            subOrderNos: [`${orderNo}-1`],
            amountFen: 8000,
            deadlineAt: clock.now() + 1_800_000,
            paidAt: null,
          },
          usesCode: false,
          takesPlaces: 'main',
          account: { lock: `entry-account:${RACE}:${who.id}`, limit: 10 },
          message: {
            channel: 'sms',
            destination: '13900000000',
            subject: 's',
            body: 'b',
            dedupeKey: `writer-${way}-${n}`,
          },
          ...change,
        };
      };
      const writes = (input: SubmissionWrite) => app.repos.entries.writeSubmission(input, { inSteps });
      const kept = async (input: SubmissionWrite, expected: string) => {
        const before = await counts();
        expect(await writes(input)).toBe(expected);
        expect(await counts()).toEqual(before);
      };
      const onePerson = write().people[0]!;

      // Numbers taken meanwhile (the entry's, the order's): nothing is written.
      await kept(write({ people: [{ ...onePerson, entryNo: takenNo }] }), 'numberClash');
      const clash = write();
      await kept({ ...clash, order: { ...clash.order!, orderNo: takenOrderNo } }, 'numberClash');
      // No places' row to take from (the item has none): the entry, order and answer written first are undone.
      await kept(write({ entry: { ...write().entry, itemCode: 'NOPOOL' } }), 'noPlaces');

      // Written: every row of it, the place taken.
      const before = await counts();
      const written = write();
      expect(await writes(written)).toBe('written');
      const one = (key: string) => Number(before![key]) + 1;
      expect(await counts()).toEqual({
        ...before,
        entries: one('entries'),
        events: Number(before!.events) + 2,
        orders: one('orders'),
        lines: one('lines'),
        saved: one('saved'),
        messages: one('messages'),
        taken: one('taken'),
      });
      // The same key again; the same person by another key; the account at its limit.
      await kept({ ...write(), idempotencyKey: written.idempotencyKey }, 'answered');
      await kept(write({ people: written.people.map((p) => ({ ...p, entryNo: newEntryNo() })) }), 'personLive');
      const live = await app.db.get<{ n: number }>(
        sql`SELECT count(*) AS n FROM entries WHERE user_id = ${who.id} AND status IN (0, 1, 4)`,
      );
      await kept(
        write({ account: { lock: `entry-account:${RACE}:${who.id}`, limit: Number(live!.n) } }),
        'accountFull',
      );

      // A team of one member at most: its first member written, the second refused.
      const team = await app.repos.entries.createTeam({
        raceId: RACE,
        itemCode: 'BAL',
        name: `writer ${way}`,
        captainUserId: who.id,
        minSize: 2,
        maxSize: 1,
        now: clock.now(),
      });
      const member = (): SubmissionWrite =>
        write({
          entry: { ...write().entry, itemCode: 'BAL', channel: 'team', teamId: team.id, holdsPlace: false },
          order: undefined,
          takesPlaces: undefined,
          team: { lock: `entry-team:${team.id}`, maxSize: 1 },
        });
      expect(await writes(member())).toBe('written');
      await kept(member(), 'teamFull');

      // A code of one use: used once, then used up.
      const codeText = `WRITER${way === 'steps' ? 'S' : 'O'}`;
      expect(
        await app.repos.entries.insertCode({
          raceId: RACE,
          code: codeText,
          itemCode: 'VIP',
          kind: 'multi',
          maxUses: 1,
          now: clock.now(),
        }),
      ).toBe(true);
      const code = (await app.repos.entries.findCode(RACE, codeText))!;
      const byCode = () =>
        write({ entry: { ...write().entry, itemCode: 'VIP', channel: 'code', codeId: code.id }, usesCode: true });
      expect(await writes(byCode())).toBe('written');
      await kept(byCode(), 'codeUsedUp');

      // An order of 0 fen is written paid, with the entry's status and steps as the plan gives them.
      const free = write({
        entry: { ...write().entry, status: 1, feeFen: 0 },
        steps: ['submitted', 'orderCreated', 'paid'],
      });
      expect(await writes({ ...free, order: { ...free.order!, amountFen: 0, paidAt: clock.now() } })).toBe('written');
      const paid = await app.db.get(sql`
        SELECT o.status, o.paid_at, o.settled_at, e.status AS entry_status,
          (SELECT count(*) FROM entry_events v WHERE v.entry_id = e.id) AS steps
        FROM orders o JOIN order_lines l ON l.order_id = o.id JOIN entries e ON e.id = l.entry_id
        WHERE o.order_no = ${free.order!.orderNo}`);
      expect(paid).toEqual({ status: 3, paid_at: clock.now(), settled_at: clock.now(), entry_status: 1, steps: 3 });
    },
  );

  it('refuses a second registration of the same person, across accounts and within one submission', async () => {
    const [a, b] = [await account(), await account()];
    const p = person('BAL');
    expect((await submit(a, { itemCode: 'BAL', participants: [p] })).json().code).toBe(0);
    const other = await submit(b, { itemCode: 'PTD', participants: [{ ...p, item: 'PTD' }] });
    expect(other.json()).toMatchObject({
      code: 400,
      msg: 'The user has already registered, please do not submit again',
      msgCode: 'alreadyRegistered',
      data: { fields: { '0.certificateNumber': { code: 'alreadyRegistered' } } },
    });
    const q = person('PTD');
    const twice = await submit(b, { itemCode: 'PTD', participants: [q, { ...q, name: '别人' }] });
    expect(twice.json()).toMatchObject({ code: 400, msgCode: 'alreadyRegistered' });
    expect(twice.json().data.fields['1.certificateNumber']).toEqual({ code: 'alreadyRegistered' });
  });

  it('registers several people only where the race allows it, up to the limit', async () => {
    const who = await account();
    await saveRace({ entry: { ...ENTRY, allowMultiple: false } });
    const res = await submit(who, { itemCode: 'BAL', participants: [person('BAL'), person('BAL')] });
    expect(res.json()).toMatchObject({
      code: 400,
      msg: 'This event project does not support registering for multiple people',
      msgCode: 'noGroupRegistration',
    });
    await saveRace();
    const many = Array.from({ length: 11 }, () => person('BAL'));
    expect((await submit(who, { itemCode: 'BAL', participants: many })).json()).toMatchObject({
      code: 400,
      msgCode: 'entryTooManyPeople',
    });
    const two = await submit(who, { itemCode: 'BAL', participants: [person('BAL'), person('BAL')] });
    expect(two.json().code, two.body).toBe(0);
    // A ballot item: the entries wait for the draw, no order, no place.
    expect(two.json().data).toMatchObject({ order: null, entries: [{ status: 0, model: 'ballot' }, { status: 0 }] });
  });

  it('makes a pay-then-draw order without a place, and pays a 0 fen order at once', async () => {
    const who = await account();
    const ptd = await submit(who, { itemCode: 'PTD', participants: [person('PTD'), person('PTD')] });
    expect(ptd.json().data.order).toMatchObject({ status: 1, amountFen: 30000, deadlineAt: clock.now() + 15 * 60_000 });
    expect((await place('PTD')).taken).toBe(0);
    const free = await submit(who, { itemCode: 'FREE', participants: [person('FREE')] });
    expect(free.json().data.order).toMatchObject({ status: 3, amountFen: 0, deadlineAt: null, paidAt: clock.now() });
    expect(free.json().data.entries[0]).toMatchObject({ status: 1 });
    expect(free.json().data.entries[0].timeline.map((t: { step: string }) => t.step)).toEqual([
      'submitted',
      'orderCreated',
      'paid',
    ]);
    // The answers are built from the rows as planned, not read back: the account reads the same afterwards.
    const mine = (await app.inject({ method: 'GET', url: API_PATHS.myEntries, headers: { token: who.token } })).json()
      .data as { entries: { entryNo: string }[]; orders: { orderNo: string }[] };
    for (const answer of [ptd.json().data, free.json().data] as EntrySubmitAnswer[]) {
      for (const entry of answer.entries) expect(mine.entries.find((e) => e.entryNo === entry.entryNo)).toEqual(entry);
      expect(mine.orders.find((o) => o.orderNo === answer.order!.orderNo)).toEqual(answer.order);
    }
  });

  it('refuses outside the window; a valid code still works while public entry is closed', async () => {
    const who = await account();
    await app.repos.entries.insertCode({
      raceId: RACE,
      code: 'LATECODE1',
      itemCode: 'FC',
      kind: 'multi',
      maxUses: 5,
      now: clock.now(),
    });
    await saveRace({ signUpStartTime: '2025-07-01 10:00:00', signUpEndTime: '2025-07-10 10:00:00' });
    expect((await submit(who, { itemCode: 'FC', participants: [person('FC')] })).json()).toMatchObject({
      code: 400,
      msgCode: 'entryNotOpen',
    });
    await saveRace({ signUpStartTime: '2025-05-01 10:00:00', signUpEndTime: '2025-06-01 10:00:00' });
    expect((await submit(who, { itemCode: 'FC', participants: [person('FC')] })).json()).toMatchObject({
      msgCode: 'entryClosed',
    });
    await saveRace({ signUpOpenStatus: 0 });
    expect((await submit(who, { itemCode: 'FC', participants: [person('FC')] })).json()).toMatchObject({
      msgCode: 'entryClosed',
    });
    const byCode = await submit(who, {
      itemCode: 'FC',
      channel: 'code',
      code: 'latecode1',
      participants: [person('FC')],
    });
    expect(byCode.json().code, byCode.body).toBe(0);
    expect(byCode.json().data.entries[0]).toMatchObject({ channel: 'code' });
    await saveRace();
  });

  it('checks the item, the item field and the age on race day', async () => {
    const who = await account();
    expect((await submit(who, { itemCode: 'NOPE', participants: [person('NOPE')] })).json()).toMatchObject({
      code: 404,
      msgCode: 'entryItemMissing',
    });
    expect((await submit(who, { itemCode: 'VIP', participants: [person('VIP')] })).json()).toMatchObject({
      msgCode: 'entryItemMissing',
    });
    const mismatch = await submit(who, { itemCode: 'FC', participants: [person('BAL')] });
    expect(mismatch.json()).toMatchObject({ code: 400, data: { fields: { '0.item': { code: 'entryItemMismatch' } } } });
    // Race day 2025-11-02: 20 on 2025-11-02 is old enough for BAL, a day younger is not.
    const young = await submit(who, { itemCode: 'BAL', participants: [person('BAL', '2005-11-03')] });
    expect(young.json()).toMatchObject({
      code: 400,
      msg: messageText('entryTooYoung', { min: 20 }),
      data: { fields: { '0.birthday': { code: 'entryTooYoung', params: { min: 20 } } } },
    });
    expect((await submit(who, { itemCode: 'BAL', participants: [person('BAL', '2005-11-02')] })).json().code).toBe(0);
    const old = await submit(who, { itemCode: 'FC', participants: [person('FC', '1950-01-01')] });
    expect(old.json().data.fields['0.birthday']).toEqual({ code: 'entryTooOld', params: { max: 70 } });
    const bad = await submit(who, { itemCode: 'PTD', participants: [person('PTD', '1990-01-01', { phone: '123' })] });
    expect(bad.json()).toMatchObject({ code: 400 });
    expect(Object.keys(bad.json().data.fields)).toEqual(['0.phone']);
    // One participant failing refuses the whole submission.
    const mixed = await submit(who, {
      itemCode: 'PTD',
      participants: [person('PTD'), person('PTD', '1990-01-01', { name: '' })],
    });
    expect(Object.keys(mixed.json().data.fields)).toEqual(['1.name']);
  });

  it('answers bad bodies with 400 envelopes, and 401 without login', async () => {
    const who = await account();
    const bodies: unknown[] = [
      {},
      { raceId: RACE },
      { raceId: RACE, itemCode: 'FC', channel: 'mail', participants: [{}], idempotencyKey: 'abcdefgh1' },
      { raceId: RACE, itemCode: 'FC', channel: 'public', participants: [], idempotencyKey: 'abcdefgh2' },
      { raceId: RACE, itemCode: 'FC', channel: 'public', participants: 'x', idempotencyKey: 'abcdefgh3' },
      { raceId: RACE, itemCode: 'FC', channel: 'public', participants: [1], idempotencyKey: 'abcdefgh4' },
      { raceId: RACE, itemCode: 'FC', channel: 'public', participants: [{}], idempotencyKey: 'short' },
      {
        raceId: RACE,
        itemCode: 'FC',
        channel: 'public',
        participants: [{ name: 5, birthday: [] }],
        idempotencyKey: 'abcdefgh5',
      },
      { raceId: 'no such race', itemCode: 'FC', channel: 'public', participants: [{}], idempotencyKey: 'abcdefgh6' },
    ];
    for (const payload of bodies) {
      const res = await app.inject({
        method: 'POST',
        url: API_PATHS.entrySubmit,
        headers: { token: who.token },
        payload: payload as object,
      });
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(res.json().code, res.body).toBe(400);
    }
    const missingRace = await submit(who, { itemCode: 'FC', participants: [{}] });
    expect(missingRace.json().code).toBe(400);
    const raw = await app.inject({
      method: 'POST',
      url: API_PATHS.entrySubmit,
      headers: { token: who.token, 'content-type': 'application/json' },
      payload: '{"raceId":',
    });
    expect(raw.statusCode).toBeLessThan(500);
    expect(raw.json().code).toBe(400);
    const anonymous = await app.inject({
      method: 'POST',
      url: API_PATHS.entrySubmit,
      payload: { raceId: RACE, itemCode: 'FC', channel: 'public', participants: [{}], idempotencyKey: 'abcdefgh7' },
    });
    expect(anonymous.json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
  });

  it('gives charity places from their own pool at their own fee', async () => {
    const who = await account();
    const first = await submit(who, { itemCode: 'FC', channel: 'charity', participants: [person('FC'), person('FC')] });
    expect(first.json().data.order).toMatchObject({ amountFen: 600000 });
    expect(await place('FC', 'charity')).toMatchObject({ taken: 2 });
    expect(
      (await submit(who, { itemCode: 'FC', channel: 'charity', participants: [person('FC')] })).json(),
    ).toMatchObject({
      msgCode: 'entryFull',
    });
    expect(
      (await submit(who, { itemCode: 'BAL', channel: 'charity', participants: [person('BAL')] })).json(),
    ).toMatchObject({
      msgCode: 'charityMissing',
    });
  });

  it('enters through an approved direct-pass application only', async () => {
    const who = await account();
    const p = person('BAL');
    expect((await submit(who, { itemCode: 'BAL', channel: 'direct', participants: [p] })).json()).toMatchObject({
      msgCode: 'directNotApproved',
    });
    const certHash = app.repos.raceCenter.certHash(p.certificateNumber);
    const id = await app.repos.directApplications.save({
      raceId: RACE,
      userId: who.id,
      status: 1,
      name: p.name,
      certHash,
      values: {},
      sizes: {},
      submittedAt: clock.now(),
      now: clock.now(),
    });
    expect(await app.repos.directApplications.review(id, { status: 2 }, clock.now())).toBe(true);
    const other = await submit(who, { itemCode: 'BAL', channel: 'direct', participants: [person('BAL')] });
    expect(other.json().data.fields['0.certificateNumber']).toEqual({ code: 'directNotApproved' });
    const taken = (await place('BAL')).taken;
    const res = await submit(who, { itemCode: 'BAL', channel: 'direct', participants: [p] });
    expect(res.json().code, res.body).toBe(0);
    // A guaranteed place in a ballot item: taken now, paid within the ballot's payment window.
    expect(res.json().data.order).toMatchObject({ amountFen: 20000, deadlineAt: clock.now() + 48 * 60 * 60_000 });
    expect((await place('BAL')).taken).toBe(taken + 1);
  });

  it('uses invitation codes: named for its person, item-bound, expired refused, codeOnly items by code', async () => {
    const who = await account();
    const named = person('VIP');
    const at = clock.now();
    await app.repos.entries.insertCode({
      raceId: RACE,
      code: 'NAMED0001',
      itemCode: 'VIP',
      kind: 'named',
      namedName: named.name,
      namedCertHash: app.repos.raceCenter.certHash(named.certificateNumber),
      maxUses: 1,
      now: at,
    });
    await app.repos.entries.insertCode({
      raceId: RACE,
      code: 'OLDCODE01',
      itemCode: 'VIP',
      kind: 'multi',
      maxUses: 9,
      expiresAt: at - 1,
      now: at,
    });
    const use = (code: string, p: Record<string, unknown>, itemCode = 'VIP') =>
      submit(who, { itemCode, channel: 'code', code, participants: [p] });
    expect((await use('NOPE00001', person('VIP'))).json()).toMatchObject({
      msg: 'The redemption code information does not exist',
      msgCode: 'redemptionCodeMissing',
    });
    expect((await use('OLDCODE01', person('VIP'))).json()).toMatchObject({ msgCode: 'redemptionCodeMissing' });
    expect((await use('NAMED0001', person('FC'), 'FC')).json()).toMatchObject({ msgCode: 'entryCodeItem' });
    expect((await use('NAMED0001', person('VIP'))).json().data.fields['0.certificateNumber']).toEqual({
      code: 'entryCodeNotYours',
    });
    const check = await app.inject({
      method: 'POST',
      url: API_PATHS.entryCodeCheck,
      headers: { token: who.token },
      payload: { raceId: RACE, code: 'named0001' },
    });
    expect(check.json().data).toMatchObject({
      code: 'NAMED0001',
      itemCode: 'VIP',
      usesLeft: 1,
      namedFor: expect.stringContaining('*'),
    });
    expect((await use('named0001', named)).json().code).toBe(0);
    expect((await use('NAMED0001', person('VIP'))).json()).toMatchObject({ msgCode: 'redemptionCodeMissing' });
    const used = await app.inject({
      method: 'POST',
      url: API_PATHS.entryCodeCheck,
      headers: { token: who.token },
      payload: { raceId: RACE, code: 'NAMED0001' },
    });
    expect(used.json()).toMatchObject({ code: 404, msgCode: 'redemptionCodeMissing' });
  });

  it('lets a 3-use code be used exactly 3 times by parallel submissions', async () => {
    await app.repos.entries.insertCode({
      raceId: RACE,
      code: 'THREE0001',
      itemCode: 'VIP',
      kind: 'multi',
      maxUses: 3,
      now: clock.now(),
    });
    const accounts = await Promise.all(Array.from({ length: 8 }, () => account()));
    const answers = await Promise.all(
      accounts.map((who) =>
        submit(who, { itemCode: 'VIP', channel: 'code', code: 'THREE0001', participants: [person('VIP')] }),
      ),
    );
    const codes = answers.map((res) => res.json().code);
    expect(codes.filter((c) => c === 0)).toHaveLength(3);
    expect(answers.filter((res) => res.json().msgCode === 'redemptionCodeMissing')).toHaveLength(5);
    expect((await app.repos.entries.findCode(RACE, 'THREE0001'))!.used).toBe(3);
  });

  it('never oversells: 20 parallel submissions for the last 5 places take exactly 5', async () => {
    // Conditional update (`taken + n <= capacity` in the UPDATE itself): on PostgreSQL the 20 transactions run
    // side by side (only the person's own lock is taken), so a read-then-write (SELECT taken, then UPDATE
    // taken = read + 1) would let several read the same `taken` and all write — more than 5 accepted and
    // taken above capacity; the database's CHECK does not catch it (taken ≤ capacity is not a constraint).
    const before = await place('FC');
    const left = before.capacity - before.taken;
    // Fill the item up to its last 5 places.
    const filler = await account();
    for (let i = 0; i < left - 5; i += 1) {
      expect((await submit(filler, { itemCode: 'FC', participants: [person('FC')] })).json().code).toBe(0);
    }
    expect(await place('FC')).toMatchObject({ taken: before.capacity - 5 });
    const accounts = await Promise.all(Array.from({ length: 20 }, () => account()));
    const answers = await Promise.all(
      accounts.map((who) => submit(who, { itemCode: 'FC', participants: [person('FC')] })),
    );
    const accepted = answers.filter((res) => res.json().code === 0);
    expect(accepted).toHaveLength(5);
    for (const res of answers.filter((r) => r.json().code !== 0)) {
      expect(res.json()).toMatchObject({ code: 400, msgCode: 'entryFull', msg: 'No places are left for this item' });
    }
    expect(await place('FC')).toMatchObject({ capacity: before.capacity, taken: before.capacity });
    const holding = await app.db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM entries WHERE race_id = ${RACE} AND item_code = 'FC' AND holds_place = 1 AND channel <> 'charity'`,
    );
    expect(Number(holding!.n)).toBe(before.capacity);
  });
});

describe('teams, entryInfo, myEntries and orders', () => {
  it('creates a team and takes members up to its size, team items only', async () => {
    const captain = await account();
    const create = (itemCode: string) =>
      app.inject({
        method: 'POST',
        url: API_PATHS.teamCreate,
        headers: { token: captain.token },
        payload: { raceId: RACE, itemCode, name: '运河跑团' },
      });
    expect((await create('PTD')).json()).toMatchObject({ msgCode: 'teamNotAllowed' });
    const team = (await create('BAL')).json().data;
    expect(team).toMatchObject({ itemCode: 'BAL', minSize: 2, maxSize: 3, members: [], isCaptain: true });
    const join = (who: Account, n: number, code = team.teamCode as string) =>
      submit(who, {
        itemCode: 'BAL',
        channel: 'team',
        code,
        participants: Array.from({ length: n }, () => person('BAL')),
      });
    expect((await join(captain, 1, 'TNOSUCH1')).json()).toMatchObject({ msgCode: 'teamMissing' });
    expect((await join(captain, 2)).json().code).toBe(0);
    const member = await account();
    expect((await join(member, 2)).json()).toMatchObject({ msgCode: 'teamFull' });
    const joined = await join(member, 1);
    expect(joined.json().data.entries[0]).toMatchObject({ channel: 'team', teamCode: team.teamCode });
    expect(joined.json().data.order).toBeNull();
    expect((await join(await account(), 1)).json()).toMatchObject({ msgCode: 'teamFull' });
    const seen = await app.inject({
      method: 'GET',
      url: `${API_PATHS.teamGet}?raceId=${RACE}&teamCode=${team.teamCode}`,
      headers: { token: member.token },
    });
    expect(seen.json().data).toMatchObject({ isCaptain: false });
    expect(seen.json().data.members).toHaveLength(3);
    expect(seen.json().data.members[0].maskedName).toContain('*');
  });

  it('answers entryInfo: window, public items, places left, cached 5 s', async () => {
    const res = await app.inject({ method: 'GET', url: `${API_PATHS.entryInfo}?raceId=${RACE}` });
    expect(res.headers['cache-control']).toBe('public, max-age=5');
    const info = res.json().data;
    expect(info).toMatchObject({
      raceId: RACE,
      windowState: 'open',
      allowMultiple: true,
      formChannel: 'public',
      now: clock.now(),
    });
    expect(info.items.map((i: { code: string }) => i.code)).toEqual(['FC', 'BAL', 'PTD', 'FREE']);
    expect(info.items[0]).toMatchObject({
      left: 0,
      paymentMinutes: 30,
      charity: { capacity: 2, left: 0, feeFen: 300000 },
    });
    expect(info.items[1]).toMatchObject({ left: null, teams: { minSize: 2, maxSize: 3 }, paymentMinutes: 2880 });
    const missing = await app.inject({ method: 'GET', url: `${API_PATHS.entryInfo}?raceId=nope` });
    expect(missing.json()).toMatchObject({ code: 404, msgCode: 'raceNotFound' });
  });

  it('lists the account entries with timelines and orders; an order only to its owner', async () => {
    const who = await account();
    const made = await submit(who, { itemCode: 'PTD', participants: [person('PTD')] });
    const orderNo = made.json().data.order.orderNo as string;
    const mine = await app.inject({ method: 'GET', url: API_PATHS.myEntries, headers: { token: who.token } });
    expect(mine.headers['cache-control']).toBe('no-store');
    expect(mine.json().data).toMatchObject({
      entries: [{ itemCode: 'PTD', orderNo, raceName: { zh: expect.any(String) } }],
      orders: [{ orderNo, status: 1 }],
      now: clock.now(),
    });
    const own = await app.inject({
      method: 'GET',
      url: `${API_PATHS.orderGet}?orderNo=${orderNo}`,
      headers: { token: who.token },
    });
    expect(own.json().data).toMatchObject({ orderNo, amountFen: 15000 });
    // The last 10 minutes before the deadline show "cancel soon".
    clock.advance(6 * 60_000);
    const soon = await app.inject({
      method: 'GET',
      url: `${API_PATHS.orderGet}?orderNo=${orderNo}`,
      headers: { token: who.token },
    });
    expect(soon.json().data.status).toBe(2);
    const other = await account();
    const theirs = await app.inject({
      method: 'GET',
      url: `${API_PATHS.orderGet}?orderNo=${orderNo}`,
      headers: { token: other.token },
    });
    expect(theirs.json()).toMatchObject({ code: 404, msgCode: 'orderNotFound' });
    const anonymous = await app.inject({ method: 'GET', url: API_PATHS.myEntries });
    expect(anonymous.json()).toMatchObject({ code: 401 });
  });

  it('guards status changes and place releases: a repeat changes nothing', async () => {
    const who = await account();
    const made = await submit(who, { itemCode: 'FREE', participants: [person('FREE')] });
    const entry = (await app.repos.entries.findByNo(made.json().data.entries[0].entryNo))!;
    const taken = (await place('FREE')).taken;
    expect(await app.repos.entries.releasePlace(entry.id)).toBe(true);
    expect(await app.repos.entries.releasePlace(entry.id)).toBe(false);
    expect((await place('FREE')).taken).toBe(taken - 1);
    expect(await app.repos.entries.setStatus(entry.id, [1], 3, 'cancelled', clock.now())).toBe(true);
    expect(await app.repos.entries.setStatus(entry.id, [1], 3, 'cancelled', clock.now())).toBe(false);
    expect(
      (await app.repos.entries.events([entry.id])).get(entry.id)!.filter((e) => e.step === 'cancelled'),
    ).toHaveLength(1);
    // Cancelled: the person may register again.
    const values = await app.repos.entries.valuesOf(entry.id);
    const again = await submit(who, { itemCode: 'FREE', participants: [values] });
    expect(again.json().code, again.body).toBe(0);
  });
});
