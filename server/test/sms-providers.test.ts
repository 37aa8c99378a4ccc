/**
 * Real SMS (issue 31 §4): SMS_PROVIDER=aliyun or tencent sends through the provider's official SDK, here to a
 * local fake of its gateway (sms-fakes.ts) that checks our signature with keys made in the test. A login code
 * and a ballot result reach the fake with their kind's template and variables; a throttled send is tried
 * again after a wait; the provider's receipt marks the message delivered, once; a missing template, variable
 * or key stops the start naming it; the outbox (the default) stays the sandbox it was.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { EntrySettings } from '#contract/entry';
import { sql } from '../src/db/engine.ts';
import { SMS_KIND_NAMES, SMS_KINDS } from '../src/lib/sms/kinds.ts';
import { SMS_MAX_ATTEMPTS, smsBackoffMs } from '../src/plugins/delivery.ts';
import { codeLogin, DEMO, sendCode } from './account-helpers.ts';
import { runSiteCli } from '../src/cli/site.ts';
import {
  buildTestApp,
  databaseFor,
  fakeClock,
  FIXTURE_RACE_ID,
  FIXTURE_SEED,
  postgresEnv,
  removeTempDirs,
  siteCli,
  tempDir,
} from './helpers.ts';
import { startAliyunFake, startTencentFake, type SmsFake } from './sms-fakes.ts';

afterAll(removeTempDirs);

const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
/** signUpEndTime '2025-06-20 20:00:00' (China time). */
const END = Date.UTC(2025, 5, 20, 12, 0, 0);
const HOUR = 3_600_000;
const RECEIPT_TOKEN = randomBytes(18).toString('base64url');

interface OutboxRow {
  id: number;
  destination: string;
  body: string;
  kind: string | null;
  params: string | null;
  state: string;
  provider: string | null;
  provider_message_id: string | null;
  error_code: string | null;
  error_detail: string | null;
  attempts: number;
  next_attempt_at: number | null;
}
const rows = (app: FastifyInstance) => app.db.all<OutboxRow>(sql`SELECT * FROM outbox ORDER BY id`);

interface ProviderCase {
  name: 'aliyun' | 'tencent';
  start(): Promise<{ fake: SmsFake; env: Record<string, string> }>;
  /** A template code of the provider's form, different per kind. */
  code(index: number): string;
  /** How the provider is given a mainland number. */
  phone(mainland: string): string;
  /** The variables as the fake received them, by name. */
  values(params: Record<string, string> | string[], names: string[]): Record<string, string>;
}

const CASES: ProviderCase[] = [
  {
    name: 'aliyun',
    async start() {
      const keys = {
        accessKeyId: `LTAI${randomBytes(8).toString('hex')}`,
        accessKeySecret: randomBytes(15).toString('base64'),
      };
      const fake = await startAliyunFake(keys);
      return {
        fake,
        env: {
          SMS_PROVIDER: 'aliyun',
          ALIYUN_SMS_ACCESS_KEY_ID: keys.accessKeyId,
          ALIYUN_SMS_ACCESS_KEY_SECRET: keys.accessKeySecret,
          ALIYUN_SMS_SIGN_NAME: '测试马拉松',
          ALIYUN_SMS_ENDPOINT: fake.endpoint,
        },
      };
    },
    code: (index) => `SMS_${470000000 + index}`,
    phone: (mainland) => mainland,
    values: (params) => params as Record<string, string>,
  },
  {
    name: 'tencent',
    async start() {
      const keys = { secretId: `AKID${randomBytes(16).toString('hex')}`, secretKey: randomBytes(16).toString('hex') };
      const fake = await startTencentFake(keys);
      return {
        fake,
        env: {
          SMS_PROVIDER: 'tencent',
          TENCENT_SMS_SECRET_ID: keys.secretId,
          TENCENT_SMS_SECRET_KEY: keys.secretKey,
          TENCENT_SMS_SDK_APP_ID: '1400006666',
          TENCENT_SMS_SIGN_NAME: '测试马拉松',
          TENCENT_SMS_ENDPOINT: fake.endpoint,
        },
      };
    },
    code: (index) => String(2_000_000 + index),
    phone: (mainland) => `+86${mainland}`,
    values: (params, names) => Object.fromEntries(names.map((name, i) => [name, (params as string[])[i] ?? ''])),
  },
];

/** Every kind's template: the code message takes the code alone; the ballot's win picks its variables. */
function templatesFor(provider: ProviderCase, drop?: string) {
  const templates: Record<string, unknown> = {};
  SMS_KIND_NAMES.forEach((kind, index) => {
    templates[kind] = provider.code(index);
  });
  templates.loginCode = { template: provider.code(900), params: ['code'], international: provider.code(901) };
  templates.ballotWon = { template: provider.code(902), params: ['race', 'entryNo', 'orderNo', 'amount', 'deadline'] };
  templates.packShipped = false;
  if (drop) delete templates[drop];
  return JSON.stringify(templates);
}

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    {
      code: 'M',
      name: { zh: '马拉松', en: 'Marathon' },
      capacity: 1,
      feeFen: 20_000,
      model: 'ballot',
      paymentMinutes: 60,
    },
  ],
};

describe.each(CASES)('SMS_PROVIDER=$name', (provider) => {
  let fake: SmsFake;
  let providerEnv: Record<string, string>;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    ({ fake, env: providerEnv } = await provider.start());
  });
  afterAll(async () => {
    await fake.close();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  const start = async (
    env: Record<string, string>,
    now: () => number,
    dataDir?: string,
    logs?: { logger: 'warn'; logStream: PassThrough },
  ) => {
    const app = await buildTestApp({
      now,
      dataDir,
      ...logs,
      env: {
        ...process.env,
        RATE_LIMITS: 'off',
        JOBS: 'off',
        ...providerEnv,
        SMS_TEMPLATES: templatesFor(provider),
        SMS_RECEIPT_TOKEN: RECEIPT_TOKEN,
        ...env,
      },
    });
    apps.push(app);
    return app;
  };

  it('sends a login code with its template and variable, records it sent, and its receipt marks it delivered once', async () => {
    const clock = fakeClock(T0);
    const app = await start({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox' }, clock.now);
    const before = fake.sends.length;
    expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
    await app.delivery.idle();

    const sent = fake.sends.slice(before);
    expect(sent).toHaveLength(1);
    const [message] = sent as [(typeof sent)[number]];
    expect(message.phone).toBe(provider.phone(DEMO.phone));
    expect(message.template).toBe(provider.code(900));
    expect(message.signName).toBe('测试马拉松');
    const { code } = provider.values(message.params, ['code']);
    expect(code).toMatch(/^\d{6}$/);
    expect(Object.keys(provider.values(message.params, ['code']))).toEqual(['code']);

    // The row records the send; outside development the code is kept nowhere.
    const [row] = (await rows(app)).filter((r) => r.kind === 'loginCode');
    expect(row).toMatchObject({ state: 'sent', provider: provider.name, provider_message_id: message.messageId });
    expect(row!.body).not.toContain(code!);
    expect(row!.params).not.toContain(code!);
    // The code the phone got logs the runner in.
    expect((await codeLogin(app, DEMO.phone, code!)).json().code).toBe(0);

    // The provider's receipt, posted by the fake to our callback URL.
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `${address}${API_PATHS.smsReceiptPrefix}${provider.name}?token=${RECEIPT_TOKEN}`;
    const receipt = await fake.postReceipt(url, message.messageId, true);
    expect(receipt.status).toBe(200);
    expect(receipt.body).toEqual(
      provider.name === 'aliyun' ? { code: 0, msg: '接收成功' } : { result: 0, errmsg: 'OK' },
    );
    const delivered = (await rows(app)).find((r) => r.id === row!.id);
    expect(delivered).toMatchObject({ state: 'delivered', error_code: null });
    // Again, or a late failure for the same message: nothing changes.
    expect((await fake.postReceipt(url, message.messageId, true)).status).toBe(200);
    expect((await fake.postReceipt(url, message.messageId, false)).status).toBe(200);
    expect((await rows(app)).find((r) => r.id === row!.id)?.state).toBe('delivered');
  });

  it('sends a ballot result from the outbox queue, tries a throttled one again after its wait, and records a failed receipt', async () => {
    const dataDir = tempDir();
    const clock = fakeClock(T0);
    const app = await start({}, clock.now, dataDir);
    const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
    await app.repos.races.save(
      {
        ...race,
        signUpOpenStatus: 1,
        signUpStartTime: '2025-06-01 00:00:00',
        signUpEndTime: '2025-06-20 20:00:00',
        entry: ENTRY,
      },
      T0,
    );
    await app.repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
    const phones = ['13900001001', '13900001002'];
    for (const [i, phone] of phones.entries()) {
      const userId = await app.repos.users.create({ phone }, T0);
      await app.repos.entries.insertEntry({
        raceId: FIXTURE_RACE_ID,
        itemCode: 'M',
        channel: 'public',
        userId,
        teamId: null,
        status: 0,
        holdsPlace: false,
        name: `张伟${i}`,
        gender: 1,
        birthday: '1990-01-01',
        certType: 1,
        certHash: `hash-${i}`,
        certNumber: `11010119900101100${i}`,
        phone,
        values: {},
        feeFen: 20_000,
        now: T0,
      });
    }
    const cli = (at: number, ...argv: string[]) => siteCli(dataDir, () => at)(...argv);
    expect((await cli(T0, 'ballot-commit', FIXTURE_RACE_ID, 'M')).code).toBe(0);
    const drawn = await cli(END + HOUR, 'ballot-draw', FIXTURE_RACE_ID, 'M');
    expect(drawn.code, drawn.err).toBe(0);
    clock.advance(END + HOUR - clock.now());

    // The draw queued one message per runner; the first send is throttled by the provider.
    const queued = (await rows(app)).filter((r) => r.kind?.startsWith('ballot'));
    expect(queued.map((r) => r.state)).toEqual(['queued', 'queued']);
    const before = fake.sends.length;
    fake.throttleNext(1);
    const firstRound = await app.delivery.sendQueued();
    // When it is not one sent and one retried, the rows' states and errors say why (a flake under heavy load once
    // retried both: see what the second send met).
    const afterFirst = await rows(app);
    const outcomes = afterFirst.map((r) => [r.state, r.error_code]);
    expect(firstRound, JSON.stringify(outcomes)).toEqual({ sent: 1, failed: 0, retried: 1 });
    const throttled = afterFirst.find((r) => r.id === queued[0]!.id)!;
    expect(throttled).toMatchObject({ state: 'queued', attempts: 1 });
    expect(throttled.error_code).toMatch(
      provider.name === 'aliyun' ? 'isv.BUSINESS_LIMIT_CONTROL' : 'RequestLimitExceeded',
    );
    expect(throttled.next_attempt_at).toBe(clock.now() + smsBackoffMs(1, true));
    // Not before its wait is over; then sent.
    expect(await app.delivery.sendQueued()).toEqual({ sent: 0, failed: 0, retried: 0 });
    clock.advance(smsBackoffMs(1, true));
    expect(await app.delivery.sendQueued()).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(SMS_MAX_ATTEMPTS).toBeGreaterThan(1);

    const sent = fake.sends.slice(before);
    expect(sent.map((s) => s.phone).sort()).toEqual(phones.map(provider.phone).sort());
    const after = (await rows(app)).filter((r) => r.kind?.startsWith('ballot'));
    expect(after.map((r) => r.state)).toEqual(['sent', 'sent']);
    // The winner's message: the win's template with the variables it names, from the draw's order.
    const won = after.find((r) => r.kind === 'ballotWon')!;
    const wonSend = sent.find((s) => s.messageId === won.provider_message_id)!;
    expect(wonSend.template).toBe(provider.code(902));
    const order = await app.db.get<{ order_no: string }>(sql`SELECT order_no FROM orders ORDER BY id DESC LIMIT 1`);
    const entryNo = JSON.parse(won.params!).entryNo as string;
    expect(provider.values(wonSend.params, ['race', 'entryNo', 'orderNo', 'amount', 'deadline'])).toEqual({
      race: race.raceName,
      entryNo,
      orderNo: order!.order_no,
      amount: '200.00',
      deadline: expect.stringMatching(/^2025-06-20 2\d:\d\d/),
    });
    // The other runner's: every variable of its kind, in the kind's order.
    const other = after.find((r) => r.kind !== 'ballotWon')!;
    const otherSend = sent.find((s) => s.messageId === other.provider_message_id)!;
    const names = [...SMS_KINDS[other.kind as keyof typeof SMS_KINDS]];
    expect(provider.values(otherSend.params, names)).toMatchObject({ race: race.raceName, item: '马拉松' });

    // A failed receipt: failed, with the operator's reason.
    const response = await app.inject({
      method: 'POST',
      url: `${API_PATHS.smsReceiptPrefix}${provider.name}?token=${RECEIPT_TOKEN}`,
      payload:
        provider.name === 'aliyun'
          ? [{ biz_id: other.provider_message_id, success: false, err_code: 'MK:0001', err_msg: '空号' }]
          : [{ sid: other.provider_message_id, report_status: 'FAIL', errmsg: 'MN:0001', description: '空号' }],
    });
    expect(response.statusCode).toBe(200);
    expect((await rows(app)).find((r) => r.id === other.id)).toMatchObject({
      state: 'failed',
      error_code: provider.name === 'aliyun' ? 'MK:0001' : 'MN:0001',
      error_detail: '空号',
    });
  });

  it('tries a throttled code again at once and sends it, logging the phone masked', async () => {
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const app = await start({}, fakeClock(T0).now, undefined, { logger: 'warn', logStream });
    const before = fake.sends.length;
    fake.throttleNext(1);
    expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
    await app.delivery.idle();
    expect(fake.sends.length).toBe(before + 1);
    const [row] = (await rows(app)).filter((r) => r.kind === 'loginCode');
    expect(row).toMatchObject({ state: 'sent', provider_message_id: fake.sends[before]!.messageId });
    // Development (the outbox on): the row shows the code the phone got.
    expect(row!.body).toContain(provider.values(fake.sends[before]!.params, ['code']).code!);
    const log = lines.join('');
    expect(log).toContain('sms not sent, will try again');
    expect(log).toContain('138****8000');
    expect(log).not.toContain(DEMO.phone);
  });

  it('is refused by the gateway when signed with another key: the code is recorded failed with its error, not retried', async () => {
    const secret = provider.name === 'aliyun' ? 'ALIYUN_SMS_ACCESS_KEY_SECRET' : 'TENCENT_SMS_SECRET_KEY';
    const app = await start({ [secret]: randomBytes(16).toString('hex') }, fakeClock(T0).now);
    const refusedBefore = fake.refused.length;
    const sendsBefore = fake.sends.length;
    expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
    await app.delivery.idle();
    expect(fake.sends.length).toBe(sendsBefore);
    const expected = provider.name === 'aliyun' ? 'SignatureDoesNotMatch' : 'AuthFailure.SignatureFailure';
    expect(fake.refused.slice(refusedBefore)).toEqual([expected]);
    const [row] = (await rows(app)).filter((r) => r.kind === 'loginCode');
    expect(row).toMatchObject({ state: 'failed', provider: provider.name, error_code: expected });
  });

  it("site sms-test sends a kind's template with sample values through the provider", async () => {
    const dataDir = tempDir();
    const run = async (env: Record<string, string>, ...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runSiteCli(argv, {
        stdout: (line) => out.push(line),
        stderr: (line) => err.push(line),
        env: postgresEnv({
          DATA_DIR: dataDir,
          SEED_DIR: FIXTURE_SEED,
          DATABASE_URL: await databaseFor(dataDir),
          ...providerEnv,
          SMS_TEMPLATES: templatesFor(provider),
          ...env,
        }),
        now: () => T0,
      });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const before = fake.sends.length;
    const sent = await run({}, 'sms-test', '--to', '13900002222', '--kind', 'ballotWon');
    expect(sent.code, sent.err).toBe(0);
    expect(sent.out).toContain(
      `sent ballotWon to 139****2222 through ${provider.name}: template ${provider.code(902)}`,
    );
    expect(sent.out).not.toContain('13900002222');
    const [message] = fake.sends.slice(before);
    expect(message).toMatchObject({ phone: provider.phone('13900002222'), template: provider.code(902) });
    expect(provider.values(message!.params, ['race', 'entryNo', 'orderNo', 'amount', 'deadline'])).toMatchObject({
      race: '测试赛事',
      amount: '0.01',
    });
    // Refused: the outbox, an unknown kind, a missing --to; a key missing names it.
    expect((await run({ SMS_PROVIDER: 'outbox' }, 'sms-test', '--to', '13900002222')).err).toMatch(
      /SMS_PROVIDER is outbox/,
    );
    expect((await run({}, 'sms-test', '--to', '13900002222', '--kind', 'nope')).code).toBe(1);
    expect((await run({}, 'sms-test')).code).toBe(2);
    const key = provider.name === 'aliyun' ? 'ALIYUN_SMS_SIGN_NAME' : 'TENCENT_SMS_SIGN_NAME';
    expect((await run({ [key]: '' }, 'sms-test', '--to', '13900002222')).err).toContain(`${key} must be set`);
    expect(fake.sends.length).toBe(before + 1);
  });

  it('refuses receipts with a wrong token (403), a body not in its form (400, the envelope) or for another provider (404)', async () => {
    const app = await start({}, fakeClock(T0).now);
    const post = (url: string, payload: string) =>
      app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
    const good = `${API_PATHS.smsReceiptPrefix}${provider.name}?token=${RECEIPT_TOKEN}`;
    const wrong = await post(`${API_PATHS.smsReceiptPrefix}${provider.name}?token=${'x'.repeat(24)}`, '[]');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 403, msgCode: 'verificationFailed' });
    expect((await post(`${API_PATHS.smsReceiptPrefix}${provider.name}`, '[]')).statusCode).toBe(403);
    for (const body of ['{', '{}', '[{"x":1}]', '[null]', '"text"']) {
      const bad = await post(good, body);
      expect(bad.statusCode, body).toBe(400);
      expect(bad.json(), body).toMatchObject({ code: 400, msgCode: 'invalidRequest' });
    }
    const other = provider.name === 'aliyun' ? 'tencent' : 'aliyun';
    expect((await post(`${API_PATHS.smsReceiptPrefix}${other}?token=${RECEIPT_TOKEN}`, '[]')).statusCode).toBe(404);
    // An empty batch, or a receipt of a message we never sent: answered, nothing changes.
    expect((await post(good, '[]')).statusCode).toBe(200);
  });

  it('stops the start naming a kind without a template, a variable that is not the kind’s, and a missing key', async () => {
    const now = fakeClock(T0).now;
    await expect(start({ SMS_TEMPLATES: templatesFor(provider, 'ballotWon') }, now)).rejects.toThrow(
      /SMS_TEMPLATES: ballotWon has no template/,
    );
    const withIdNumber = JSON.parse(templatesFor(provider)) as Record<string, unknown>;
    withIdNumber.orderPaid = { template: provider.code(903), params: ['race', 'idNumber'] };
    await expect(start({ SMS_TEMPLATES: JSON.stringify(withIdNumber) }, now)).rejects.toThrow(
      /SMS_TEMPLATES: orderPaid\.params names "idNumber", not a variable of orderPaid/,
    );
    await expect(start({ SMS_TEMPLATES: '' }, now)).rejects.toThrow(/SMS_TEMPLATES must be set/);
    const key = provider.name === 'aliyun' ? 'ALIYUN_SMS_ACCESS_KEY_SECRET' : 'TENCENT_SMS_SECRET_KEY';
    await expect(start({ [key]: '' }, now)).rejects.toThrow(
      new RegExp(`${key} must be set with SMS_PROVIDER=${provider.name}`),
    );
  });
});

describe("the organisers' guide (docs/sms-providers.md)", () => {
  it('lists every kind of message with the variables its templates may use, as the code has them', () => {
    const guide = readFileSync(path.resolve(import.meta.dirname, '../../docs/sms-providers.md'), 'utf8');
    const doc = guide.split('## The kinds of message')[1]!.split('\n## ')[0]!;
    const listed = Object.fromEntries(
      [...doc.matchAll(/^\| `(\w+)`\s*\|[^|]*\|\s*([\w, ]+?)\s*\|$/gm)].map((m) => [m[1]!, m[2]!.split(/,\s*/)]),
    );
    expect(listed).toEqual(Object.fromEntries(SMS_KIND_NAMES.map((kind) => [kind, [...SMS_KINDS[kind]]])));
  });
});

describe('SMS_PROVIDER=outbox (the default)', () => {
  it('keeps codes and messages in the outbox, sends nothing, serves no receipt and warns in production', async () => {
    const clock = fakeClock(T0);
    const app = await buildTestApp({ now: clock.now, env: { ...process.env, RATE_LIMITS: 'off', JOBS: 'off' } });
    try {
      expect((await sendCode(app, 'login', DEMO.phone)).json().code).toBe(0);
      await app.delivery.idle();
      const userId = (await app.repos.users.findByPhone(DEMO.phone))!.id;
      await app.repos.outbox.add({
        channel: 'sms',
        destination: DEMO.phone,
        subject: 's',
        body: 'b',
        createdAt: T0,
        sms: { kind: 'orderPaid', params: { race: 'r', orderNo: 'o', amount: '1.00', raceEn: 'r' } },
      });
      expect(userId).toBeGreaterThan(0);
      // The development outbox shows the code as before.
      const [code] = await rows(app);
      expect(code!.body).toMatch(/\d{6}/);
      expect(await app.delivery.sendQueued()).toEqual({ sent: 0, failed: 0, retried: 0 });
      expect((await rows(app)).map((r) => [r.state, r.provider])).toEqual([
        ['sent', 'outbox'],
        ['sent', 'outbox'],
      ]);
      const receipt = await app.inject({ method: 'POST', url: `${API_PATHS.smsReceiptPrefix}outbox`, payload: [] });
      expect(receipt.statusCode).toBe(404);
    } finally {
      await app.close();
    }

    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const production = await buildTestApp({
      env: { ...process.env, NODE_ENV: 'production', PAYMENT_PROVIDER: 'sandbox', JOBS: 'off' },
      logger: 'warn',
      logStream,
    });
    await production.close();
    expect(lines.join('')).toContain('WARNING: SMS_PROVIDER is outbox with NODE_ENV=production');
  });
});
