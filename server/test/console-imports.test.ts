/**
 * The console's results and photos imports (issue 32 §1; routes/admin/imports.ts): the preview writes nothing
 * and shows the first rows as they will be written and every bad row by its line; the import is the CLI's
 * (nothing written when any row is bad; results replace the same bib), audited as import.results /
 * import.photos, and listed in the race's history with the CLI's imports. Only the 'results' permission in
 * the race. Runs on both engines.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  importProblemText,
  type ImportDone,
  type ImportHistoryItem,
  type ImportPreview,
} from '#contract/console-imports';
import { sql } from '../src/db/engine.ts';
import { consoleMember, type ConsoleCaller } from './console-helpers.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, removeTempDirs, siteCli, tempDir } from './helpers.ts';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const HEADER = 'bib,name,gender,certificateNumber,birthday,item,gunTime,chipTime,5K,10K';
const GOOD = [
  HEADER,
  'C101,赵六,M,320102199001011237,1990-01-01,H,1:35:10,1:34:00,0:21:00,0:43:30',
  'C102,钱七,女,E99887766,1985-05-05,10K,0:50:01,0:49:00,0:24:00,',
  '',
].join('\r\n');
const BAD = [
  HEADER,
  'C201,孙八,M,320102199001011237,1990-01-01,H,1:35:10,1:34:00,,',
  'C202,李九,X,E99887766,1985-13-05,10K,0:50:01,0:49:00,,',
  'C201,周十,M,E11223344,1980-01-01,H,1:40:00,1:39:00,,',
  'C204,吴一,M,E55667788,1980-01-01,H,1:40:00',
  '',
].join('\n');
const PHOTOS = ['bib,url,takenAt', 'C101,https://photos.example.com/c101-1.jpg,2025-06-15 08:10:00', ''].join('\n');

const clock = fakeClock();
const dataDir = tempDir();
let app: FastifyInstance;
let owner: ConsoleCaller;
let results: ConsoleCaller;

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const imports = `/races/${FIXTURE_RACE_ID}/imports`;
const resultCount = async () =>
  (await app.db.get<{ n: number }>(sql`SELECT count(*) AS n FROM results WHERE race_id = ${FIXTURE_RACE_ID}`))?.n ?? 0;

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off', JOBS: 'off' }, now: clock.now });
  owner = await consoleMember(app, 'owner', clock.now);
  results = await consoleMember(app, 'results', clock.now);
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('results', () => {
  it('previews a bad file with every bad row by its line (in zh and en) and writes nothing; import refuses it', async () => {
    const before = await resultCount();
    const res = await results('POST', `${imports}/results/preview`, { content: base64(BAD), fileName: 'bad.csv' });
    expect(res.headers['cache-control']).toBe('no-store');
    const preview = res.json().data as ImportPreview;
    expect(preview).toMatchObject({ kind: 'results', goodRows: 1, totalRows: 4, moreProblems: 0 });
    expect(preview.problems.map((p) => p.line)).toEqual([3, 3, 4, 5]);
    expect(preview.problems.map((p) => p.text)).toEqual([
      'line 3: gender: must be 1/M/男 or 2/F/女',
      'line 3: birthday: must be a date YYYY-MM-DD',
      'line 4: bib: duplicate of line 2',
      'line 5: expected 10 fields, found 7',
    ]);
    expect(preview.problems.map((p) => importProblemText(p, 'zh'))).toEqual([
      'gender：须为 1/M/男 或 2/F/女',
      'birthday：须为日期 YYYY-MM-DD',
      'bib：与第 2 行重复',
      '应有 10 列，实际 7 列',
    ]);
    expect(importProblemText(preview.problems[0]!, 'en')).toBe('gender: must be 1/M/男 or 2/F/女');
    expect(await resultCount()).toBe(before);

    const refused = await results('POST', `${imports}/results`, { content: base64(BAD), fileName: 'bad.csv' });
    expect(refused.json()).toMatchObject({ code: 400, msgCode: 'importBadRows' });
    expect(refused.json().data.problems).toHaveLength(4);
    expect(await resultCount()).toBe(before);
    expect(await app.repos.audit.find({ action: 'import.results', limit: 5 })).toEqual([]);
  });

  it('previews a good file as it will be written, imports it (audited), and a second import replaces by bib', async () => {
    const preview = (await results('POST', `${imports}/results/preview`, { content: base64(GOOD) })).json()
      .data as ImportPreview;
    expect(preview).toMatchObject({ goodRows: 2, totalRows: 2, problems: [], replaces: 0 });
    expect(preview.rows[0]).toMatchObject({
      bib: 'C101',
      name: '赵六',
      gender: 'M',
      item: 'H',
      chipTime: '1:34:00',
      gunTime: '1:35:10',
      splits: '5K 0:21:00, 10K 0:43:30',
    });
    expect(JSON.stringify(preview)).not.toContain('320102199001011237');
    expect(await app.repos.raceCenter.resultByBib(FIXTURE_RACE_ID, 'C101')).toBeUndefined();

    const done = await results('POST', `${imports}/results`, { content: base64(`\uFEFF${GOOD}`), fileName: 'r.csv' });
    expect(done.json()).toMatchObject({ code: 0, data: { kind: 'results', rows: 2, replaced: 0 } });
    expect(await app.repos.raceCenter.resultByBib(FIXTURE_RACE_ID, 'C101')).toMatchObject({ name: '赵六' });
    const again = (await results('POST', `${imports}/results`, { content: base64(GOOD), fileName: 'r2.csv' })).json()
      .data as ImportDone;
    expect(again).toEqual({ kind: 'results', rows: 2, replaced: 2 });
    const logged = await app.repos.audit.find({ action: 'import.results', limit: 5 });
    expect(logged[0]).toMatchObject({ raceId: FIXTURE_RACE_ID, staffId: results.staffId, target: 'r2.csv' });
    expect(JSON.parse(logged[0]!.after!)).toEqual({ rows: 2, replaced: 2, fileName: 'r2.csv' });
  });

  it('refuses a file that is not UTF-8 text, an unknown kind, a missing race; roles without results', async () => {
    const gbk = Buffer.from([0x62, 0x69, 0x62, 0x0a, 0xd5, 0xd4]).toString('base64');
    expect((await results('POST', `${imports}/results/preview`, { content: gbk })).json()).toMatchObject({
      code: 400,
      msgCode: 'importFileUnreadable',
    });
    expect((await results('POST', `${imports}/registrations`, { content: base64(GOOD) })).json()).toMatchObject({
      code: 404,
    });
    expect(
      (await results('POST', `/races/no-such-race/imports/results/preview`, { content: base64(GOOD) })).json(),
    ).toMatchObject({ code: 404, msgCode: 'raceNotFound' });
    const header = (await results('POST', `${imports}/results/preview`, { content: base64('bib,name\n1,x\n') })).json()
      .data as ImportPreview;
    expect(header.problems[0]!.text).toMatch(/^line 1: missing column\(s\): gender/);
    expect(importProblemText(header.problems[0]!, 'zh')).toMatch(/^缺少列：gender/);
    for (const role of ['service', 'finance', 'checkIn'] as const) {
      const other = await consoleMember(app, role, clock.now);
      for (const [method, url] of [
        ['GET', imports],
        ['POST', `${imports}/results/preview`],
        ['POST', `${imports}/results`],
      ] as const) {
        expect((await other(method, url, { content: base64(GOOD) })).json(), `${role} ${url}`).toMatchObject({
          code: 403,
        });
      }
    }
  });
});

describe('photos and the history', () => {
  it("imports photos and lists the race's imports from the console and the CLI, newest first", async () => {
    const done = (await owner('POST', `${imports}/photos`, { content: base64(PHOTOS), fileName: 'photos.csv' })).json();
    expect(done).toMatchObject({ code: 0, data: { kind: 'photos', rows: 1, replaced: 0 } });
    expect(await app.repos.raceCenter.photos(FIXTURE_RACE_ID, 'C101')).toHaveLength(1);

    const file = path.join(tempDir('race-site-csv-'), 'cli-results.csv');
    writeFileSync(file, GOOD);
    clock.advance(60_000);
    const cli = await siteCli(dataDir, clock.now)('import-results', FIXTURE_RACE_ID, file);
    expect(cli.code, cli.err).toBe(0);
    expect(cli.out).toContain('imported 2 results');

    const history = (await results('GET', imports)).json().data as ImportHistoryItem[];
    expect(history[0]).toMatchObject({ kind: 'results', rows: 2, replaced: 2, fileName: 'cli-results.csv' });
    expect(history[0]!.actor).toMatch(/^cli:/);
    expect(history.find((h) => h.kind === 'photos')).toMatchObject({ rows: 1, fileName: 'photos.csv' });
    expect(history.find((h) => h.fileName === 'r2.csv')!.actor).toContain('results 员工');
  });
});
