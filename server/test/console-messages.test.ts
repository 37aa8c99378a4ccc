/**
 * Talking to runners (issue 32 §2; services/messages/, routes/admin/messages.ts, plugins/delivery.ts): the
 * wording of the system messages (render, refusals, reset) and a system message written with the race's own;
 * messages to entrants: the audience's counts per filter, the throttle (MESSAGES_PER_MINUTE) by the injected
 * clock, a scheduled send, the state of each runner's copy and the retry of a failed one; e-mail to an
 * e-mail-only runner sent through SMTP (a local fake server); the runner's "my messages" (their own only);
 * the audit log. Both engines.
 */
import { createServer, type Server } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { letterVersionHash } from '#contract/after-entry';
import type { DeliveryRow, TemplateView } from '#contract/runner-messages';
import type { StaffRole } from '#contract/staff';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import {
  afterEntryClock,
  DEMO_RACE_ID,
  demoRace,
  demoRaceApp,
  newRunner,
  unpaidEntry,
  wonPaidEntry,
  type TestEntry,
  type TestRunner,
} from './after-entry-helpers.ts';
import { removeTempDirs } from './helpers.ts';
import { memberSession, signInMember } from './console-helpers.ts';

/** A minimal SMTP listener on loopback (as smtp.test.ts): a recipient with "bounce" in it is refused (550). */
function fakeSmtp(): Promise<{
  server: Server;
  port: number;
  messages: string[];
  refuse: { bounce: boolean; later: boolean };
}> {
  const messages: string[] = [];
  const refuse = { bounce: true, later: true };
  const server = createServer((socket) => {
    let data: string | null = null;
    let buffer = '';
    socket.write('220 fake.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push(data);
            data = null;
            socket.write('250 OK queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake.test\r\n250 8BITMIME\r\n');
        else if (verb === 'RCPT' && refuse.bounce && line.includes('bounce')) {
          socket.write('550 5.1.1 No such user\r\n');
        } else if (verb === 'RCPT' && refuse.later && line.includes('later')) {
          socket.write('451 4.3.0 Try again later\r\n');
        } else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, messages, refuse });
    }),
  );
}

const clock = afterEntryClock();
let app: FastifyInstance;
let smtp: Awaited<ReturnType<typeof fakeSmtp>>;
const sessions = new Map<StaffRole, { cookie: string; csrf: string }>();

const member = (email: string, role: StaffRole) => memberSession(app, { email, role, now: clock.now });

/** Signs in again (a session ends after 30 minutes unused: the clock moves by hours here). */
const login = (email: string, role: StaffRole) => signInMember(app, email, role, clock.now);

const call = async (method: 'GET' | 'POST', url: string, payload?: object, role: StaffRole = 'service') => {
  const who = sessions.get(role)!;
  const res = await app.inject({
    method,
    url: `${ADMIN_PREFIX}/races/${DEMO_RACE_ID}/messages${url}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
    ...(payload ? { payload } : {}),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each call's own answer, read by the test
  return res.json() as { code: number; msg: string; data: any };
};

let emailSeq = 0;
async function emailRunner(local: string): Promise<TestRunner> {
  emailSeq += 1;
  const email = `${local}-${process.pid}-${emailSeq}@example.org`;
  const id = await app.repos.users.create({ email }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 24 * 3_600_000, clock.now());
  return { id, token, phone: '' };
}

/** A runner with a phone and an e-mail address. */
async function bothRunner(): Promise<TestRunner> {
  const phone = `136${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 100_000).padStart(5, '0')}`;
  const id = await app.repos.users.create({ phone, email: `d-${process.pid}@example.org` }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 24 * 3_600_000, clock.now());
  return { id, token, phone };
}

const TEXT = {
  subjectZh: '{race} 领物提醒',
  bodyZh: '{name}（报名号 {entryNo}，{item}）：请签署参赛承诺书。',
  subjectEn: 'Pick-up reminder: {raceEn}',
  bodyEn: 'Dear {name} (entry {entryNo}, {itemEn}): please sign the commitment letter.',
};
const send = (audience: object, channel = 'both', extra: object = {}) =>
  call('POST', '', { text: TEXT, channel, audience, ...extra });
const copies = async (id: number) => (await call('GET', `/${id}`)).data.deliveries as DeliveryRow[];
const states = async (id: number) => (await copies(id)).map((d) => d.state).sort();

let a: TestEntry;
let b: TestEntry;
let c: TestEntry;
let d: TestEntry;
let runnerA: TestRunner;
let runnerB: TestRunner;
let cEmail: string;

beforeAll(async () => {
  smtp = await fakeSmtp();
  app = await demoRaceApp(clock, {
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, MESSAGES_PER_MINUTE: '2' },
  });
  sessions.set('service', await member('service@messages.test', 'service'));
  sessions.set('observer', await member('observer@messages.test', 'observer'));
  runnerA = await newRunner(app, clock.now());
  runnerB = await newRunner(app, clock.now());
  const runnerC = await emailRunner('c');
  cEmail = (await app.repos.users.findById(runnerC.id))!.email!;
  const runnerD = await bothRunner();
  a = await wonPaidEntry(app, runnerA, clock.now());
  b = await wonPaidEntry(app, runnerB, clock.now());
  c = await wonPaidEntry(app, runnerC, clock.now());
  d = await unpaidEntry(app, runnerD, clock.now(), { itemCode: 'HM' });
  // A signed the current letter and booked a pick-up slot.
  await app.repos.letters.insertSignature({
    raceId: DEMO_RACE_ID,
    entryId: a.entryId,
    userId: runnerA.id,
    versionHash: letterVersionHash(demoRace().commitmentLetter!),
    signerName: a.name,
    accepted: [0],
    guardian: null,
    relative: null,
    ip: '127.0.0.1',
    userAgent: 'test',
    signedAt: clock.now(),
  });
  await app.repos.pickup.insertBooking({
    raceId: DEMO_RACE_ID,
    entryId: a.entryId,
    slotId: 'day1-am',
    passCode: `P${process.pid}${Date.now()}`,
    now: clock.now(),
  });
  // The messages of these sign-ups are sent (the SMS outbox keeps them; C's e-mail leaves by SMTP).
  await app.delivery.sendQueued();
  await app.delivery.sendQueuedEmail();
});

afterAll(async () => {
  await app?.close();
  smtp?.server.close();
  removeTempDirs();
});

describe('who a message reaches', () => {
  it('counts the audience per filter, by the ways each runner has', async () => {
    const preview = async (query: string) => (await call('GET', `/audience?${query}`)).data;
    expect(await preview('')).toMatchObject({ entries: 4, sms: 3, email: 2, unreachable: 0 });
    expect(await preview('item=HM')).toMatchObject({ entries: 1 });
    expect((await preview('item=HM')).sample[0]).toMatchObject({ entryNo: d.entryNo, channels: ['sms', 'email'] });
    expect(await preview('status=1')).toMatchObject({ entries: 3 });
    expect(await preview('status=0')).toMatchObject({ entries: 1 });
    expect(await preview('letter=unsigned')).toMatchObject({ entries: 2 });
    expect(await preview('letter=signed')).toMatchObject({ entries: 1 });
    expect(await preview('pickup=booked')).toMatchObject({ entries: 1 });
    expect(await preview('pickup=unbooked')).toMatchObject({ entries: 2 });
    expect(await preview('channel=public')).toMatchObject({ entries: 4 });
    expect(await preview('channel=direct')).toMatchObject({ entries: 0 });
    expect(await preview(`entryNo=${b.entryNo}`)).toMatchObject({ entries: 1, sms: 1, email: 0 });
    // By SMS only, C (e-mail only) cannot be reached.
    expect(await preview('letter=unsigned&via=sms')).toMatchObject({ entries: 2, sms: 1, email: 0, unreachable: 1 });
    // The sample's names are masked.
    expect((await preview(`entryNo=${a.entryNo}`)).sample[0].name).not.toBe(a.name);
  });

  it('refuses a bad filter with its name, and a role without messages', async () => {
    expect(await call('GET', '/audience?item=XX')).toMatchObject({ code: 400, msg: expect.stringContaining('item') });
    expect(await call('GET', '/audience?letter=maybe')).toMatchObject({ code: 400 });
    expect(await call('GET', '', undefined, 'observer')).toMatchObject({ code: 403 });
  });
});

describe('templates of the system messages', () => {
  it('shows the defaults, saves the race’s own, refuses an unknown placeholder by its name, resets', async () => {
    const list = (await call('GET', '/templates')).data as TemplateView[];
    const paid = list.find((t) => t.kind === 'orderPaid')!;
    expect(paid).toMatchObject({ custom: null, variables: ['race', 'orderNo', 'amount', 'raceEn'] });
    expect(paid.defaults.bodyZh).toContain('{orderNo}');
    expect(list.some((t) => t.kind === 'loginCode')).toBe(false);

    const wrong = await call('POST', '/templates/orderPaid', { ...paid.defaults, bodyEn: 'Paid {orderNo} by {bib}' });
    expect(wrong).toMatchObject({ code: 400, msg: expect.stringContaining('{bib}') });
    expect(await call('POST', '/templates/orderPaid', { ...paid.defaults, subjectZh: ' ' })).toMatchObject({
      code: 400,
    });
    expect(await call('POST', '/templates/noSuchKind', paid.defaults)).toMatchObject({ code: 404 });

    const saved = await call('POST', '/templates/bibAssigned', {
      subjectZh: '号码 {race}',
      bodyZh: '您的号码 {bib}',
      subjectEn: 'Bib {raceEn}',
      bodyEn: 'Your bib {bib}',
    });
    expect(saved.data.custom).toMatchObject({ bodyZh: '您的号码 {bib}' });
    const reset = await call('POST', '/templates/bibAssigned/reset');
    expect(reset.data.custom).toBeNull();
    expect(await app.repos.audit.find({ action: 'message-template-reset', limit: 5 })).toHaveLength(1);
  });

  it('writes a system message with the race’s wording, in the runner’s language, and sends it by SMTP', async () => {
    expect(
      await call('POST', '/templates/orderPaid', {
        subjectZh: '{race} 已收款',
        bodyZh: '订单 {orderNo} 已收款 ¥{amount}，谢谢！',
        subjectEn: 'Paid: {raceEn}',
        bodyEn: 'Thank you: order {orderNo} is paid, CNY {amount}.',
      }),
    ).toMatchObject({ code: 0 });
    // An e-mail-only runner who reads the centre in English.
    const runner = await emailRunner('f');
    await app.inject({ method: 'GET', url: `${API_PATHS.myMessages}?lang=en`, headers: { token: runner.token } });
    const entry = await wonPaidEntry(app, runner, clock.now());
    const before = smtp.messages.length;
    expect(await app.delivery.sendQueuedEmail()).toMatchObject({ sent: 1 });
    const mail = smtp.messages.slice(before).join('\n');
    expect(mail).toContain('Subject: Paid: ');
    expect(mail).toContain(`Thank you: order ${entry.orderNo} is paid, CNY 80.00.`);
    const mine = (
      await app.inject({ method: 'GET', url: API_PATHS.myMessages, headers: { token: runner.token } })
    ).json().data;
    expect(mine[0]).toMatchObject({ channel: 'email', body: `Thank you: order ${entry.orderNo} is paid, CNY 80.00.` });
    await call('POST', '/templates/orderPaid/reset');
  });

  it('sent the sign-up e-mail of an e-mail-only runner through SMTP (it stayed in the outbox before)', () => {
    expect(smtp.messages.some((m) => m.includes(c.orderNo))).toBe(true);
  });
});

describe('messages to entrants', () => {
  let throttled: number;

  it('refuses an unknown placeholder, an empty audience and a time in the past, writing nothing', async () => {
    const bad = await call('POST', '', {
      text: { ...TEXT, bodyZh: '{name} {orderNo}' },
      channel: 'both',
      audience: {},
    });
    expect(bad).toMatchObject({ code: 400, msg: expect.stringContaining('{orderNo}') });
    expect(await send({ channel: 'direct' })).toMatchObject({ code: 400 });
    expect(await send({}, 'both', { sendAt: clock.now() - 1 })).toMatchObject({ code: 400 });
    expect((await call('GET', '')).data.campaigns).toHaveLength(0);
  });

  it('sends in each runner’s language at MESSAGES_PER_MINUTE, by the injected clock', async () => {
    const sent = await send({ status: 1 });
    // A, B, C and the English reader of the test above.
    expect(sent).toMatchObject({ code: 0, data: { state: 'sent', recipients: 4 } });
    throttled = sent.data.id;
    // 2 a minute: two copies are due now, the others a minute later.
    await app.delivery.sendQueued();
    await app.delivery.sendQueuedEmail();
    expect(await states(throttled)).toEqual(['queued', 'queued', 'sent', 'sent']);
    clock.advance(59_000);
    await app.delivery.sendQueued();
    await app.delivery.sendQueuedEmail();
    expect(await states(throttled)).toEqual(['queued', 'queued', 'sent', 'sent']);
    clock.advance(1_000);
    await app.delivery.sendQueued();
    await app.delivery.sendQueuedEmail();
    expect(await states(throttled)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const rows = await copies(throttled);
    expect(rows.find((r) => r.entryNo === c.entryNo)).toMatchObject({ channel: 'email', language: 'zh' });
    expect(rows.filter((r) => r.language === 'en')).toHaveLength(1);
    expect(rows.find((r) => r.entryNo === a.entryNo)!.destination).not.toBe(runnerA.phone);
    // C's copy went by SMTP, in Chinese, with C's own entry number.
    const mails = smtp.messages.filter((m) => m.includes(`To: ${cEmail}`));
    expect(mails.length).toBeGreaterThan(1);
  });

  it('sends a scheduled message at its time, and cancels one before it', async () => {
    const at = clock.now() + 3_600_000;
    const scheduled = await send({ entryNo: b.entryNo }, 'sms', { sendAt: at });
    expect(scheduled).toMatchObject({ code: 0, data: { state: 'scheduled', sendAt: at } });
    const other = await send({ entryNo: b.entryNo }, 'sms', { sendAt: at });
    expect(await app.delivery.sendDueMessages()).toBe(0);
    expect(await copies(scheduled.data.id)).toHaveLength(0);
    expect(await call('POST', `/${other.data.id}/cancel`)).toMatchObject({ code: 0, data: { state: 'cancelled' } });
    clock.advance(3_600_000);
    sessions.set('service', await login('service@messages.test', 'service'));
    expect(await app.delivery.sendDueMessages()).toBe(1);
    expect(await states(scheduled.data.id)).toEqual(['queued']);
    await app.delivery.sendQueued();
    expect(await states(scheduled.data.id)).toEqual(['sent']);
    expect(await copies(other.data.id)).toHaveLength(0);
    expect(await call('POST', `/${scheduled.data.id}/cancel`)).toMatchObject({ code: 409 });
  });

  it('records a bounced copy as failed and sends it again on retry', async () => {
    const runner = await emailRunner('bounce');
    const entry = await wonPaidEntry(app, runner, clock.now());
    await app.delivery.sendQueuedEmail(); // its sign-up message bounces too
    const sent = await send({ entryNo: entry.entryNo }, 'email');
    await app.delivery.sendQueuedEmail();
    const [copy] = await copies(sent.data.id);
    expect(copy).toMatchObject({ state: 'failed', error: 'bounced', attempts: 1 });
    smtp.refuse.bounce = false;
    expect(await call('POST', `/${sent.data.id}/retry`, { copyId: copy.id })).toMatchObject({ data: { queued: 1 } });
    expect(await states(sent.data.id)).toEqual(['queued']);
    await app.delivery.sendQueuedEmail();
    expect(await states(sent.data.id)).toEqual(['sent']);
    expect(await call('POST', `/${sent.data.id}/retry`, {})).toMatchObject({ code: 409 });
    smtp.refuse.bounce = true;
  });

  it('tries a copy the mail server put off (4xx) again after a wait, by the injected clock', async () => {
    const runner = await emailRunner('later');
    const entry = await wonPaidEntry(app, runner, clock.now());
    const sent = await send({ entryNo: entry.entryNo }, 'email');
    await app.delivery.sendQueuedEmail();
    const [copy] = await copies(sent.data.id);
    expect(copy).toMatchObject({ state: 'queued', error: 'smtp451', attempts: 1 });
    smtp.refuse.later = false;
    // Not before its wait (30 s after the first try).
    clock.advance(29_000);
    await app.delivery.sendQueuedEmail();
    expect(await states(sent.data.id)).toEqual(['queued']);
    clock.advance(1_000);
    await app.delivery.sendQueuedEmail();
    expect((await copies(sent.data.id))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('writes every send, schedule, cancel, retry and template change in the audit log', async () => {
    for (const action of [
      'message-send',
      'message-schedule',
      'message-cancel',
      'message-retry',
      'message-template-save',
    ]) {
      const records = await app.repos.audit.find({ action, limit: 10 });
      expect(records.length, action).toBeGreaterThan(0);
      expect(records[0]!.raceId).toBe(DEMO_RACE_ID);
    }
  });
});

describe('my messages in the personal centre', () => {
  it('answers the runner’s own messages only, newest first, and keeps their language for the next', async () => {
    const onlyB = await send({ entryNo: b.entryNo }, 'sms');
    expect(onlyB.code).toBe(0);
    const mineA = await app.inject({
      method: 'GET',
      url: `${API_PATHS.myMessages}?lang=en`,
      headers: { token: runnerA.token },
    });
    const listA = mineA.json().data as { id: number; body: string; sentAt: number }[];
    expect(listA.some((m) => m.body.includes(a.entryNo))).toBe(true);
    expect(listA.some((m) => m.body.includes(b.entryNo))).toBe(false);
    expect(listA.map((m) => m.sentAt)).toEqual([...listA.map((m) => m.sentAt)].sort((x, y) => y - x));
    const listB = (
      await app.inject({ method: 'GET', url: API_PATHS.myMessages, headers: { token: runnerB.token } })
    ).json().data as { body: string }[];
    expect(listB[0]!.body).toContain(b.entryNo);
    expect(listB.some((m) => m.body.includes(a.entryNo))).toBe(false);
    // No login: refused.
    expect((await app.inject({ method: 'GET', url: API_PATHS.myMessages })).json().code).toBe(401);
    // A reads English now: the next message to A is in English.
    await send({ entryNo: a.entryNo }, 'sms');
    const latest = (
      await app.inject({ method: 'GET', url: API_PATHS.myMessages, headers: { token: runnerA.token } })
    ).json().data[0];
    expect(latest.body).toContain('please sign the commitment letter');
  });
});
