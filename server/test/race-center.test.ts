import type { FastifyInstance } from 'fastify';
import { sql } from '../src/db/engine.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS } from '#contract/api';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs } from './helpers.ts';
import { LI, PAST_RACE_ID, seedRaceCenterFixture, WANG, ZHANG } from './race-center-fixture.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ env: { RATE_LIMITS: 'off', CERT_SECRET: 'test-secret' } });
  await seedRaceCenterFixture(app);
});

afterAll(async () => {
  await app.close();
  removeTempDirs();
});

const post = (url: string, payload: Record<string, unknown>) => app.inject({ method: 'POST', url, payload });

/** No 11-digit mobile, no 18-character ID number, no 15-digit old ID number anywhere in the text. */
function expectNothingUnmasked(text: string) {
  expect(text).not.toMatch(/(?<![\dA-Z])1[3-9]\d{9}(?!\d)/);
  expect(text).not.toMatch(/(?<![\dA-Z])\d{17}[\dX](?![\dA-Z])/);
  expect(text).not.toMatch(/(?<![\dA-Z])\d{15}(?![\dA-Z])/);
  expect(text).not.toContain(ZHANG.certNo);
  expect(text).not.toContain('E12345678');
}

describe('registration lookup', () => {
  const ask = (runner: { name: string; certNo: string }, queryType?: unknown) =>
    post(API_PATHS.searchRegistration, {
      raceId: FIXTURE_RACE_ID,
      name: runner.name,
      certificateNumber: runner.certNo,
      ...(queryType === undefined ? {} : { queryType }),
    });

  it('answers the status of any channel by default (query type 1), without orders or personal fields', async () => {
    for (const res of [await ask(ZHANG), await ask(ZHANG, 1)]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        code: 0,
        msg: 'success',
        data: {
          queryType: 1,
          raceId: FIXTURE_RACE_ID,
          raceName: expect.any(String),
          raceNameEn: expect.any(String),
          status: 1,
          statusKey: 'won',
          item: 'M',
          itemName: '马拉松',
          itemNameEn: expect.any(String),
          bib: 'A00001',
          channel: 3,
          channelKey: 'web',
          channelName: '',
          channelNameEn: '',
          participant: { name: '张*' },
        },
      });
      expectNothingUnmasked(res.body);
    }
    const wang = (await ask(WANG, 1)).json().data;
    expect(wang).toMatchObject({
      status: 2,
      channel: 2,
      channelKey: 'thirdParty',
      channelName: '青川体育旅行',
      channelNameEn: 'Qingchuan Sports Travel',
    });
    expect(wang).not.toHaveProperty('orders');
    expect((await ask(LI, 1)).json().data).toMatchObject({
      channel: 5,
      channelKey: 'app',
      participant: { name: '李*' },
    });
  });

  it('answers the web registration info (type 3), masked, with the participant and the order', async () => {
    const res = await post(API_PATHS.searchRegistration, {
      raceId: FIXTURE_RACE_ID,
      name: ZHANG.name,
      certificateNumber: ` ${ZHANG.certNo.toLowerCase()} `,
      queryType: 3,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({ queryType: 3, status: 1, statusKey: 'won', channel: 3, channelKey: 'web' });
    expect(body.data.participant).toMatchObject({
      name: '张伟',
      certificateType: 1,
      certificateNumber: `3201**********${ZHANG.certNo.slice(-4)}`,
      phone: '138****5678',
      birthday: '1990-01-01',
      age: 35,
      adult: true,
    });
    expect(body.data.participant.emergencyPhone).toMatch(/^1\d\d\*{4}\d{4}$/);
    expect(body.data.orders[0]).toEqual(
      expect.objectContaining({
        orderNo: expect.any(String),
        subOrderNo: expect.any(String),
        createTime: expect.any(String),
        serialNo: expect.any(String),
        payTime: expect.any(String),
        amountPaid: expect.any(Number),
        orderAmount: 200,
        coupon: expect.any(String),
        discount: expect.any(Number),
      }),
    );
    expectNothingUnmasked(res.body);
  });

  it('answers the app (type 5) and third-party (type 2) registration info of runners who registered there', async () => {
    const app5 = await ask(LI, 5);
    expect(app5.headers['cache-control']).toBe('no-store');
    expect(app5.json().data).toMatchObject({
      queryType: 5,
      channelKey: 'app',
      participant: { name: '李娜', phone: '139****5678' },
      orders: [expect.objectContaining({ orderAmount: 200 })],
    });
    const third = await ask(WANG, 2);
    expect(third.json().data).toMatchObject({
      queryType: 2,
      channelKey: 'thirdParty',
      channelName: '青川体育旅行',
      participant: { name: '王芳', certificateType: 2, certificateNumber: 'E1*****78', phone: '137****5678' },
    });
    expectNothingUnmasked(app5.body + third.body);
  });

  it("answers 'Registration information does not exist' for another channel's info", async () => {
    const missing = {
      code: 404,
      msg: 'Registration information does not exist',
      data: null,
      msgCode: 'registrationMissing',
    };
    for (const [runner, type] of [
      [ZHANG, 2],
      [ZHANG, 5],
      [LI, 3],
      [LI, 2],
      [WANG, 3],
      [WANG, 5],
    ] as const) {
      const res = await ask(runner, type);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual(missing);
    }
  });

  it('answers the dictionary message for an unknown name or certificate number', async () => {
    const wrongName = await post(API_PATHS.searchRegistration, {
      raceId: FIXTURE_RACE_ID,
      name: '李四',
      certificateNumber: ZHANG.certNo,
    });
    expect(wrongName.json()).toEqual({
      code: 404,
      msg: 'Registration information does not exist',
      data: null,
      msgCode: 'registrationMissing',
    });
    const wrongCert = await post(API_PATHS.searchRegistration, {
      raceId: FIXTURE_RACE_ID,
      name: LI.name,
      certificateNumber: ZHANG.certNo,
      queryType: 5,
    });
    expect(wrongCert.json().msg).toBe('Registration information does not exist');
  });

  it('rejects an unknown query type with a 400 envelope that names the allowed ones', async () => {
    for (const queryType of [4, 6, 0, -1, '7', 'web', null, 2.5, { a: 1 }]) {
      const res = await ask(ZHANG, queryType);
      expect([queryType, res.statusCode]).toEqual([queryType, 400]);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        code: 400,
        msg: 'queryType must be 1 (registration status), 2 (third-party), 3 (web) or 5 (app registration info)',
        data: null,
        msgCode: 'badQueryType',
      });
    }
  });

  it('rejects a body without the certificate number', async () => {
    const res = await post(API_PATHS.searchRegistration, { raceId: FIXTURE_RACE_ID, name: ZHANG.name });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
    expect(res.json().msg).toContain('certificateNumber');
  });
});

describe('score lookup', () => {
  it('finds a result by exact bib, with times, splits, pace, ranks and a certificate; cached publicly', async () => {
    const res = await post(API_PATHS.searchScore, { raceId: PAST_RACE_ID, bib: 'a00001' });
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const body = res.json();
    expect(body.code).toBe(0);
    const [result] = body.data;
    expect(result).toMatchObject({
      raceId: PAST_RACE_ID,
      raceName: '2024 测试马拉松',
      bib: 'A00001',
      name: '张伟',
      item: 'M',
    });
    expect(result.chipTime).toMatch(/^\d:\d\d:\d\d$/);
    expect(result.pace).toMatch(/^\d+:\d\d$/);
    expect(result.splits.map((s: { checkpoint: string }) => s.checkpoint)).toEqual([
      '5K',
      '10K',
      '15K',
      '20K',
      'HALF',
      '25K',
      '30K',
      '35K',
      '40K',
    ]);
    expect(result.ranks.overall).toBeGreaterThanOrEqual(1);
    expect(result.ranks.overall).toBeLessThanOrEqual(result.ranks.finishers);
    expect(result.certificate).toEqual({ id: `${PAST_RACE_ID}:A00001`, sig: expect.any(String) });
    expectNothingUnmasked(res.body);
  });

  it('answers a repeated bib from the race-day cache until the data behind it changes, compressed for browsers that accept it', async () => {
    const clock = fakeClock();
    const cached = await buildTestApp({
      now: clock.now,
      env: { RATE_LIMITS: 'off', CERT_SECRET: 'test-secret' },
      dataVersionPollMs: 40,
    });
    try {
      await seedRaceCenterFixture(cached);
      const ask = (encoding: string) =>
        cached.inject({
          method: 'POST',
          url: API_PATHS.searchScore,
          headers: { 'accept-encoding': encoding },
          payload: { raceId: PAST_RACE_ID, bib: 'A00001' },
        });
      const nameNow = async () => (await ask('identity')).json().data[0].name as string;
      const plain = await ask('identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const first = plain.json();
      expect(first.data[0].bib).toBe('A00001');

      const br = await ask('gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(br.headers['cache-control']).toBe('public, max-age=60');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
      const gzip = await ask('gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);

      // A correction made by hand in the database (no data version raised) shows after 15 minutes at the latest.
      const rename = (name: string) =>
        cached.db.run(sql`UPDATE results SET name = ${name} WHERE race_id = ${PAST_RACE_ID} AND bib = ${'A00001'}`);
      await rename('张伟伟');
      clock.advance(15 * 60_000 - 1_000);
      expect(await nameNow()).toBe('张伟');
      clock.advance(1_000);
      expect(await nameNow()).toBe('张伟伟');

      // A correction through this instance's repository shows at once.
      const row = await cached.repos.raceCenter.resultByBib(PAST_RACE_ID, 'A00001');
      await cached.repos.raceCenter.upsertResult({ ...row!, name: '张伟' });
      expect(await nameNow()).toBe('张伟');

      // One by another instance or the CLI (the race's data version raised in the database) shows within a
      // poll, with no time passing on the clock.
      await rename('张伟三');
      await cached.db.run(sql`UPDATE race_data_versions SET version = version + 1 WHERE race_id = ${PAST_RACE_ID}`);
      await vi.waitFor(async () => expect(await nameNow()).toBe('张伟三'), { timeout: 30_000, interval: 20 });
    } finally {
      await cached.close();
    }
  });

  it('matches bibs exactly: "100" does not return 1000–1009', async () => {
    const res = await post(API_PATHS.searchScore, { raceId: PAST_RACE_ID, bib: '100' });
    const body = res.json();
    expect(body.data).toHaveLength(1);
    expect(body.data[0].bib).toBe('100');
    const none = await post(API_PATHS.searchScore, { raceId: PAST_RACE_ID, bib: '10' });
    expect(none.json()).toEqual({
      code: 404,
      msg: 'Your score information was not found...',
      data: null,
      msgCode: 'scoreMissing',
    });
  });

  it('finds results by name and certificate number, not cached', async () => {
    const res = await post(API_PATHS.searchScore, {
      raceId: PAST_RACE_ID,
      name: ZHANG.name,
      certificateNumber: ZHANG.certNo,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().data[0].bib).toBe('A00001');
    expectNothingUnmasked(res.body);
  });

  it('answers the dictionary message when nothing matches, and 400 without bib or certificate', async () => {
    const res = await post(API_PATHS.searchScore, {
      raceId: FIXTURE_RACE_ID,
      name: ZHANG.name,
      certificateNumber: ZHANG.certNo,
    });
    expect(res.json().msg).toBe('Your score information was not found...');
    const bad = await post(API_PATHS.searchScore, { raceId: PAST_RACE_ID, name: ZHANG.name });
    expect(bad.statusCode).toBe(400);
  });
});

describe('PB, history and photos', () => {
  it('answers the best chip time per item and the history across races', async () => {
    const pb = await post(API_PATHS.searchPb, { name: ZHANG.name, certificateNumber: ZHANG.certNo });
    expect(pb.headers['cache-control']).toBe('no-store');
    expect(pb.json().data).toEqual([
      expect.objectContaining({ item: 'M', itemName: '马拉松', raceId: PAST_RACE_ID, bib: 'A00001' }),
    ]);
    const history = await post(API_PATHS.searchHistory, { name: ZHANG.name, certificateNumber: ZHANG.certNo });
    expect(history.json().data).toHaveLength(1);
    expectNothingUnmasked(pb.body + history.body);
    const none = await post(API_PATHS.searchHistory, { name: '无此人', certificateNumber: ZHANG.certNo });
    expect(none.json().msg).toBe('Your score information was not found...');
    const filtered = await post(API_PATHS.searchHistory, {
      name: ZHANG.name,
      certificateNumber: ZHANG.certNo,
      raceIds: [FIXTURE_RACE_ID],
    });
    expect(filtered.json().code).toBe(404);
  });

  it('lists the photos of a bib', async () => {
    const res = await post(API_PATHS.searchPhotos, { raceId: PAST_RACE_ID, bib: 'A00001' });
    const { data } = res.json();
    expect(data.length).toBeGreaterThan(0);
    expect(data[0]).toEqual({
      url: expect.stringMatching(/^demo\/gallery\/gallery-\d\d\.svg$/),
      takenAt: expect.stringMatching(/^2024-11-03 /),
    });
    expect((await post(API_PATHS.searchPhotos, { raceId: PAST_RACE_ID, bib: 'ZZZ' })).json().data).toEqual([]);
  });
});

describe('certificate verification', () => {
  const certificateOf = async (bib: string) =>
    (await post(API_PATHS.searchScore, { raceId: PAST_RACE_ID, bib })).json().data[0].certificate as {
      id: string;
      sig: string;
    };
  const verify = (query: Record<string, string>) =>
    app.inject({ method: 'GET', url: API_PATHS.certificateVerify, query });

  it('confirms a certificate issued by the server with its facts', async () => {
    const cert = await certificateOf('A00001');
    const body = (await verify(cert)).json();
    expect(body.data.valid).toBe(true);
    expect(body.data.facts).toMatchObject({ name: '张伟', bib: 'A00001', item: 'M', raceName: '2024 测试马拉松' });
  });

  it('fails an edited certificate: another bib, an altered signature, an unknown id', async () => {
    const cert = await certificateOf('A00001');
    const otherBib = (await verify({ id: `${PAST_RACE_ID}:A00002`, sig: cert.sig })).json();
    expect(otherBib).toEqual({
      code: 0,
      msg: "This certificate does not match the organiser's records",
      msgCode: 'certificateInvalid',
      data: { valid: false },
    });
    const flipped = cert.sig.startsWith('A') ? `B${cert.sig.slice(1)}` : `A${cert.sig.slice(1)}`;
    expect((await verify({ id: cert.id, sig: flipped })).json().data.valid).toBe(false);
    expect((await verify({ id: 'nope', sig: cert.sig })).json().data.valid).toBe(false);
  });

  it('fails when the stored result changed after the certificate was issued', async () => {
    const cert = await certificateOf('1001');
    await app.db.run(
      sql`UPDATE results SET chip_ms = chip_ms - 60000 WHERE race_id = ${PAST_RACE_ID} AND bib = ${'1001'}`,
    );
    expect((await verify(cert)).json().data.valid).toBe(false);
  });
});

describe('Excel export', () => {
  it('answers 没有查询到数据哦 when the race has no results', async () => {
    const res = await post(API_PATHS.exportScores, { raceId: FIXTURE_RACE_ID });
    expect(res.json()).toEqual({ code: 404, msg: '没有查询到数据哦', data: null, msgCode: 'noData' });
  });

  it('downloads an .xls of the results of an item, without personal numbers', async () => {
    const res = await post(API_PATHS.exportScores, { raceId: PAST_RACE_ID, item: '10K' });
    expect(res.headers['content-type']).toContain('application/vnd.ms-excel');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="scores-${PAST_RACE_ID}-10K.xls"`);
    expect(res.body).toContain('<Workbook');
    expect(res.body).toContain('号码1009');
    expect(res.body).not.toContain('张伟');
    expectNothingUnmasked(res.body);
  });
});

describe("Excel export in the visitor's language", () => {
  const headerRow = (body: string) => /<Row>(.*?)<\/Row>/.exec(body)?.[1] ?? '';

  it('writes Chinese headers, genders and item names by default and for zh', async () => {
    for (const payload of [
      { raceId: PAST_RACE_ID, item: '10K' },
      { raceId: PAST_RACE_ID, item: '10K', language: 'zh' },
    ]) {
      const body = (await post(API_PATHS.exportScores, payload)).body;
      expect(headerRow(body)).toContain('>号码<');
      expect(headerRow(body)).toContain('>枪声成绩<');
      expect(body).toMatch(/>(男|女)</);
      expect(body).not.toContain('>Bib<');
    }
  });

  it('writes English headers, genders and item names for en', async () => {
    const res = await post(API_PATHS.exportScores, { raceId: PAST_RACE_ID, item: '10K', language: 'en' });
    const body = res.body;
    expect(headerRow(body)).toBe(
      [
        'Item',
        'Bib',
        'Name',
        'Gender',
        'Gun time',
        'Net time',
        'Pace',
        'Overall rank',
        'Gender rank',
        'Age group',
        'Age group rank',
      ]
        .map((h) => `<Cell><Data ss:Type="String">${h}</Data></Cell>`)
        .join(''),
    );
    expect(body).toMatch(/>(Male|Female)</);
    expect(body).not.toMatch(/>(男|女|10公里)</);
    expect(body).toContain('>10 km<');
    // The fixture race has no English name: the sheet keeps its Chinese one.
    expect(body).toContain('ss:Name="2024 测试马拉松"');
    expectNothingUnmasked(body);
  });

  it('refuses a language it does not write', async () => {
    const res = await post(API_PATHS.exportScores, { raceId: PAST_RACE_ID, language: 'fr' });
    expect(res.json().code).toBe(400);
  });
});

describe('rate limits', () => {
  it('answers 429 after 60 lookups a minute from one address', async () => {
    const limited = await buildTestApp();
    try {
      const codes: number[] = [];
      for (let i = 0; i < 61; i++) {
        codes.push(
          (await limited.inject({ method: 'POST', url: API_PATHS.searchScore, payload: { raceId: 'x', bib: '1' } }))
            .statusCode,
        );
      }
      expect(codes.slice(0, 60).every((c) => c === 200)).toBe(true);
      expect(codes[60]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
