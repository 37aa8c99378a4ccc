/**
 * CSV imports of the organiser CLI: results (with splits), registrations and photo indexes. Every row is
 * validated first; any bad row is reported as `line N: field: problem` and nothing is written. A good file is
 * written in one transaction (results and registrations replace the rows with the same bib / certificate
 * number; result ranks are recomputed). Certificate and phone numbers are stored hashed and masked only.
 */
import type { Database } from 'better-sqlite3';
import { ORDER_FIELDS } from '#contract/site-config/race-types';
import { CsvSyntaxError, parseCsv, type CsvRecord } from '../lib/csv.ts';
import {
  ageGroupLabel,
  ageOn,
  ITEMS,
  maskCertNo,
  maskMobile,
  normalizeBib,
  normalizeCertNo,
  normalizeName,
  parseDuration,
} from '../lib/race-center.ts';
import type { OrderRow, PhotoRow, RegistrationRow, ResultRow } from './race-center-repository.ts';
import type { Repositories } from './repositories.ts';

export type ImportKind = 'results' | 'registrations' | 'photos';

export const IMPORT_COLUMNS: Record<ImportKind, { required: string[]; optional: string[] }> = {
  results: {
    required: ['bib', 'name', 'gender', 'certificateNumber', 'birthday', 'item', 'chipTime'],
    optional: ['gunTime', '<checkpoint columns: 5K, 10K, …, HALF, as H:MM:SS>'],
  },
  registrations: {
    required: [
      'name',
      'gender',
      'birthday',
      'certificateType',
      'certificateNumber',
      'phone',
      'emergencyName',
      'emergencyPhone',
      'item',
      'status',
    ],
    optional: ['bib', ...ORDER_FIELDS, 'channel', 'channelName', 'channelNameEn'],
  },
  photos: { required: ['bib', 'url', 'takenAt'], optional: [] },
};

export type ImportOutcome = { ok: true; rows: number; summary: string } | { ok: false; problems: string[] };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const MOBILE = /^1[3-9]\d{9}$/;
const CHECKPOINT = /^(\d{1,2}K|HALF)$/;
const MAX_PROBLEMS = 200;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

function parseGender(s: string): number | null {
  const v = s.trim().toUpperCase();
  if (v === '1' || v === 'M' || v === '男') return 1;
  if (v === '2' || v === 'F' || v === '女') return 2;
  return null;
}

/** Registration channel: web|app|third-party or its code 3|5|2 (the spec's query-type numbers); blank is web. */
const CHANNELS: Record<string, number> = { web: 3, '3': 3, app: 5, '5': 5, 'third-party': 2, '2': 2 };

function checkpointKm(name: string): number {
  return name === 'HALF' ? 21.0975 : Number(name.slice(0, -1));
}

export function importCsv(
  db: Database,
  repos: Repositories,
  kind: ImportKind,
  raceId: string,
  text: string,
): ImportOutcome {
  const race = repos.races.findById(raceId);
  if (!race)
    return { ok: false, problems: [`race "${raceId}" does not exist (add it with: site add-race <race.json>)`] };
  let records: CsvRecord[];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { ok: false, problems: [error.message] };
    throw error;
  }
  const [header, ...rows] = records;
  if (!header) return { ok: false, problems: ['the file is empty (expected a header row)'] };
  const columns = header.fields.map((f) => f.trim());
  const spec = IMPORT_COLUMNS[kind];
  const missing = spec.required.filter((c) => !columns.includes(c));
  if (missing.length > 0) return { ok: false, problems: [`line 1: missing column(s): ${missing.join(', ')}`] };
  if (rows.length === 0) return { ok: false, problems: ['the file has no data rows'] };

  const problems: string[] = [];
  const raceDate = (race.startTime ?? '').slice(0, 10) || '2000-01-01';
  const seen = new Map<string, number>();

  const good: (ResultRow | RegistrationRow | PhotoRow)[] = [];
  for (const record of rows) {
    const rowProblems: string[] = [];
    const problem = (field: string, message: string) => rowProblems.push(`line ${record.line}: ${field}: ${message}`);
    if (record.fields.length !== columns.length) {
      problems.push(`line ${record.line}: expected ${columns.length} fields, found ${record.fields.length}`);
      continue;
    }
    const get = (name: string) => (record.fields[columns.indexOf(name)] ?? '').trim();
    const has = (name: string) => columns.includes(name) && get(name) !== '';
    const required = (name: string) => {
      const v = get(name);
      if (v === '') problem(name, 'is required');
      return v;
    };
    const unique = (key: string, field: string) => {
      const first = seen.get(key);
      if (first !== undefined) problem(field, `duplicate of line ${first}`);
      else seen.set(key, record.line);
    };

    if (kind === 'results') {
      const bib = normalizeBib(required('bib'));
      if (bib.length > 20) problem('bib', 'at most 20 characters');
      if (bib) unique(bib, 'bib');
      const name = normalizeName(required('name'));
      const gender = parseGender(get('gender'));
      if (gender === null) problem('gender', 'must be 1/M/男 or 2/F/女');
      const certNo = normalizeCertNo(required('certificateNumber'));
      const birthday = get('birthday');
      if (!validDate(birthday)) problem('birthday', 'must be a date YYYY-MM-DD');
      const item = get('item').toUpperCase();
      const def = ITEMS[item];
      if (!def) problem('item', `must be one of ${Object.keys(ITEMS).join(', ')}`);
      const chipMs = parseDuration(get('chipTime'));
      if (chipMs === null || chipMs <= 0) problem('chipTime', 'must be a time H:MM:SS');
      const gunMs = has('gunTime') ? parseDuration(get('gunTime')) : chipMs;
      if (gunMs === null) problem('gunTime', 'must be a time H:MM:SS');
      else if (chipMs !== null && gunMs < chipMs) problem('gunTime', 'cannot be less than the chip time');
      const splits: { checkpoint: string; distanceKm: number; chipMs: number }[] = [];
      for (const col of columns.filter((c) => CHECKPOINT.test(c))) {
        if (!has(col)) continue;
        const ms = parseDuration(get(col));
        const km = checkpointKm(col);
        if (ms === null) problem(col, 'must be a time H:MM:SS');
        else if (def && km >= def.distanceKm) problem(col, `is beyond the ${def.nameEn} distance`);
        else if (chipMs !== null && ms >= chipMs) problem(col, 'must be less than the chip time');
        else splits.push({ checkpoint: col, distanceKm: km, chipMs: ms });
      }
      splits.sort((a, b) => a.distanceKm - b.distanceKm);
      if (splits.some((s, i) => i > 0 && s.chipMs <= (splits[i - 1]?.chipMs ?? 0))) {
        problem('splits', 'checkpoint times must increase with distance');
      }
      if (rowProblems.length === 0 && gender !== null && chipMs !== null && gunMs !== null) {
        good.push({
          race_id: raceId,
          bib,
          name,
          gender,
          cert_hash: repos.raceCenter.certHash(certNo),
          item,
          gun_ms: gunMs,
          chip_ms: chipMs,
          rank_overall: 0,
          rank_gender: 0,
          rank_age_group: 0,
          age_group: ageGroupLabel(gender, ageOn(birthday, raceDate)),
          finishers: 0,
          splits_json: JSON.stringify(splits),
        } satisfies ResultRow);
      }
    } else if (kind === 'registrations') {
      const name = normalizeName(required('name'));
      const gender = parseGender(get('gender'));
      if (gender === null) problem('gender', 'must be 1/M/男 or 2/F/女');
      const birthday = get('birthday');
      if (!validDate(birthday)) problem('birthday', 'must be a date YYYY-MM-DD');
      const certType = Number(get('certificateType'));
      if (![1, 2, 3, 4].includes(certType)) problem('certificateType', 'must be 1 (ID card), 2, 3 or 4');
      const certNo = normalizeCertNo(required('certificateNumber'));
      if (certType === 1 && certNo && !/^\d{17}[\dX]$/.test(certNo))
        problem('certificateNumber', 'not an 18-character ID number');
      if (certNo) unique(`cert:${certNo}`, 'certificateNumber');
      const phone = get('phone');
      if (!MOBILE.test(phone)) problem('phone', 'must be 11 digits starting with 1');
      const emergencyName = normalizeName(required('emergencyName'));
      const emergencyPhone = get('emergencyPhone');
      if (!MOBILE.test(emergencyPhone)) problem('emergencyPhone', 'must be 11 digits starting with 1');
      if (emergencyPhone === phone) problem('emergencyPhone', "must differ from the runner's phone");
      if (emergencyName && emergencyName === name) problem('emergencyName', "must differ from the runner's name");
      const item = get('item').toUpperCase();
      if (!ITEMS[item]) problem('item', `must be one of ${Object.keys(ITEMS).join(', ')}`);
      const status = Number(get('status'));
      if (!/^[0-5]$/.test(get('status'))) problem('status', 'must be 0..5');
      const bib = has('bib') ? normalizeBib(get('bib')) : null;
      if (bib) unique(`bib:${bib}`, 'bib');
      const money = (field: string) => {
        if (!has(field)) return 0;
        const n = Number(get(field));
        if (!Number.isFinite(n) || n < 0) problem(field, 'must be a non-negative amount');
        return n;
      };
      const time = (field: string) => {
        if (has(field) && !DATE_TIME.test(get(field))) problem(field, 'must be YYYY-MM-DD HH:mm:ss');
        return get(field);
      };
      const channel = has('channel') ? (CHANNELS[get('channel').toLowerCase()] ?? null) : 3;
      if (channel === null) problem('channel', 'must be web, app or third-party (or 3, 5, 2)');
      const channelName = get('channelName');
      const channelNameEn = get('channelNameEn');
      for (const [field, value] of [
        ['channelName', channelName],
        ['channelNameEn', channelNameEn],
      ] as const) {
        if (value.length > 50) problem(field, 'at most 50 characters');
        else if (value && channel !== null && channel !== 2) problem(field, 'only for third-party registrations');
      }
      const order: OrderRow = {
        orderNo: get('orderNo'),
        subOrderNo: get('subOrderNo'),
        createTime: time('createTime'),
        serialNo: get('serialNo'),
        payTime: time('payTime'),
        amountPaid: money('amountPaid'),
        orderAmount: money('orderAmount'),
        coupon: get('coupon'),
        discount: money('discount'),
      };
      if (rowProblems.length === 0 && gender !== null && channel !== null) {
        good.push({
          race_id: raceId,
          bib,
          name,
          gender,
          birthday,
          cert_type: certType,
          cert_hash: repos.raceCenter.certHash(certNo),
          cert_masked: maskCertNo(certNo),
          phone_masked: maskMobile(phone),
          emergency_name: emergencyName,
          emergency_phone_masked: maskMobile(emergencyPhone),
          item,
          status,
          orders_json: JSON.stringify(order.orderNo ? [order] : []),
          channel,
          channel_name: channelName || null,
          channel_name_en: channelNameEn || null,
        } satisfies RegistrationRow);
      }
    } else {
      const bib = normalizeBib(required('bib'));
      const url = get('url');
      // Spec §5: an http(s) URL is used as is; anything else is a path on the file host (VITE_FILE_HOST).
      if (!/^(https?:\/\/[^\s"<>]+|[\w.-][^\s"<>:]*)$/.test(url)) {
        problem('url', 'must be an http(s) URL or a path on the file host such as demo/gallery/photo-01.jpg');
      }
      const takenAt = get('takenAt');
      if (!DATE_TIME.test(takenAt)) problem('takenAt', 'must be YYYY-MM-DD HH:mm:ss');
      if (rowProblems.length === 0) good.push({ race_id: raceId, bib, url, taken_at: takenAt } satisfies PhotoRow);
    }
    problems.push(...rowProblems);
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(`… and ${problems.length - MAX_PROBLEMS} more problems`);
    return { ok: false, problems: shown };
  }

  const repo = repos.raceCenter;
  db.transaction(() => {
    for (const row of good) {
      if (kind === 'results') repo.upsertResult(row as ResultRow);
      else if (kind === 'registrations') repo.upsertRegistration(row as RegistrationRow);
      else repo.insertPhoto(row as PhotoRow);
    }
    if (kind === 'results') repo.recomputeRanks(raceId);
  })();
  return { ok: true, rows: good.length, summary: `imported ${good.length} ${kind} into ${raceId} (${race.raceName})` };
}
