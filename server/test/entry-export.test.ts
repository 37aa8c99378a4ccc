/**
 * The console's export of the filtered entry list (issue 30 §5; services/console/entry-export.ts, the route
 * GET /api/admin/races/:raceId/entries/export, the CLI's entries-export): every role against the route, whole
 * numbers and money by role, the audit record, the list's filters applied, spreadsheet formulas neutralised,
 * bad filters refused, a list longer than a page read whole, the .xlsx a valid zip. Both engines.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import { STAFF_ROLES, type StaffRole } from '#contract/staff';
import { sql } from '../src/db/engine.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { parseCsv } from '../src/lib/csv.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { personalCipher } from '../src/lib/personal-data.ts';
import { keyedPhoneHash, maskCertNo, maskMobile } from '../src/lib/race-center.ts';
import { dataSecret, SECRET_NAMES } from '../src/lib/secrets.ts';
import { totpAt, totpStep } from '../src/lib/totp.ts';
import { xlsxStream } from '../src/lib/xlsx.ts';
import { ADMIN_PREFIX, CSRF_HEADER } from '../src/routes/admin/index.ts';
import { EXPORT_PAGE_SIZE } from '../src/services/organiser/entries-export.ts';
import { findAudit, verifyAuditChain } from '../src/services/staff/audit.ts';
import { addStaff } from '../src/services/staff/staff.ts';
import {
  buildTestApp,
  FIXTURE_RACE_ID,
  ON_POSTGRES,
  removeTempDirs,
  siteCli,
  tempDir,
  TEST_ID_NUMBER_SECRET,
} from './helpers.ts';
import { sheetCells, sheetRows, unzip } from './zip-reader.ts';

const NOW = Date.UTC(2025, 5, 16, 2, 0, 0);
const RACE = FIXTURE_RACE_ID;
const PASSWORD = 'Canal-Marathon-2027';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const dataDir = tempDir();
const cli = siteCli(dataDir, () => NOW);
let app: FastifyInstance;
const sessions = new Map<StaffRole, { cookie: string; csrf: string; id: number }>();

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    { code: 'M', name: { zh: '马拉松', en: 'Marathon' }, capacity: 100, feeFen: 12_000, model: 'firstCome' },
    { code: 'HM', name: { zh: '半程', en: 'Half' }, capacity: 2_000, feeFen: 8_000, model: 'firstCome' },
  ],
};

/** A valid 18-character ID number (GB 11643 check character) from 17 digits. */
function idNumber(seventeen: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...seventeen].reduce((acc, d, i) => acc + Number(d) * weights[i]!, 0);
  return seventeen + '10X98765432'[sum % 11]!;
}

const field = (key: string, type: string, zh: string, en: string, extra: Record<string, unknown> = {}) => ({
  key,
  type,
  label: { zh, en },
  ...extra,
});
const FORM = {
  version: 1,
  raceId: RACE,
  fields: [
    field('name', 'input', '姓名', 'Name', { required: true }),
    field('certificateType', 'certificateType', '证件类型', 'ID type', { required: true }),
    field('certificateNumber', 'certificateNumber', '证件号码', 'ID number', {
      required: true,
      typeField: 'certificateType',
    }),
    field('phone', 'phone', '手机号码', 'Mobile phone', { required: true }),
    field('emergencyPhone', 'phone', '紧急联系人电话', 'Emergency contact phone'),
    field('shirt', 'clothingSize', 'T恤尺码', 'Shirt size', {
      sizes: [
        { code: 'S', label: { zh: '小号', en: 'Small' } },
        { code: 'M', label: { zh: '中号', en: 'Medium' } },
      ],
    }),
    field('note', 'input', '备注', 'Note'),
  ],
};

/** The app's ID-number secret: from the environment on PostgreSQL, the data folder on SQLite. */
const idNumberKey = () => (ON_POSTGRES ? TEST_ID_NUMBER_SECRET : dataSecret(dataDir, SECRET_NAMES.idNumber.stored));

interface Made {
  id: number;
  entryNo: string;
  cert: string;
  phone: string;
  orderNo?: string;
}
const made: Record<string, Made> = {};
let serial = 0;

async function addEntry(input: {
  item: string;
  status: number;
  name: string;
  channel?: string;
  note?: string;
  at: number;
  userId: number;
}): Promise<Made> {
  const { repos } = app;
  const db = app.db;
  const cipher = personalCipher(idNumberKey());
  serial += 1;
  const entryNo = `X${String(serial).padStart(8, '0')}`;
  const cert = idNumber(`110105199001${String(10_000 + serial).slice(-5)}`);
  const phone = `1380013${String(8000 + serial).padStart(4, '0')}`;
  const values = {
    name: input.name,
    certificateType: 1,
    certificateNumber: cert,
    phone,
    emergencyPhone: `1390013${String(8000 + serial).padStart(4, '0')}`,
    shirt: 'M',
    ...(input.note === undefined ? {} : { note: input.note }),
  };
  const row = await db.get<{ id: number }>(sql`
    INSERT INTO entries (entry_no, race_id, item_code, channel, user_id, status, holds_place, name, gender,
      birthday, cert_type, cert_hash, phone_hash, cert_enc, phone_enc, values_enc, fee_fen, created_at, updated_at)
    VALUES (${entryNo}, ${RACE}, ${input.item}, ${input.channel ?? 'public'}, ${input.userId}, ${input.status},
      ${input.status === 1 ? 1 : 0}, ${input.name}, 1, '1990-01-01', 1, ${repos.raceCenter.certHash(cert)},
      ${keyedPhoneHash(idNumberKey(), phone)}, ${cipher.encrypt(cert)}, ${cipher.encrypt(phone)},
      ${cipher.encrypt(JSON.stringify(values))}, ${input.item === 'M' ? 12_000 : 8_000}, ${input.at}, ${input.at})
    RETURNING id`);
  return { id: Number(row!.id), entryNo, cert, phone };
}

async function addOrder(entry: Made, status: 1 | 3 | 5, userId: number) {
  const paid = status !== 1;
  serial += 1;
  const orderNo = `XO${String(serial).padStart(9, '0')}`;
  const row = await app.db.get<{ id: number }>(sql`
    INSERT INTO orders (order_no, race_id, user_id, status, amount_fen, paid_fen, refunded_fen, created_at, paid_at)
    VALUES (${orderNo}, ${RACE}, ${userId}, ${status}, 12000, ${paid ? 12_000 : 0}, ${status === 5 ? 12_000 : 0},
      ${NOW - 3_600_000}, ${paid ? NOW - 1_800_000 : null})
    RETURNING id`);
  await app.db.run(sql`
    INSERT INTO order_lines (order_id, sub_order_no, entry_id, amount_fen)
    VALUES (${row!.id}, ${`${orderNo}-1`}, ${entry.id}, 12000)`);
  if (status === 5) {
    await app.db.run(sql`
      INSERT INTO refunds (refund_no, order_id, entry_id, amount_fen, reason, status, created_at, done_at)
      VALUES (${`R${serial}`}, ${row!.id}, ${entry.id}, 12000, 'organiser', 'done', ${NOW}, ${NOW})`);
  }
  entry.orderNo = orderNo;
}

async function member(email: string, role: StaffRole, races: string[] | null = null) {
  const added = await addStaff(app.repos, { email, role, races }, { kind: 'cli' }, app.config.now());
  if (!added.ok) throw new Error(added.refusal);
  await app.repos.staff.setPassword(added.value.staff.id, await hashPassword(PASSWORD), false, app.config.now());
  const twoFactor = role === 'owner' || role === 'finance';
  if (twoFactor) await app.repos.staff.setTotp(added.value.staff.id, SECRET, 0, 0);
  const res = await app.inject({
    method: 'POST',
    url: `${ADMIN_PREFIX}/login`,
    payload: {
      email,
      password: PASSWORD,
      ...(twoFactor ? { totp: totpAt(SECRET, totpStep(app.config.now())) } : {}),
    },
  });
  expect(res.json(), email).toMatchObject({ code: 0 });
  return {
    cookie: String(res.headers['set-cookie']).split(';')[0]!,
    csrf: res.json().data.csrf as string,
    id: added.value.staff.id,
  };
}

const download = (who: { cookie: string; csrf: string }, query: string, raceId = RACE) =>
  app.inject({
    method: 'GET',
    url: `${ADMIN_PREFIX}/races/${raceId}/entries/export?${query}`,
    headers: { cookie: who.cookie, [CSRF_HEADER]: who.csrf },
  });

/** The rows of an exported file (.csv or .xlsx), header first. */
function rowsOf(bytes: Buffer, format: 'csv' | 'xlsx'): string[][] {
  if (format === 'csv') return parseCsv(bytes.toString('utf8')).map((record) => record.fields);
  const sheet = unzip(bytes).get('xl/worksheets/sheet1.xml')!;
  const width = [...sheetCells(sheet).keys()].filter((ref) => /^[A-Z]+1$/.test(ref)).length;
  return sheetRows(sheet, width);
}

async function exported(role: StaffRole, query: string, format: 'csv' | 'xlsx' = 'csv') {
  const res = await download(sessions.get(role)!, `format=${format}&${query}`);
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  const [header, ...rows] = rowsOf(res.rawPayload, format);
  const column = (name: string) => {
    const at = header!.indexOf(name);
    expect(at, name).toBeGreaterThanOrEqual(0);
    return at;
  };
  const rowOf = (entry: Made) => rows.find((row) => row[0] === entry.entryNo)!;
  return { res, header: header!, rows, column, rowOf };
}

const BULK = EXPORT_PAGE_SIZE * 2 + 50;

beforeAll(async () => {
  app = await buildTestApp({ dataDir, now: () => NOW });
  const { repos } = app;
  const race = (await repos.races.findById(RACE))!;
  await repos.races.save({ ...race, entry: ENTRY } as RaceInfo, NOW - 86_400_000);
  const published = await publishRegistrationForm({
    repos,
    raceId: RACE,
    channel: undefined,
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: NOW - 86_400_000,
    source: 'test',
  });
  expect(published.unchanged).toBe(false);
  const userId = await repos.users.create({ phone: '13700000001' }, NOW);
  const at = NOW - 3_600_000;
  made.zhang = await addEntry({ item: 'M', status: 1, name: '张伟', note: '=1+2', at, userId });
  made.plus = await addEntry({ item: 'HM', status: 0, name: '+Plus', channel: 'code', note: '@SUM(A1)', at, userId });
  made.minus = await addEntry({ item: 'M', status: 5, name: '-Minus', note: '普通', at, userId });
  made.li = await addEntry({ item: 'M', status: 1, name: '李娜', at, userId });
  await addOrder(made.zhang, 3, userId);
  await addOrder(made.plus, 1, userId);
  await addOrder(made.minus, 5, userId);
  // More half-marathon entries than two pages of the export.
  for (let i = 0; i < BULK; i += 1) {
    made[`bulk${i}`] = await addEntry({ item: 'HM', status: 1, name: `Bulk ${i}`, at: at + i, userId });
  }
  for (const role of STAFF_ROLES) sessions.set(role, await member(`${role}@example.org`, role));
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('every role against the export', () => {
  it.each([...STAFF_ROLES])('%s', async (role) => {
    for (const format of ['csv', 'xlsx'] as const) {
      const res = await download(sessions.get(role)!, `format=${format}&q=${encodeURIComponent('张伟')}`);
      expect(res.headers['cache-control']).toBe('no-store');
      if (role === 'owner' || role === 'finance' || role === 'service') {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(
          format === 'csv'
            ? 'text/csv; charset=utf-8'
            : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        );
        expect(res.headers['content-disposition']).toBe(
          `attachment; filename="${RACE}-entries-20250616-0200.${format}"`,
        );
        expect(rowsOf(res.rawPayload, format)).toHaveLength(2);
      } else {
        expect(res.json()).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
      }
    }
  });

  it('refuses a race outside a member’s list', async () => {
    const race = (await app.repos.races.findById(RACE))!;
    await app.repos.races.save({ ...race, raceId: 'another-race' }, NOW);
    const limited = await member('elsewhere@example.org', 'service', ['another-race']);
    expect((await download(limited, 'format=csv')).json()).toMatchObject({ code: 403, msgCode: 'staffRaceForbidden' });
  });
});

describe('what each role’s file holds', () => {
  it('writes whole certificate numbers and phones for roles with entries.personal, masked for the others', async () => {
    for (const role of ['owner', 'service'] as const) {
      const { rowOf, column } = await exported(role, '');
      const row = rowOf(made.zhang!);
      expect(row[column('Certificate number 证件号码')], role).toBe(made.zhang!.cert);
      expect(row[column('Phone 手机号')]).toBe(made.zhang!.phone);
      expect(row[column('证件号码')]).toBe(made.zhang!.cert);
      expect(row[column('紧急联系人电话')]).toMatch(/^139\d{8}$/);
    }
    const { res, rowOf, column } = await exported('finance', '', 'xlsx');
    const row = rowOf(made.zhang!);
    expect(row[column('Certificate number 证件号码')]).toBe(maskCertNo(made.zhang!.cert));
    expect(row[column('Phone 手机号')]).toBe(maskMobile(made.zhang!.phone));
    expect(row[column('证件号码')]).toBe(maskCertNo(made.zhang!.cert));
    expect(row[column('紧急联系人电话')]).toMatch(/^139\*{4}\d{4}$/);
    const text = unzip(res.rawPayload).get('xl/worksheets/sheet1.xml')!;
    for (const entry of Object.values(made)) {
      expect(text).not.toContain(entry.cert);
      expect(text).not.toContain(entry.phone);
    }
  });

  it('writes money columns for roles with money only', async () => {
    const money = ['Fee (yuan) 报名费（元）', 'Paid (yuan) 实付金额（元）', 'Refunded (yuan) 已退款（元）'];
    const owner = await exported('owner', '');
    expect(owner.header).toEqual(expect.arrayContaining(money));
    expect(owner.rowOf(made.minus!)[owner.column('Refunded (yuan) 已退款（元）')]).toBe('120.00');
    expect(owner.rowOf(made.zhang!)[owner.column('Paid (yuan) 实付金额（元）')]).toBe('120.00');
    const finance = await exported('finance', '');
    expect(finance.header).toEqual(expect.arrayContaining(money));
    const service = await exported('service', '');
    for (const name of money) expect(service.header).not.toContain(name);
    // The order's status and when it was paid are no money: every role that exports sees them.
    expect(service.rowOf(made.zhang!)[service.column('Order status 订单状态')]).toBe('已支付');
    expect(service.rowOf(made.plus!)[service.column('Order status 订单状态')]).toBe('待支付');
    expect(service.rowOf(made.zhang!)[service.column('Paid at 支付时间')]).not.toBe('');
    expect(service.header.length).toBe(owner.header.length - money.length);
  });

  it('heads the form’s columns with its labels in the member’s language, and writes answers in it', async () => {
    const zh = await exported('owner', '');
    expect(zh.header.slice(-7)).toEqual([
      '姓名',
      '证件类型',
      '证件号码',
      '手机号码',
      '紧急联系人电话',
      'T恤尺码',
      '备注',
    ]);
    expect(zh.rowOf(made.zhang!)[zh.column('T恤尺码')]).toBe('中号');
    const en = await exported('owner', 'lang=en', 'xlsx');
    expect(en.header.slice(-7)).toEqual([
      'Name',
      'ID type',
      'ID number',
      'Mobile phone',
      'Emergency contact phone',
      'Shirt size',
      'Note',
    ]);
    expect(en.rowOf(made.zhang!)[en.column('Shirt size')]).toBe('Medium');
    expect(en.rowOf(made.zhang!)[en.column('Order status 订单状态')]).toBe('Paid');
  });
});

describe('the audit log', () => {
  it('records each export: who, the filters, how many rows, whether whole numbers were in it', async () => {
    const service = sessions.get('service')!;
    await exported('service', `item=hm&status=0&channel=code`, 'xlsx');
    const [record] = await findAudit(app.repos, { action: 'entries.export', limit: 1 });
    expect(record).toMatchObject({ actor: `staff:${service.id}`, staffId: service.id, raceId: RACE });
    expect(JSON.parse(record!.after!)).toEqual({
      format: 'xlsx',
      language: 'zh',
      filters: { q: null, item: 'HM', status: 0, channel: 'code' },
      rows: 1,
      wholeNumbers: true,
      money: false,
    });
    // A certificate number searched for is kept masked in the log.
    await exported('finance', `q=${made.li!.cert}`);
    const [byCert] = await findAudit(app.repos, { action: 'entries.export', limit: 1 });
    const after = JSON.parse(byCert!.after!);
    expect(after).toMatchObject({
      format: 'csv',
      filters: { q: maskCertNo(made.li!.cert) },
      rows: 1,
      wholeNumbers: false,
      money: true,
    });
    expect(byCert!.after).not.toContain(made.li!.cert);
    expect(await verifyAuditChain(app.repos)).toMatchObject({ ok: true });
  });

  it('records nothing for a refused export', async () => {
    const before = await findAudit(app.repos, { action: 'entries.export', limit: 200 });
    await download(sessions.get('observer')!, 'format=csv');
    await download(sessions.get('owner')!, 'format=csv&status=9');
    expect(await findAudit(app.repos, { action: 'entries.export', limit: 200 })).toHaveLength(before.length);
  });
});

describe('the list’s filters', () => {
  it('exports what the list finds with the same search and filters', async () => {
    const cases = [
      [`q=${encodeURIComponent('张伟')}`, [made.zhang]],
      [`q=${made.zhang!.phone}`, [made.zhang]],
      [`q=${made.minus!.cert}`, [made.minus]],
      [`q=${made.plus!.orderNo}`, [made.plus]],
      [`q=${made.li!.entryNo.toLowerCase()}`, [made.li]],
      [`q=${made.plus!.orderNo}-1`, [made.plus]],
      ['item=M', [made.zhang, made.minus, made.li]],
      ['item=M&status=1', [made.zhang, made.li]],
      ['status=0&channel=code', [made.plus]],
      ['channel=charity', []],
    ] as const;
    for (const [query, expected] of cases) {
      const { rows } = await exported('owner', query);
      expect(
        rows.map((row) => row[0]),
        query,
      ).toEqual(expected.map((entry) => entry!.entryNo));
      const listed = await app.inject({
        method: 'GET',
        url: `${ADMIN_PREFIX}/races/${RACE}/entries?${query}`,
        headers: { cookie: sessions.get('owner')!.cookie },
      });
      expect(listed.json().data.total, query).toBe(expected.length);
    }
  });

  it('reads a list longer than a page whole, once each, in the order the entries were made', async () => {
    for (const format of ['csv', 'xlsx'] as const) {
      const res = await download(sessions.get('finance')!, `format=${format}&item=HM&status=1`);
      expect(res.headers['x-export-rows']).toBe(String(BULK));
      const [, ...rows] = rowsOf(res.rawPayload, format);
      expect(rows.map((row) => row[0])).toEqual(Array.from({ length: BULK }, (_, i) => made[`bulk${i}`]!.entryNo));
    }
  });

  it('refuses bad filters by field, and an unknown race', async () => {
    const owner = sessions.get('owner')!;
    for (const [query, field] of [
      ['format=pdf', 'format'],
      ['lang=fr', 'lang'],
      ['status=9', 'status'],
      ['status=x', 'status'],
      ['channel=vip', 'channel'],
      ['item=XL', 'item'],
      [`q=${'x'.repeat(65)}`, 'q'],
    ] as const) {
      const res = await download(owner, query);
      expect(res.json(), query).toMatchObject({ code: 400, msgCode: 'staffBadQuery', msgParams: { field } });
      expect(res.headers['content-disposition']).toBeUndefined();
    }
    expect((await download(owner, 'format=csv', 'no-such-race')).json()).toMatchObject({
      code: 404,
      msgCode: 'raceNotFound',
    });
  });
});

describe('spreadsheet safety', () => {
  it('writes .csv as UTF-8 with a byte-order mark, cells beginning with = + - @ neutralised', async () => {
    const { res, rowOf, column } = await exported('owner', 'item=M');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.rawPayload.toString('utf8')).toContain('\r\n');
    expect(rowOf(made.zhang!)[column('备注')]).toBe("'=1+2");
    expect(rowOf(made.minus!)[column('Name 姓名')]).toBe("'-Minus");
    const plus = await exported('owner', 'item=HM&status=0');
    expect(plus.rowOf(made.plus!)[plus.column('Name 姓名')]).toBe("'+Plus");
    expect(plus.rowOf(made.plus!)[plus.column('备注')]).toBe("'@SUM(A1)");
  });

  it('writes .xlsx cells as text with the quote prefix, never a formula', async () => {
    const res = await download(sessions.get('owner')!, 'format=xlsx&status=0');
    const files = unzip(res.rawPayload);
    const sheet = files.get('xl/worksheets/sheet1.xml')!;
    const cells = sheetCells(sheet);
    // The name, the form's name answer and the note.
    const plus = [...cells.values()].filter((cell) => cell.text === '+Plus' || cell.text === '@SUM(A1)');
    expect(plus).toHaveLength(3);
    for (const cell of plus) expect(cell).toMatchObject({ type: 'inlineStr', style: '2' });
    expect(files.get('xl/styles.xml')).toContain('quotePrefix="1"');
  });
});

describe('the .xlsx writer, streamed', () => {
  async function bytesOf(stream: AsyncIterable<Buffer>) {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
  async function* pagesOf(count: number, size: number) {
    for (let p = 0; p < count; p += 1)
      yield Array.from({ length: size }, (_, i) => [`r${p * size + i}`, p * size + i, '中文 & <x>']);
  }

  it('writes a zip a strict reader and Python read back, the sheet row by row', async () => {
    const bytes = await bytesOf(xlsxStream('名单/list', ['id', 'n', 'text'], pagesOf(3, 1000), new Date(NOW)));
    const files = unzip(bytes);
    expect([...files.keys()]).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const rows = sheetRows(files.get('xl/worksheets/sheet1.xml')!, 3);
    expect(rows).toHaveLength(3001);
    expect(rows[0]).toEqual(['id', 'n', 'text']);
    expect(rows[3000]).toEqual(['r2999', '2999', '中文 & <x>']);
    expect(files.get('xl/workbook.xml')).toContain('<sheet name="名单 list"');
    if (existsSync('/usr/bin/python3')) {
      const file = path.join(tempDir(), 'streamed.xlsx');
      writeFileSync(file, bytes);
      const names = execFileSync('python3', [
        '-c',
        'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(",".join(z.namelist()))',
        file,
      ]).toString();
      expect(names).toContain('xl/worksheets/sheet1.xml');
    }
  });

  it('writes the header alone when there is no row', async () => {
    const bytes = await bytesOf(xlsxStream('empty', ['a'], pagesOf(0, 0)));
    expect(sheetRows(unzip(bytes).get('xl/worksheets/sheet1.xml')!, 1)).toEqual([['a']]);
  });
});

describe('the CLI’s entries-export', () => {
  it('takes the same search and filters, writes an owner-only file and records what it held', async () => {
    const out = path.join(tempDir(), 'code-entries.csv');
    writeFileSync(out, 'old', { mode: 0o644 });
    const res = await cli(
      'entries-export',
      RACE,
      '--out',
      out,
      '--channel',
      'code',
      '--search',
      '+Plus',
      '--whole-numbers',
    );
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain(`wrote 1 entry of ${RACE} (channel code, a search) to ${out}`);
    if (process.platform !== 'win32') expect(statSync(out).mode & 0o777).toBe(0o600);
    const [header, ...rows] = parseCsv(readFileSync(out, 'utf8')).map((record) => record.fields);
    expect(rows.map((row) => row[0])).toEqual([made.plus!.entryNo]);
    expect(rows[0]![header!.indexOf('Certificate number 证件号码')]).toBe(made.plus!.cert);
    const [record] = await findAudit(app.repos, { action: 'entries.export', limit: 1 });
    expect(record!.actor).toMatch(/^cli:/);
    expect(JSON.parse(record!.after!)).toEqual({
      format: 'csv',
      language: 'zh',
      filters: { q: '+Plus', item: null, status: null, channel: 'code' },
      rows: 1,
      wholeNumbers: true,
      money: true,
    });
    // One record for the export, not a second generic one.
    expect(await findAudit(app.repos, { action: 'cli.entries-export', limit: 1 })).toEqual([]);

    const bad = await cli('entries-export', RACE, '--out', out, '--channel', 'vip');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--channel must be one of public, direct, code, team, charity');
  });
});
