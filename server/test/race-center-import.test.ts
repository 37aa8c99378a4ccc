import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from '../src/db/engine.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { parseCsv } from '../src/lib/csv.ts';
import { buildTestApp, FIXTURE_RACE_ID, FIXTURE_SEED, removeTempDirs, siteCli, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

function setup() {
  const dataDir = tempDir();
  const files = tempDir('race-site-csv-');
  const run = siteCli(dataDir);
  const file = (name: string, text: string) => {
    const p = path.join(files, name);
    writeFileSync(p, text);
    return p;
  };
  const count = async (table: string) => {
    const app = await buildTestApp({ dataDir, seedDir: FIXTURE_SEED, seedDemoAccount: false });
    try {
      return (await app.db.get<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${table}`)))?.n;
    } finally {
      await app.close();
    }
  };
  return { dataDir, run, file, count };
}

const RESULTS = [
  'bib,name,gender,certificateNumber,birthday,item,gunTime,chipTime,5K,10K,HALF',
  '1001,赵六,M,320102199001011237,1990-01-01,H,1:35:10,1:34:00,0:21:00,0:43:30,',
  '"1002","钱七,小",女,E99887766,1985-05-05,10K,0:50:01,0:49:00,0:24:00,,',
  '',
].join('\r\n');

describe('CSV reader', () => {
  it('reads quotes, commas and line breaks in fields, CRLF, a BOM, with the starting line of each record', async () => {
    const records = parseCsv('\uFEFFa,b\r\n"x, ""y""","multi\nline"\r\n\r\nlast,\n');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, "y"', 'multi\nline'] },
      { line: 5, fields: ['last', ''] },
    ]);
  });
});

describe('site import-*', () => {
  it('documents the three imports and their columns in site help', async () => {
    const { run } = setup();
    const help = (await run('help')).out;
    for (const text of [
      'import-results <raceId> <file.csv>',
      'import-registrations',
      'import-photos',
      'line N: field: problem',
    ]) {
      expect(help).toContain(text);
    }
    expect((await run('import-results', FIXTURE_RACE_ID)).code).toBe(2);
  });

  it('imports results with splits and ranks, answered by the score lookup', async () => {
    const { run, file, dataDir } = setup();
    const res = await run('import-results', FIXTURE_RACE_ID, file('results.csv', RESULTS));
    expect(res).toMatchObject({ code: 0, out: `imported 2 results into ${FIXTURE_RACE_ID} (2025 测试马拉松)` });
    const app = await buildTestApp({
      dataDir,
      seedDir: FIXTURE_SEED,
      seedDemoAccount: false,
      env: { RATE_LIMITS: 'off' },
    });
    try {
      const body = (
        await app.inject({
          method: 'POST',
          url: API_PATHS.searchScore,
          payload: { raceId: FIXTURE_RACE_ID, bib: '1001' },
        })
      ).json();
      expect(body.data[0]).toMatchObject({
        name: '赵六',
        item: 'H',
        gunTime: '1:35:10',
        chipTime: '1:34:00',
        ranks: { overall: 1, gender: 1, ageGroup: 1, ageGroupLabel: 'M35-39', finishers: 1 },
      });
      expect(body.data[0].splits.map((s: { checkpoint: string; time: string }) => `${s.checkpoint} ${s.time}`)).toEqual(
        ['5K 0:21:00', '10K 0:43:30'],
      );
      const byCert = await app.inject({
        method: 'POST',
        url: API_PATHS.searchScore,
        payload: { raceId: FIXTURE_RACE_ID, name: '钱七,小', certificateNumber: 'e99887766' },
      });
      expect(byCert.json().data[0].bib).toBe('1002');
    } finally {
      await app.close();
    }
  });

  it('reports every bad row with its line number and field, and writes nothing', async () => {
    const { run, file, count } = setup();
    const bad = [
      'bib,name,gender,certificateNumber,birthday,item,chipTime,5K',
      '1,好人,1,E11111111,1990-01-01,10K,0:45:00,0:22:00',
      '2,,X,E22222222,1990-02-30,5K,abc,',
      '1,重复,2,E33333333,1990-01-01,10K,0:50:00,0:51:00',
      '3,短行,1',
    ].join('\n');
    const res = await run('import-results', FIXTURE_RACE_ID, file('bad.csv', bad));
    expect(res.code).toBe(1);
    expect(res.err).toContain('Nothing imported from');
    for (const line of [
      'line 3: name: is required',
      'line 3: gender: must be 1/M/男 or 2/F/女',
      'line 3: birthday: must be a date YYYY-MM-DD',
      `line 3: item: no item "5K" in race ${FIXTURE_RACE_ID} (its items: M, H, 10K)`,
      'line 3: chipTime: must be a time H:MM:SS',
      'line 4: bib: duplicate of line 2',
      'line 4: 5K: must be less than the chip time',
      'line 5: expected 8 fields, found 3',
    ]) {
      expect(res.err).toContain(line);
    }
    expect(res.err).not.toContain('line 2:');
    expect(await count('results')).toBe(0);
  });

  it("imports results of any item of the race (race.json entry.items: 5K, 30K, HM, a trail), by the race's names", async () => {
    const { run, file, dataDir } = setup();
    const item = (code: string, zh: string, en: string, distanceKm?: number) => ({
      code,
      name: { zh, en },
      capacity: 100,
      feeFen: 0,
      model: 'firstCome',
      ...(distanceKm === undefined ? {} : { distanceKm }),
    });
    const race = {
      raceId: 'own-items-2027',
      raceName: '2027 自有项目赛',
      startTime: '2027-04-18 07:30:00',
      entry: {
        allowMultiple: false,
        items: [
          item('5K', '5公里', '5 km', 5),
          item('30K', '30公里', '30 km', 30),
          item('HM', '半程马拉松', 'Half marathon'),
          item('TRAIL-50', '50公里越野', '50 km trail', 50),
        ],
      },
    };
    const added = await run('add-race', file('race.json', JSON.stringify(race)));
    expect(added.code, added.err).toBe(0);

    // An item the race does not have (M is not one of its items): a clear error on its line, nothing written.
    const header = 'bib,name,gender,certificateNumber,birthday,item,chipTime,10K,25K';
    const rows = [
      '501,跑者甲,1,E50000001,1990-01-01,5K,0:21:30,,',
      '502,跑者乙,2,E50000002,1991-01-01,30k,2:30:00,0:48:00,2:05:00',
      '503,跑者丙,1,E50000003,1992-01-01,HM,1:40:00,0:47:00,',
      '504,跑者丁,2,E50000004,1993-01-01,trail-50,6:10:00,1:05:00,2:55:00',
    ];
    const bad = await run(
      'import-results',
      race.raceId,
      file('bad.csv', [header, ...rows, '505,跑者戊,1,E50000005,1990-01-01,M,3:10:00,,'].join('\n')),
    );
    expect(bad.code).toBe(1);
    expect(bad.err).toContain(`line 6: item: no item "M" in race ${race.raceId} (its items: 5K, 30K, HM, TRAIL-50)`);
    expect(bad.err).not.toContain('line 2:');

    // A checkpoint beyond the item's distance (race.json distanceKm) is still refused.
    const beyond = await run(
      'import-results',
      race.raceId,
      file('beyond.csv', [header, '506,跑者己,1,E50000006,1990-01-01,5K,0:25:00,0:20:00,'].join('\n')),
    );
    expect(beyond.err).toContain('line 2: 10K: is beyond the 5 km distance');

    const good = await run('import-results', race.raceId, file('good.csv', [header, ...rows].join('\n')));
    expect(good).toMatchObject({ code: 0, out: `imported 4 results into ${race.raceId} (2027 自有项目赛)` });

    const app = await buildTestApp({
      dataDir,
      seedDir: FIXTURE_SEED,
      seedDemoAccount: false,
      env: { RATE_LIMITS: 'off' },
    });
    try {
      const score = async (bib: string) =>
        (await app.inject({ method: 'POST', url: API_PATHS.searchScore, payload: { raceId: race.raceId, bib } })).json()
          .data[0];
      expect(await score('502')).toMatchObject({
        item: '30K',
        itemName: '30公里',
        itemNameEn: '30 km',
        distanceKm: 30,
        chipTime: '2:30:00',
        pace: '5:00',
        ranks: { overall: 1, finishers: 1 },
      });
      expect(await score('504')).toMatchObject({ item: 'TRAIL-50', itemNameEn: '50 km trail', distanceKm: 50 });
      expect(await score('503')).toMatchObject({ item: 'HM', itemName: '半程马拉松' });
      const sheet = await app.inject({
        method: 'POST',
        url: API_PATHS.exportScores,
        payload: { raceId: race.raceId, item: 'TRAIL-50' },
      });
      expect(sheet.statusCode).toBe(200);
      expect(sheet.body).toContain('50公里越野');
      expect(sheet.body).not.toContain('跑者甲');
    } finally {
      await app.close();
    }
  });

  it('imports registrations masked and hashed, and rejects bad phones and certificate numbers', async () => {
    const { run, file, dataDir } = setup();
    const header =
      'name,gender,birthday,certificateType,certificateNumber,phone,emergencyName,emergencyPhone,item,status,bib,orderNo,amountPaid,orderAmount,payTime';
    const good = `${header}\n孙八,1,2010-06-01,1,32010220100601108X,13800001111,孙父,13900002222,10K,1,C1,QC1,100,100,2025-08-02 10:00:00\n`;
    expect((await run('import-registrations', FIXTURE_RACE_ID, file('reg.csv', good))).code).toBe(0);
    const app = await buildTestApp({
      dataDir,
      seedDir: FIXTURE_SEED,
      seedDemoAccount: false,
      env: { RATE_LIMITS: 'off' },
    });
    try {
      const stored = JSON.stringify(await app.db.all(sql`SELECT * FROM registrations`));
      expect(stored).not.toContain('32010220100601108X');
      expect(stored).not.toContain('13800001111');
      const res = await app.inject({
        method: 'POST',
        url: API_PATHS.searchRegistration,
        payload: { raceId: FIXTURE_RACE_ID, name: '孙八', certificateNumber: '32010220100601108x', queryType: 3 },
      });
      expect(res.json().data).toMatchObject({
        status: 1,
        statusKey: 'won',
        bib: 'C1',
        participant: { certificateNumber: '3201**********108X', phone: '138****1111', adult: false, age: 15 },
        orders: [expect.objectContaining({ orderNo: 'QC1', amountPaid: 100 })],
      });
    } finally {
      await app.close();
    }
    const bad = `${header}\n周九,1,1990-01-01,1,1234,1380000,周九,1380000,M,9,,,,,\n`;
    const res = await run('import-registrations', FIXTURE_RACE_ID, file('bad-reg.csv', bad));
    expect(res.code).toBe(1);
    for (const line of [
      'line 2: certificateNumber: not a valid 18-character ID number',
      'line 2: phone: must be 11 digits starting with 1',
      'line 2: emergencyName: must differ',
      'line 2: status: must be 0..5',
    ]) {
      expect(res.err).toContain(line);
    }
  });

  it('imports the registration channel (web, app, third-party with its platform) and answers it by query type', async () => {
    const { run, file, dataDir } = setup();
    const csv = [
      'name,gender,birthday,certificateType,certificateNumber,phone,emergencyName,emergencyPhone,item,status,channel,channelName,channelNameEn',
      '吴一,1,1990-01-01,2,E10000001,13800000001,吴父,13900000001,M,1,,,',
      '吴二,2,1990-01-01,2,E10000002,13800000002,吴父,13900000002,H,0,app,,',
      '吴三,1,1990-01-01,2,E10000003,13800000003,吴父,13900000003,10K,1,third-party,青川体育旅行,Qingchuan Sports Travel',
      '吴四,1,1990-01-01,2,E10000004,13800000004,吴父,13900000004,M,2,5,,',
      '吴五,1,1990-01-01,2,E10000005,13800000005,吴父,13900000005,M,2,2,运河公益基金会,',
      '吴六,1,1990-01-01,2,E10000006,13800000006,吴父,13900000006,M,2,WEB,,',
    ].join('\n');
    expect(await run('import-registrations', FIXTURE_RACE_ID, file('channels.csv', csv))).toMatchObject({ code: 0 });
    const app = await buildTestApp({
      dataDir,
      seedDir: FIXTURE_SEED,
      seedDemoAccount: false,
      env: { RATE_LIMITS: 'off' },
    });
    try {
      const stored = await app.db.all(
        sql`SELECT name, channel, channel_name, channel_name_en FROM registrations ORDER BY id`,
      );
      expect(stored).toEqual([
        { name: '吴一', channel: 3, channel_name: null, channel_name_en: null },
        { name: '吴二', channel: 5, channel_name: null, channel_name_en: null },
        { name: '吴三', channel: 2, channel_name: '青川体育旅行', channel_name_en: 'Qingchuan Sports Travel' },
        { name: '吴四', channel: 5, channel_name: null, channel_name_en: null },
        { name: '吴五', channel: 2, channel_name: '运河公益基金会', channel_name_en: null },
        { name: '吴六', channel: 3, channel_name: null, channel_name_en: null },
      ]);
      const ask = async (name: string, certificateNumber: string, queryType: number) =>
        (
          await app.inject({
            method: 'POST',
            url: API_PATHS.searchRegistration,
            payload: { raceId: FIXTURE_RACE_ID, name, certificateNumber, queryType },
          })
        ).json();
      expect((await ask('吴三', 'E10000003', 1)).data).toMatchObject({
        channel: 2,
        channelKey: 'thirdParty',
        channelName: '青川体育旅行',
        channelNameEn: 'Qingchuan Sports Travel',
      });
      expect((await ask('吴三', 'E10000003', 2)).data.participant.certificateNumber).toBe('E1*****03');
      expect((await ask('吴三', 'E10000003', 3)).msg).toBe('Registration information does not exist');
      expect((await ask('吴二', 'E10000002', 5)).data.channelKey).toBe('app');
    } finally {
      await app.close();
    }
  });

  it('reports a bad channel as line N: channel, and writes nothing', async () => {
    const { run, file, count } = setup();
    const csv = [
      'name,gender,birthday,certificateType,certificateNumber,phone,emergencyName,emergencyPhone,item,status,channel,channelName',
      '郑一,1,1990-01-01,2,E20000001,13800000001,郑父,13900000001,M,1,web,',
      '郑二,1,1990-01-01,2,E20000002,13800000002,郑父,13900000002,M,1,wechat,',
      '郑三,1,1990-01-01,2,E20000003,13800000003,郑父,13900000003,M,1,4,',
      '郑四,1,1990-01-01,2,E20000004,13800000004,郑父,13900000004,M,1,app,青川体育旅行',
    ].join('\n');
    const res = await run('import-registrations', FIXTURE_RACE_ID, file('bad-channel.csv', csv));
    expect(res.code).toBe(1);
    for (const line of [
      'line 3: channel: must be web, app or third-party (or 3, 5, 2)',
      'line 4: channel: must be web, app or third-party (or 3, 5, 2)',
      'line 5: channelName: only for third-party registrations',
    ]) {
      expect(res.err).toContain(line);
    }
    expect(res.err).not.toContain('line 2:');
    expect(await count('registrations')).toBe(0);
  });

  it('imports a photo index, and refuses an unknown race or a missing column', async () => {
    const { run, file, count } = setup();
    const good = 'bib,url,takenAt\n1001,demo/gallery/gallery-01.svg,2025-11-02 08:10:00\n';
    expect(await run('import-photos', FIXTURE_RACE_ID, file('p.csv', good))).toMatchObject({ code: 0 });
    expect(await count('photos')).toBe(1);
    expect((await run('import-photos', 'no-such-race', file('p2.csv', good))).err).toContain(
      'race "no-such-race" does not exist',
    );
    const bad = 'bib,url,takenAt\n1,/files/x.svg,2025-11-02 08:10:00\n2,javascript:alert(1),2025-11-02 08:10:00\n';
    const refused = (await run('import-photos', FIXTURE_RACE_ID, file('p4.csv', bad))).err;
    expect(refused).toContain('line 2: url: must be an http(s) URL or a path on the file host');
    expect(refused).toContain('line 3: url:');
    expect(await count('photos')).toBe(1);
    expect((await run('import-photos', FIXTURE_RACE_ID, file('p3.csv', 'bib,url\n1,/x.svg\n'))).err).toContain(
      'line 1: missing column(s): takenAt',
    );
  });
});
