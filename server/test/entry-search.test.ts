/**
 * The console's entry list (issue 30 §5, services/console/entry-search.ts): search by name, certificate
 * number (through its keyed hash), entry, order and sub-order number and bib; filters; pages; masked numbers;
 * bad input refused by field. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { OpenedDatabase } from '../src/db/database.ts';
import { sql } from '../src/db/engine.ts';
import { ENTRY_PAGE_SIZE, listEntries } from '../src/services/console/entry-search.ts';
import { FIXTURE_RACE_ID, FIXTURE_SEED, openTestDatabase, removeTempDirs, tempDir } from './helpers.ts';

const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'M', name: { zh: '马拉松', en: 'Marathon' }, capacity: 100, feeFen: 20_000, model: 'firstCome' },
    { code: 'HM', name: { zh: '半程', en: 'Half' }, capacity: 100, feeFen: 15_000, model: 'firstCome' },
  ],
};
const dataDir = tempDir();
let opened: OpenedDatabase;
const made: { entryNo: string; orderNo: string; subOrderNo: string; cert: string }[] = [];

beforeAll(async () => {
  opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: T0 });
  const { repos } = opened;
  const race = (await repos.races.findById(FIXTURE_RACE_ID))!;
  await repos.races.save({ ...race, entry: ENTRY } as RaceInfo, T0);
  const names = ['张伟', '张伟华', 'John Smith', '李_娜', ...Array.from({ length: 56 }, (_, i) => `王${i}`)];
  for (const [i, name] of names.entries()) {
    const cert = `11010119900101${String(1000 + i)}`;
    const userId = await repos.users.create({ phone: `1380000${String(1000 + i)}` }, T0);
    const { id, entryNo } = await repos.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: i % 3 === 0 ? 'HM' : 'M',
      channel: i % 5 === 0 ? 'code' : 'public',
      userId,
      teamId: null,
      status: i % 2 === 0 ? 1 : 0,
      holdsPlace: false,
      name,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: repos.raceCenter.certHash(cert),
      certNumber: cert,
      phone: `1380000${String(1000 + i)}`,
      values: {},
      feeFen: 20_000,
      now: T0 + i * 1000,
    });
    const order = await repos.orders.create({
      raceId: FIXTURE_RACE_ID,
      userId,
      amountFen: 20_000,
      deadlineAt: null,
      createdAt: T0 + i * 1000,
      lines: [{ entryId: id, amountFen: 20_000 }],
    });
    made.push({ entryNo, orderNo: order.orderNo, subOrderNo: order.subOrderNos[0]!, cert });
  }
  await opened.db.run(sql`UPDATE entries SET bib = 'A00007' WHERE entry_no = ${made[7]!.entryNo}`);
});

describe('entries written before phone hashes', () => {
  it('get theirs when the database is opened again', async () => {
    await opened.db.run(sql`UPDATE entries SET phone_hash = NULL WHERE entry_no = ${made[2]!.entryNo}`);
    expect(await opened.repos.entries.fillPhoneHashes()).toBe(1);
    expect(await opened.repos.entries.fillPhoneHashes()).toBe(0);
    expect(names(await list({ q: '13800001002' }))).toEqual(['John Smith']);
  });
});

afterAll(async () => {
  await opened?.db.close();
  removeTempDirs();
});

const list = (query: Parameters<typeof listEntries>[2]) => listEntries(opened.repos, FIXTURE_RACE_ID, query);
const names = (outcome: Awaited<ReturnType<typeof listEntries>>) => (outcome.ok ? outcome.rows.map((r) => r.name) : []);

describe('the console entry list', () => {
  it('pages the race’s entries newest first, with the total, numbers masked', async () => {
    const first = await list({});
    expect(first).toMatchObject({ ok: true, total: 60, page: 1, pageSize: ENTRY_PAGE_SIZE });
    if (!first.ok) return;
    // The race's items (the console's item filter, the status wording by model) and its clock.
    expect(first.items).toEqual([
      { code: 'M', name: { zh: '马拉松', en: 'Marathon' }, model: 'firstCome' },
      { code: 'HM', name: { zh: '半程', en: 'Half' }, model: 'firstCome' },
    ]);
    expect(first.zone).toBe('Asia/Shanghai');
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.name).toBe('王55');
    expect(first.rows[0]!.certMasked).toBe('1101**********1059');
    expect(first.rows[0]!.phoneMasked).toMatch(/^138\*{4}\d{4}$/);
    expect(first.rows[0]!.orderNo).toBe(made[59]!.orderNo);
    expect(JSON.stringify(first.rows)).not.toContain(made[59]!.cert);
    const second = await list({ page: '2' });
    expect(second.ok && second.rows.map((r) => r.name)).toEqual([
      '王5',
      '王4',
      '王3',
      '王2',
      '王1',
      '王0',
      '李_娜',
      'John Smith',
      '张伟华',
      '张伟',
    ]);
  });

  it('finds by the beginning of a name, a phone, a whole certificate number, entry, order and sub-order numbers and bib', async () => {
    expect(names(await list({ q: '张伟' }))).toEqual(['张伟华', '张伟']);
    expect(names(await list({ q: 'john s' }))).toEqual(['John Smith']);
    expect(names(await list({ q: 'John' }))).toEqual(['John Smith']);
    // LIKE's own characters are literal: "_" matches only an underscore.
    expect(names(await list({ q: '李_' }))).toEqual(['李_娜']);
    expect(names(await list({ q: '李%' }))).toEqual([]);
    expect(names(await list({ q: made[2]!.cert }))).toEqual(['John Smith']);
    expect(names(await list({ q: made[3]!.entryNo.toLowerCase() }))).toEqual(['李_娜']);
    expect(names(await list({ q: made[1]!.orderNo }))).toEqual(['张伟华']);
    expect(names(await list({ q: made[0]!.subOrderNo }))).toEqual(['张伟']);
    expect(names(await list({ q: 'a00007' }))).toEqual(['王3']);
    // The phone, written with +86 or spaces or not.
    expect(names(await list({ q: '13800001002' }))).toEqual(['John Smith']);
    expect(names(await list({ q: '+86 138 0000 1002' }))).toEqual(['John Smith']);
  });

  it('filters by item, status and channel, and refuses bad filters by field', async () => {
    const half = await list({ item: 'HM' });
    expect(half.ok && half.total).toBe(20);
    const paidCode = await list({ status: 1, channel: 'code' });
    expect(paidCode.ok && paidCode.total).toBe(6);
    // A search and filters together: 张伟 (HM) and 张伟华 (M) begin with 张伟.
    const searched = await list({ q: '张伟', item: 'HM' });
    expect(searched.ok && [searched.total, names(searched)]).toEqual([1, ['张伟']]);
    expect(await list({ status: '9' })).toEqual({ ok: false, field: 'status' });
    expect(await list({ channel: 'vip' })).toEqual({ ok: false, field: 'channel' });
    expect(await list({ page: '0' })).toEqual({ ok: false, field: 'page' });
    expect(await list({ q: 'x'.repeat(65) })).toEqual({ ok: false, field: 'q' });
  });
});
