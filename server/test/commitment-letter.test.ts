/**
 * The electronic commitment letter (issue 15 §1; services/after-entry/letter.ts, routes/after-entry/letter.ts,
 * cli/letter-commands.ts): letterGet, every refusal of letterSign, co-signers by age on race day (a guardian
 * under 18, a relative over the letter's relativeOverAge), a changed text needing a new signature, the
 * append-only record (UPDATE and DELETE refused by the database), masked co-signer phones, another account's
 * entry, and the organiser's letters-export / letters-status. Runs on both engines.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterVersionHash, type LetterAnswer, type LetterEntry, type LetterSignRequest } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { sql } from '../src/db/engine.ts';
import { USER_AGENT_MAX } from '../src/services/after-entry/letter.ts';
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
import { removeTempDirs, siteCli, tempDir } from './helpers.ts';

const clock = afterEntryClock();
const dataDir = tempDir();
const cli = siteCli(dataDir);
let app: FastifyInstance;
const LETTER = demoRace().commitmentLetter!;
const HASH = letterVersionHash(LETTER);
const ALL = LETTER.statements.map((_, i) => i);
const GUARDIAN = { name: '王父', relation: '父亲', phone: '13912345678' };

beforeAll(async () => {
  app = await demoRaceApp(clock, { dataDir });
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

const getLetter = (who: TestRunner, raceId = DEMO_RACE_ID) =>
  app.inject({ method: 'GET', url: `${API_PATHS.letterGet}?raceId=${raceId}`, headers: { token: who.token } });

const sign = (who: TestRunner, body: Partial<LetterSignRequest>, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: API_PATHS.letterSign,
    headers: { token: who.token, ...headers },
    payload: { raceId: DEMO_RACE_ID, versionHash: HASH, accepted: ALL, ...body },
  });

const signAs = (who: TestRunner, entry: TestEntry, body: Partial<LetterSignRequest> = {}) =>
  sign(who, { entryNo: entry.entryNo, signerName: entry.name, ...body });

async function signed(who: TestRunner, entry: TestEntry, body: Partial<LetterSignRequest> = {}) {
  const res = await signAs(who, entry, body);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as LetterEntry;
}

const steps = async (entryId: number) =>
  ((await app.repos.entries.events([entryId])).get(entryId) ?? []).map((e) => e.step);

describe('letterGet', () => {
  it('needs a login and answers the letter with the caller’s won entries only', async () => {
    const anonymous = await app.inject({ method: 'GET', url: `${API_PATHS.letterGet}?raceId=${DEMO_RACE_ID}` });
    expect(anonymous.json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
    const runner = await newRunner(app, clock.now());
    const won = await wonPaidEntry(app, runner, clock.now());
    await unpaidEntry(app, runner, clock.now());
    const res = await getLetter(runner);
    expect(res.headers['cache-control']).toBe('no-store');
    const answer = res.json().data as LetterAnswer;
    expect(answer).toMatchObject({
      raceId: DEMO_RACE_ID,
      state: 'open',
      letter: { title: LETTER.title, statements: LETTER.statements, versionHash: HASH, deadline: LETTER.deadline },
    });
    expect(answer.entries).toEqual([
      {
        entryNo: won.entryNo,
        name: won.name,
        itemName: { zh: '10公里', en: '10 km' },
        needs: { guardian: false, relative: false },
        signature: null,
      },
    ]);
    expect((await getLetter(runner, 'no-such-race')).json()).toMatchObject({ code: 404, msgCode: 'raceNotFound' });
  });
});

describe('letterSign refusals', () => {
  let runner: TestRunner;
  let entry: TestEntry;
  beforeAll(async () => {
    runner = await newRunner(app, clock.now());
    entry = await wonPaidEntry(app, runner, clock.now(), { name: '李雷' });
  });

  it('refuses without login, for another account’s entry and for an entry not registered', async () => {
    const anonymous = await app.inject({
      method: 'POST',
      url: API_PATHS.letterSign,
      payload: {
        raceId: DEMO_RACE_ID,
        entryNo: entry.entryNo,
        versionHash: HASH,
        accepted: ALL,
        signerName: entry.name,
      },
    });
    expect(anonymous.json()).toMatchObject({ code: 401, msgCode: 'loginExpired' });
    const other = await newRunner(app, clock.now());
    expect((await signAs(other, entry)).json()).toMatchObject({ code: 404, msgCode: 'registrationMissing' });
    expect((await sign(other, { entryNo: 'E000000000', signerName: 'x' })).json()).toMatchObject({
      code: 404,
      msgCode: 'registrationMissing',
    });
    const unpaid = await unpaidEntry(app, runner, clock.now());
    expect((await signAs(runner, unpaid)).json()).toMatchObject({ code: 400, msgCode: 'letterNotWon' });
  });

  it('refuses an outdated version, missing statements and a different name', async () => {
    expect((await signAs(runner, entry, { versionHash: 'f'.repeat(64) })).json()).toMatchObject({
      code: 409,
      msgCode: 'letterChanged',
    });
    for (const accepted of [[0, 1], [0, 1, 1, 2], [0, 1, 2, 3], []]) {
      const res = (await signAs(runner, entry, { accepted })).json();
      expect(res, JSON.stringify(accepted)).toMatchObject({
        code: 400,
        msgCode: 'letterStatementsMissing',
        data: { fields: { accepted: { code: 'letterStatementsMissing' } } },
      });
    }
    const name = (await signAs(runner, entry, { signerName: '李 雷' })).json();
    expect(name).toMatchObject({ code: 400, data: { fields: { signerName: { code: 'letterNameMismatch' } } } });
    // Spaces around the name are trimmed.
    expect((await signAs(runner, entry, { signerName: ' 李雷 ' })).json().code).toBe(0);
    expect(await steps(entry.entryId)).toEqual(['submitted', 'paid', 'letterSigned']);
  });

  it('refuses when the race has no letter and after its deadline', async () => {
    await saveDemoRace(app, clock.now(), { commitmentLetter: { ...LETTER, enabled: false } });
    expect((await signAs(runner, entry)).json()).toMatchObject({ code: 400, msgCode: 'letterClosed' });
    expect((await getLetter(runner)).json().data).toMatchObject({ state: 'closed', letter: null });
    await saveDemoRace(app, clock.now(), { commitmentLetter: { ...LETTER, deadline: '2026-11-30 18:00:00' } });
    expect((await signAs(runner, entry)).json()).toMatchObject({
      code: 400,
      msgCode: 'letterEnded',
      msgParams: { deadline: '2026-11-30 18:00:00' },
    });
    const ended = (await getLetter(runner)).json().data as LetterAnswer;
    expect(ended.state).toBe('ended');
    // Signatures stay shown after the deadline.
    expect(ended.entries.find((e) => e.entryNo === entry.entryNo)!.signature).toMatchObject({ current: true });
    await saveDemoRace(app, clock.now());
  });
});

describe('co-signers', () => {
  it('a 15-year-old on race day signs with a guardian; the guardian’s phone is answered masked', async () => {
    const runner = await newRunner(app, clock.now());
    // 15 on 2027-04-18 (the 10K's minimum age is 12).
    const entry = await wonPaidEntry(app, runner, clock.now(), { birthday: '2011-09-01', name: '王小明' });
    const listed = (await getLetter(runner)).json().data as LetterAnswer;
    expect(listed.entries[0]!.needs).toEqual({ guardian: true, relative: false });

    const none = (await signAs(runner, entry)).json();
    expect(none).toMatchObject({
      code: 400,
      msgCode: 'cosignerNameRequired',
      data: {
        fields: {
          'guardian.name': { code: 'cosignerNameRequired' },
          'guardian.relation': { code: 'cosignerRelationInvalid' },
          'guardian.phone': { code: 'phoneRequired' },
        },
      },
    });
    const bad = (
      await signAs(runner, entry, {
        guardian: { name: '王小明', relation: '父'.repeat(21), phone: '12345' },
      })
    ).json();
    expect(bad.data.fields).toEqual({
      'guardian.name': { code: 'cosignerSameAsRunner' },
      'guardian.relation': { code: 'cosignerRelationInvalid' },
      'guardian.phone': { code: 'badPhone' },
    });
    const spaced = (await signAs(runner, entry, { guardian: { ...GUARDIAN, name: ' "" ' } })).json();
    expect(spaced.data.fields).toEqual({ 'guardian.name': { code: 'cosignerNameInvalid' } });

    const done = await signed(runner, entry, { guardian: GUARDIAN });
    expect(done.signature).toMatchObject({
      current: true,
      signerName: '王小明',
      guardian: { name: '王父', relation: '父亲', phone: '139****5678' },
      relative: null,
    });
    expect(JSON.stringify((await getLetter(runner)).json())).not.toContain('13912345678');
    // Stored encrypted: the whole number is nowhere in the row.
    const row = await app.repos.db.get<{ guardian_enc: string }>(
      sql`SELECT guardian_enc FROM letter_signatures WHERE entry_id = ${entry.entryId}`,
    );
    expect(row!.guardian_enc).toMatch(/^v1\./);
    expect(row!.guardian_enc).not.toContain('1391234');
    expect((await app.repos.letters.allOf(entry.entryId))[0]!.guardian).toEqual(GUARDIAN);
  });

  it('a 70-year-old on race day signs with a relative (the letter’s relativeOverAge is 65)', async () => {
    const runner = await newRunner(app, clock.now());
    const entry = await wonPaidEntry(app, runner, clock.now(), { birthday: '1956-06-01', name: '张大爷' });
    const listed = (await getLetter(runner)).json().data as LetterAnswer;
    expect(listed.entries[0]!.needs).toEqual({ guardian: false, relative: true });
    const none = (await signAs(runner, entry)).json();
    expect(Object.keys(none.data.fields)).toEqual(['relative.name', 'relative.relation', 'relative.phone']);
    const done = await signed(runner, entry, {
      relative: { name: '张小兵', relation: '儿子', phone: '13700001111' },
      // A guardian sent for an adult is not kept.
      guardian: GUARDIAN,
    });
    expect(done.signature).toMatchObject({
      guardian: null,
      relative: { name: '张小兵', relation: '儿子', phone: '137****1111' },
    });
  });
});

describe('the append-only record', () => {
  let runner: TestRunner;
  let entry: TestEntry;
  beforeAll(async () => {
    runner = await newRunner(app, clock.now());
    entry = await wonPaidEntry(app, runner, clock.now());
  });

  it('stores the version, IP and user agent; a second signature adds a row; the newest counts', async () => {
    const agent = `Mozilla/5.0 ${'x'.repeat(600)}`;
    await signed(runner, entry, {}).then(async () => {
      clock.advance(60_000);
      await signAs(runner, entry, {}).then((res) => expect(res.json().code).toBe(0));
    });
    clock.advance(60_000);
    const third = await app.inject({
      method: 'POST',
      url: API_PATHS.letterSign,
      headers: { token: runner.token, 'user-agent': agent },
      payload: {
        raceId: DEMO_RACE_ID,
        versionHash: HASH,
        accepted: [2, 0, 1],
        entryNo: entry.entryNo,
        signerName: entry.name,
      },
    });
    expect(third.json().code, third.body).toBe(0);
    const rows = await app.repos.letters.allOf(entry.entryId);
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({ versionHash: HASH, accepted: [0, 1, 2], ip: '127.0.0.1' });
    expect(rows[2]!.userAgent).toHaveLength(USER_AGENT_MAX);
    expect(rows[2]!.signedAt).toBe(clock.now());
    const answer = (await getLetter(runner)).json().data as LetterAnswer;
    expect(answer.entries[0]!.signature!.signedAt).toBe(clock.now());
    const version = await app.repos.letters.versionText(DEMO_RACE_ID, HASH);
    expect(JSON.parse(version!)[0]).toEqual([LETTER.title.zh, LETTER.title.en]);
  });

  it('refuses UPDATE and DELETE of a signature in the database itself', async () => {
    await expect(
      app.repos.db.run(sql`UPDATE letter_signatures SET signer_name = 'forged' WHERE entry_id = ${entry.entryId}`),
    ).rejects.toThrow(/append-only/);
    await expect(
      app.repos.db.run(sql`DELETE FROM letter_signatures WHERE entry_id = ${entry.entryId}`),
    ).rejects.toThrow(/append-only/);
    expect(await app.repos.letters.allOf(entry.entryId)).toHaveLength(3);
  });

  it('a changed letter text makes the signature outdated until the runner signs the new version', async () => {
    const changed = { ...LETTER, statements: [...LETTER.statements, { zh: '新增条款。', en: 'A new statement.' }] };
    await saveDemoRace(app, clock.now(), { commitmentLetter: changed });
    const newHash = letterVersionHash(changed);
    expect(newHash).not.toBe(HASH);
    const before = (await getLetter(runner)).json().data as LetterAnswer;
    expect(before.letter!.versionHash).toBe(newHash);
    expect(before.entries[0]!.signature).toMatchObject({ versionHash: HASH, current: false });
    expect((await signAs(runner, entry)).json()).toMatchObject({ code: 409, msgCode: 'letterChanged' });
    expect((await signAs(runner, entry, { versionHash: newHash })).json()).toMatchObject({
      msgCode: 'letterStatementsMissing',
    });
    clock.advance(60_000);
    const again = await signed(runner, entry, { versionHash: newHash, accepted: [0, 1, 2, 3] });
    expect(again.signature).toMatchObject({ versionHash: newHash, current: true });
    expect(await app.repos.letters.allOf(entry.entryId)).toHaveLength(4);
    await saveDemoRace(app, clock.now());
  });
});

describe('the organiser’s commands', () => {
  it('letters-status counts and letters-export lists every won entry', async () => {
    // A won entry that never signed.
    const runner = await newRunner(app, clock.now());
    const unsigned = await wonPaidEntry(app, runner, clock.now(), { name: '未签者' });
    const status = await cli('letters-status', '--race', DEMO_RACE_ID);
    expect(status.code, status.err).toBe(0);
    const won = (await app.repos.entries.listForRace(DEMO_RACE_ID)).filter((e) => e.status === 1);
    expect(status.out).toContain(`${DEMO_RACE_ID}: commitment letter open (version ${HASH.slice(0, 12)})`);
    expect(status.out).toMatch(new RegExp(`${won.length} registered entries: \\d+ signed the current version`));
    expect(status.out).toContain('not signed');
    expect(status.out).toMatch(/ {2}10K: /);

    const out = path.join(dataDir, 'letters.csv');
    const exported = await cli('letters-export', '--race', DEMO_RACE_ID, '--out', out);
    expect(exported.code, exported.err).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const lines = readFileSync(out, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('entryNo,item,name,certificate,signed,signedAt,signerName,guardian,relative');
    expect(lines).toHaveLength(won.length + 1);
    const row = lines.find((l) => l.startsWith(unsigned.entryNo))!;
    expect(row).toContain('未签者');
    expect(row).toContain('not signed');
    expect(row).not.toContain(unsigned.certNumber);
    const minor = lines.find((l) => l.includes('王小明'))!;
    expect(minor).toContain('signed (current version)');
    expect(minor).toContain('王父 (父亲)');

    const xlsx = await cli('letters-export', '--race', DEMO_RACE_ID, '--out', path.join(dataDir, 'letters.xlsx'));
    expect(xlsx.code, xlsx.err).toBe(0);
    expect(readFileSync(path.join(dataDir, 'letters.xlsx')).subarray(0, 2).toString()).toBe('PK');

    expect((await cli('letters-status')).code).toBe(1);
    expect((await cli('letters-status', '--race', 'nope')).code).toBe(1);
    expect((await cli('letters-export', '--race', DEMO_RACE_ID, '--out', 'x.txt')).code).toBe(1);
    expect((await cli('letters-status', '--race')).code).toBe(2);
  });
});
