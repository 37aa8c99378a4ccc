/**
 * The entry limits against bots (issue 27 §1; docs/entry-limits.md): an account holds at most its own entry
 * plus `othersPerAccount` others in a race (exactly one where the race does not allow several people), counted
 * under the account's lock on both ways of writing, so that a burst of 1,000 submissions from one account ends
 * with at most that many; per-address and per-account rate limits on entrySubmit, generous enough per address
 * for 200 runners behind one NAT; the slider's pass on every submission; and a unique index met is answered
 * alreadyRegistered only for a real same-person clash. Runs on both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { peoplePerAccount, type EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { sql } from '../src/db/engine.ts';
import { newEntryNo } from '../src/db/entries-repository.ts';
import { newOrderNo } from '../src/db/orders-repository.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { createEntrySubmission } from '../src/services/entry/submit/index.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, passedSlider, removeTempDirs } from './helpers.ts';

const RACE = FIXTURE_RACE_ID;
const OPEN = { signUpStartTime: '2025-06-01 10:00:00', signUpEndTime: '2025-07-01 18:00:00', signUpOpenStatus: 1 };
const name = (zh: string, en = zh) => ({ zh, en });
const ENTRY: EntrySettings = {
  allowMultiple: true,
  othersPerAccount: 2,
  items: [
    // A ballot item (PostgreSQL writes it in one statement), a pay-first one (likewise, with an order) and a
    // free first-come one (paid at once: written step by step on both engines).
    { code: 'BAL', name: name('马拉松', 'Marathon'), capacity: 100_000, feeFen: 20000, model: 'ballot' },
    { code: 'PTD', name: name('半程', 'Half'), capacity: 100_000, feeFen: 15000, model: 'payThenDraw' },
    { code: 'FREE', name: name('亲子跑', 'Family run'), capacity: 100_000, feeFen: 0, model: 'firstCome' },
  ],
};
const FORM = {
  version: 1,
  raceId: RACE,
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
      label: name('证件号码', 'Number'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: name('出生日期', 'Birthday'), required: true },
    { key: 'phone', type: 'phone', label: name('手机', 'Phone'), required: true },
  ],
};

const clock = fakeClock();
let passwordHash: string;
let phoneSeq = 0;
let personSeq = 0;
let keySeq = 0;

interface Account {
  id: number;
  token: string;
}

/** A person of their own: a valid ID card number (a different birthday every 1,000 people). */
function person() {
  personSeq += 1;
  const day = new Date(Date.UTC(1960, 0, 1) + Math.floor(personSeq / 1000) * 86_400_000);
  const birthday = day.toISOString().slice(0, 10);
  return {
    name: `跑者${personSeq}`,
    gender: 1,
    certificateType: 1,
    certificateNumber: idCard(`330106${birthday.replaceAll('-', '')}${String(personSeq % 1000).padStart(3, '0')}`),
    birthday,
    phone: `1370000${String(personSeq % 10_000).padStart(4, '0')}`,
  };
}

/** An app on a fresh database with the race open for sign-up under `entry`. */
async function raceApp(env: Record<string, string>, entry: EntrySettings = ENTRY): Promise<FastifyInstance> {
  const app = await buildTestApp({ env, now: clock.now });
  const race: RaceInfo = { ...(await app.repos.races.findById(RACE))!, ...OPEN, entry };
  await app.repos.races.save(race, clock.now());
  expect(await app.repos.entries.syncPlaces(RACE, race.entry)).toEqual({ ok: true });
  await publishRegistrationForm({
    repos: app.repos,
    raceId: RACE,
    channel: 'public',
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: clock.now(),
  });
  return app;
}

async function account(app: FastifyInstance): Promise<Account> {
  phoneSeq += 1;
  const phone = `136${String(phoneSeq).padStart(8, '0')}`;
  const id = await app.repos.users.create({ phone, passwordHash }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 3_600_000, clock.now());
  return { id, token };
}

function submit(
  app: FastifyInstance,
  who: Account,
  body: { itemCode: string; participants: unknown[]; captcha?: unknown; idempotencyKey?: string },
) {
  return app.inject({
    method: 'POST',
    url: API_PATHS.entrySubmit,
    headers: { token: who.token },
    payload: { raceId: RACE, channel: 'public', idempotencyKey: `limits-${++keySeq}`, ...body },
  });
}

/** The account's live entries in the race. */
async function liveEntries(app: FastifyInstance, who: Account): Promise<number> {
  const row = await app.db.get<{ n: number }>(
    sql`SELECT count(*) AS n FROM entries WHERE user_id = ${who.id} AND race_id = ${RACE} AND status IN (0, 1, 4)`,
  );
  return Number(row?.n ?? 0);
}

/** Each answer as `HTTP status / envelope code / msgCode`, counted. */
function tally(answers: { statusCode: number; json: () => { code: number; msgCode?: string } }[]) {
  const counts: Record<string, number> = {};
  for (const res of answers) {
    const key = `${res.statusCode}/${res.json().code}/${res.json().msgCode ?? ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const apps: FastifyInstance[] = [];
let limited: FastifyInstance;
let unlimited: FastifyInstance;

beforeAll(async () => {
  passwordHash = await hashPassword('Secret123');
  limited = await raceApp({});
  unlimited = await raceApp({ RATE_LIMITS: 'off' });
  apps.push(limited, unlimited);
});

afterAll(async () => {
  for (const app of apps) await app.close();
  removeTempDirs();
});

describe('entries per account and race', () => {
  it('reads the rule from the race: its own plus othersPerAccount where several may be registered, else one', () => {
    expect(peoplePerAccount(ENTRY)).toBe(3);
    expect(peoplePerAccount({ allowMultiple: true })).toBe(5);
    expect(peoplePerAccount({ allowMultiple: false, othersPerAccount: 9 })).toBe(1);
    expect(peoplePerAccount(undefined)).toBe(1);
  });

  it('answers the limit in entryInfo', async () => {
    const res = await unlimited.inject({ method: 'GET', url: `${API_PATHS.entryInfo}?raceId=${RACE}` });
    expect(res.json().data).toMatchObject({ allowMultiple: true, peoplePerAccount: 3 });
  });

  it('ends a burst of 1,000 submissions from one account with at most its entries, the rest refused, none 500', async () => {
    // Rate limits off: every submission reaches the write at once, on both ways of writing (the ballot and
    // pay-first items in one statement on PostgreSQL, the free item step by step), each with a slider pass.
    const who = await account(unlimited);
    const items = ['BAL', 'PTD', 'FREE'];
    const bodies = await Promise.all(
      Array.from({ length: 1000 }, async (_, k) => ({
        itemCode: items[k % 3]!,
        participants: [person()],
        captcha: await passedSlider(unlimited),
      })),
    );
    const answers = await Promise.all(bodies.map((body) => submit(unlimited, who, body)));
    const counts = tally(answers);
    expect(counts).toEqual({ '200/0/': 3, '200/400/entryAccountLimit': 997 });
    expect(await liveEntries(unlimited, who)).toBe(3);
    const refused = answers.find((res) => res.json().code === 400)!.json();
    expect(refused.msg).toBe('One account may register at most 3 people for this event, yourself included');
  });

  it('takes exactly one person per account where the race does not allow several', async () => {
    const app = await raceApp({ RATE_LIMITS: 'off' }, { ...ENTRY, allowMultiple: false });
    apps.push(app);
    const who = await account(app);
    const bodies = await Promise.all(
      Array.from({ length: 300 }, async (_, k) => ({
        itemCode: ['BAL', 'PTD', 'FREE'][k % 3]!,
        participants: [person()],
        captcha: await passedSlider(app),
      })),
    );
    const answers = await Promise.all(bodies.map((body) => submit(app, who, body)));
    expect(tally(answers)).toEqual({ '200/0/': 1, '200/400/alreadyRegistered': 299 });
    expect(answers.find((res) => res.json().code === 400)!.json().msg).toBe(
      'The user has already registered, please do not submit again',
    );
    expect(await liveEntries(app, who)).toBe(1);
    // Another account still gets in.
    const other = await account(app);
    const res = await submit(app, other, {
      itemCode: 'BAL',
      participants: [person()],
      captcha: await passedSlider(app),
    });
    expect(res.json().code, res.body).toBe(0);
  });

  it('counts people, not submissions, and frees a place of the account when an entry stops being live', async () => {
    const who = await account(unlimited);
    const two = await submit(unlimited, who, {
      itemCode: 'BAL',
      participants: [person(), person()],
      captcha: await passedSlider(unlimited),
    });
    expect(two.json().code, two.body).toBe(0);
    const tooMany = await submit(unlimited, who, {
      itemCode: 'BAL',
      participants: [person(), person()],
      captcha: await passedSlider(unlimited),
    });
    expect(tooMany.json()).toMatchObject({ code: 400, msgCode: 'entryAccountLimit', msgParams: { max: 3 } });
    const entryNo = two.json().data.entries[0].entryNo as string;
    const entry = (await unlimited.repos.entries.findByNo(entryNo))!;
    expect(await unlimited.repos.entries.setStatus(entry.id, [0], 3, 'cancelled', clock.now())).toBe(true);
    const again = await submit(unlimited, who, {
      itemCode: 'BAL',
      participants: [person(), person()],
      captcha: await passedSlider(unlimited),
    });
    expect(again.json().code, again.body).toBe(0);
    expect(await liveEntries(unlimited, who)).toBe(3);
  });
});

describe('rate limits on entrySubmit', () => {
  it('answers a burst of 1,000 from one account with 429 (zh and en) beyond the limits, never a 500', async () => {
    const who = await account(limited);
    const bodies = await Promise.all(
      Array.from({ length: 1000 }, async () => ({
        itemCode: 'BAL',
        participants: [person()],
        captcha: await passedSlider(limited),
      })),
    );
    const answers = await Promise.all(bodies.map((body) => submit(limited, who, body)));
    const counts = tally(answers);
    // 600 a minute from the address, of which 10 from the account: 3 entries, 7 over the account's limit.
    expect(counts).toEqual({
      '200/0/': 3,
      '200/400/entryAccountLimit': 7,
      '429/429/tooManyRequestsWait': 990,
    });
    const tooMany = answers.find((res) => res.statusCode === 429)!;
    expect(Number(tooMany.headers['retry-after'])).toBeGreaterThan(0);
    expect(tooMany.json().msg).toMatch(/^Too many requests, please try again in \d+ seconds$/);
    expect(await liveEntries(limited, who)).toBe(3);
    // The next minute the account may submit again (and is refused by its limit, not by the rate).
    clock.advance(61_000);
    const later = await submit(limited, who, {
      itemCode: 'BAL',
      participants: [person()],
      captcha: await passedSlider(limited),
    });
    expect(later.json()).toMatchObject({ code: 400, msgCode: 'entryAccountLimit' });
  });

  it('lets 200 accounts behind one address (a campus NAT) all get in', async () => {
    clock.advance(61_000);
    const accounts = await Promise.all(Array.from({ length: 200 }, () => account(limited)));
    const bodies = await Promise.all(
      accounts.map(async () => ({
        itemCode: 'BAL',
        participants: [person()],
        captcha: await passedSlider(limited),
      })),
    );
    const answers = await Promise.all(
      accounts.map((who, k) =>
        limited.inject({
          method: 'POST',
          url: API_PATHS.entrySubmit,
          headers: { token: who.token },
          remoteAddress: '203.0.113.7',
          payload: { raceId: RACE, channel: 'public', idempotencyKey: `nat-${k}-key`, ...bodies[k] },
        }),
      ),
    );
    expect(tally(answers)).toEqual({ '200/0/': 200 });
  });
});

describe('the slider check on entrySubmit', () => {
  it('asks for a pass, takes each pass once, and answers a key already answered without one', async () => {
    const who = await account(unlimited);
    const body = { itemCode: 'BAL', participants: [person()] };
    expect((await submit(unlimited, who, body)).json()).toMatchObject({
      code: 400,
      msg: 'Please slide the slider to verify first',
      msgCode: 'slideFirst',
    });
    const made = { token: 'made-up-token', sig: 'made-up-sig', sessionId: 'made-up', scene: 'message_h5' };
    expect((await submit(unlimited, who, { ...body, captcha: made })).json()).toMatchObject({
      code: 400,
      msgCode: 'verificationFailed',
    });
    expect(await liveEntries(unlimited, who)).toBe(0);
    const pass = await passedSlider(unlimited);
    const first = await submit(unlimited, who, { ...body, captcha: pass, idempotencyKey: 'slider-key-1' });
    expect(first.json().code, first.body).toBe(0);
    // The same pass again: spent.
    const spent = await submit(unlimited, who, { itemCode: 'BAL', participants: [person()], captcha: pass });
    expect(spent.json()).toMatchObject({ code: 400, msgCode: 'verificationFailed' });
    // A retry of the submission answered (same key): its answer, without a new pass.
    const retry = await submit(unlimited, who, { ...body, idempotencyKey: 'slider-key-1' });
    expect(retry.json()).toEqual(first.json());
    expect(await liveEntries(unlimited, who)).toBe(1);
  });
});

describe('a unique index met while writing', () => {
  it('is answered alreadyRegistered only for a real same-person clash: a number taken is drawn again', async () => {
    // The free item is written step by step on both engines. The order number drawn first makes a sub-order
    // number that is taken already (a unique index other than the person's): before, any unique violation
    // was answered alreadyRegistered; the submission is now written again with the next number.
    const app = unlimited;
    const who = await account(app);
    const existing = await submit(app, who, {
      itemCode: 'FREE',
      participants: [person()],
      captcha: await passedSlider(app),
    });
    expect(existing.json().code, existing.body).toBe(0);
    const takenEntryNo = existing.json().data.entries[0].entryNo as string;
    const clashing = newOrderNo(clock.now());
    await app.db.run(sql`
      UPDATE order_lines SET sub_order_no = ${`${clashing}-1`}
      WHERE sub_order_no = ${existing.json().data.order.lines[0].subOrderNo}`);
    const orderNos = [clashing];
    const entryNos = [takenEntryNo];
    const submission = createEntrySubmission({
      repos: app.repos,
      files: app.files,
      now: clock.now,
      captcha: app.captcha,
      numbers: {
        entryNo: () => entryNos.shift() ?? newEntryNo(),
        orderNo: (at) => orderNos.shift() ?? newOrderNo(at),
      },
    });
    const other = await account(app);
    const runner = person();
    const request = {
      raceId: RACE,
      itemCode: 'FREE',
      channel: 'public' as const,
      participants: [runner],
      idempotencyKey: 'clash-key-1',
      captcha: await passedSlider(app),
    };
    const outcome = await submission.submit(other.id, request);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(orderNos).toEqual([]);
    expect(entryNos).toEqual([]);
    const answer = outcome.ok ? outcome.answer : undefined;
    expect(answer!.entries[0]!.entryNo).not.toBe(takenEntryNo);
    expect(answer!.order!.orderNo).not.toBe(clashing);
    // A real clash of the person is still answered so, on the person's field.
    const third = await account(app);
    const again = await submission.submit(third.id, {
      ...request,
      idempotencyKey: 'clash-key-2',
      captcha: await passedSlider(app),
    });
    expect(again).toMatchObject({
      ok: false,
      refusal: { kind: 'fields', fields: { '0.certificateNumber': { code: 'alreadyRegistered' } } },
    });
  });
});
