/**
 * Invitation codes, the organiser's side (issue 14 §6; the CLI's codes-issue, codes-import and codes-list, and
 * the console's codes page): random codes issued for an item, named single-use codes imported from a file,
 * and the list. Any number of codes (hundreds of thousands) is handled in batches, never by spreading a whole
 * list into one call. An import is idempotent: a person who already has a named code for the item (the same
 * code, or a generated one) is skipped and reported, so running the same file again adds nothing.
 */
import { INVITATION_CODE_PATTERN, normalizeCode } from '#contract/entry';
import { isCertificateType } from '#contract/enums';
import { messageText } from '#contract/messages';
import { parseRaceTime } from '#contract/race-clock';
import { checkCertificateNumber, checkName } from '#contract/rules';
import { randomText } from '../../db/entries-repository.ts';
import type { InvitationCodeRow, NewInvitationCode } from '../../db/entry-admin-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { problemTexts, readTable, tableProblem } from '../../lib/csv-table.ts';
import { normalizeCertNo, normalizeName } from '../../lib/race-center.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { findItem, raceContext, unknownItemText, type RaceContext } from './race-items.ts';

/** Invitation codes: 10 letters or digits without look-alikes (0/O, 1/I/L), crypto random (entries' randomText). */
export const CODE_LENGTH = 10;
export const newInvitationCode = () => randomText(CODE_LENGTH);

export const CODE_NOTE_MAX = 200;
export const CODES_PER_ISSUE_MAX = 500_000;
export const CODE_USES_MAX = 1_000_000;

/** How a code is shown in lists: for one named person, single use for anyone, or several uses for anyone. */
export type CodeKindLabel = 'named' | 'single' | 'multi';
export const codeKindLabel = (code: Pick<InvitationCodeRow, 'kind' | 'maxUses'>): CodeKindLabel =>
  code.kind === 'named' ? 'named' : code.maxUses === 1 ? 'single' : 'multi';

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** An expiry (race clock, YYYY-MM-DD HH:mm:ss) after `now`: its instant, or the problem. */
export function expiry(text: string, zone: string, now: number): { at: number } | { problem: string } {
  const at = DATE_TIME.test(text) ? parseRaceTime(text, zone) : null;
  if (at === null) return { problem: `"${text}" is not a time YYYY-MM-DD HH:mm:ss (race clock, ${zone})` };
  if (at <= now) return { problem: `${text} is already past` };
  return { at };
}

/** `count` new codes that the race does not have yet (and that are not in `taken`). */
export async function freshCodes(
  repos: Repositories,
  raceId: string,
  count: number,
  taken: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const codes = new Set<string>();
  for (let attempt = 0; codes.size < count && attempt < 5; attempt += 1) {
    const batch = new Set<string>();
    while (batch.size < count - codes.size) {
      const code = newInvitationCode();
      if (!codes.has(code) && !taken.has(code)) batch.add(code);
    }
    const existing = await repos.entryAdmin.existingCodes(raceId, [...batch]);
    for (const code of batch) if (!existing.has(code)) codes.add(code);
  }
  return [...codes];
}

type Refused = { ok: false; problem: string };

export interface IssueCodesInput {
  raceId: string;
  item: string;
  count: number;
  /** Uses of each code (default 1: single use). */
  uses?: number;
  /** Race clock, YYYY-MM-DD HH:mm:ss. */
  expires?: string;
  note?: string;
  now: number;
  /** Who issues them: the audit record codes.issue (never the codes) is written with them. */
  actor?: AuditActor;
}

export interface IssuedCodes {
  ok: true;
  race: RaceContext;
  itemCode: string;
  uses: number;
  expiresAt: number | null;
  note: string;
  codes: string[];
}

/** Issues `count` random codes for an item of the race, in one transaction. */
export async function issueCodes(repos: Repositories, input: IssueCodesInput): Promise<IssuedCodes | Refused> {
  const { raceId, count, now } = input;
  const uses = input.uses ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > CODES_PER_ISSUE_MAX) {
    return { ok: false, problem: `the count must be a whole number from 1 to ${CODES_PER_ISSUE_MAX}` };
  }
  if (!Number.isInteger(uses) || uses < 1 || uses > CODE_USES_MAX) {
    return { ok: false, problem: `the uses must be a whole number from 1 to ${CODE_USES_MAX}` };
  }
  const note = (input.note ?? '').trim();
  if (note.length > CODE_NOTE_MAX)
    return { ok: false, problem: `the note may have at most ${CODE_NOTE_MAX} characters` };
  const race = await raceContext(repos, raceId);
  if (!race) return { ok: false, problem: `No race "${raceId}". Add it first with: site add-race <race.json>` };
  const itemCode = findItem(race, input.item);
  if (!itemCode) return { ok: false, problem: unknownItemText(race, input.item) };
  let expiresAt: number | null = null;
  if (input.expires !== undefined) {
    const parsed = expiry(input.expires.trim(), race.zone, now);
    if ('problem' in parsed) return { ok: false, problem: `expiry: ${parsed.problem}` };
    expiresAt = parsed.at;
  }
  const codes = await freshCodes(repos, raceId, count);
  if (codes.length < count)
    return { ok: false, problem: 'Could not draw enough new codes; nothing issued. Try again.' };
  const rows: NewInvitationCode[] = codes.map((code) => ({
    raceId,
    code,
    itemCode,
    kind: 'multi',
    namedName: null,
    namedCertHash: null,
    maxUses: uses,
    expiresAt,
    note,
    createdAt: now,
  }));
  const inserted = await repos.transaction(async (tx) => {
    const n = await tx.entryAdmin.insertCodes(rows);
    // A code drawn meanwhile by another issue: nothing of this one is kept (the organiser runs it again).
    if (n !== rows.length) throw new Error('a code was issued meanwhile; nothing issued, try again');
    if (input.actor) {
      await appendAudit(
        tx,
        input.actor,
        {
          action: 'codes.issue',
          raceId,
          target: `${raceId} item ${itemCode}`,
          after: { item: itemCode, count: n, uses, expiresAt, note, createdAt: now },
        },
        now,
      );
    }
    return n;
  });
  return { ok: true, race, itemCode, uses, expiresAt, note, codes: codes.slice(0, inserted) };
}

export const CODE_IMPORT_COLUMNS = {
  required: ['itemCode', 'name', 'certificateType', 'certificateNumber'],
  optional: ['code', 'expires'],
} as const;

/** A row of the file that becomes a code. */
export interface ImportedCode {
  line: number;
  code: string;
  itemCode: string;
  name: string;
}

/** A row of the file whose person already has a named code for the item: left as it is. */
export interface SkippedCode extends ImportedCode {
  /** The code the person already has. */
  existing: string;
}

export type CodesImportOutcome =
  { ok: true; imported: ImportedCode[]; skipped: SkippedCode[] } | { ok: false; problems: string[] };

/**
 * Imports named single-use codes from a CSV file's text (columns CODE_IMPORT_COLUMNS). Every row is checked
 * first; any bad row means nothing is written, and the problems come back as `line N: field: problem`.
 * A row whose person (certificate) already has a named code for that item is skipped and reported, so a
 * re-run of the same file adds nothing; a code that belongs to someone else is a problem.
 */
export async function importNamedCodes(
  repos: Repositories,
  input: {
    raceId: string;
    text: string;
    source: string;
    now: number;
    /** false: check the file and answer what it would import, writing nothing (the console's preview). */
    write?: boolean;
    /** Who imports: the audit record codes.import is written with the codes. */
    actor?: AuditActor;
  },
): Promise<CodesImportOutcome | { ok: false; noRace: true; problems: string[] }> {
  const { raceId, now } = input;
  const race = await raceContext(repos, raceId);
  if (!race) {
    return { ok: false, noRace: true, problems: [`No race "${raceId}". Add it first with: site add-race <race.json>`] };
  }
  type GoodRow = NewInvitationCode & { line: number };
  const table = readTable(input.text, CODE_IMPORT_COLUMNS, ({ line, get, unique, problem }): GoodRow | undefined => {
    const code = get('code') === '' ? '' : normalizeCode(get('code'));
    if (code !== '') {
      if (!INVITATION_CODE_PATTERN.test(code)) problem('code', 'must be 6-32 letters or digits');
      else unique(code, 'code');
    }
    const itemCode = findItem(race, get('itemCode'));
    if (!itemCode)
      problem('itemCode', `no item "${get('itemCode')}" in the race (items: ${race.items.join(', ') || 'none'})`);
    const name = normalizeName(get('name'));
    const nameRefusal = checkName(name);
    if (nameRefusal) problem('name', messageText(nameRefusal.code, nameRefusal.params));
    const typeText = get('certificateType');
    const certType = /^[1-4]$/.test(typeText) ? Number(typeText) : NaN;
    const certNo = normalizeCertNo(get('certificateNumber'));
    let certOk = false;
    if (!isCertificateType(certType)) problem('certificateType', 'must be 1 (ID card), 2 (passport), 3 or 4 (permits)');
    else {
      const refusal = checkCertificateNumber(certType, certNo);
      if (refusal) problem('certificateNumber', messageText(refusal.code, refusal.params));
      else certOk = true;
    }
    const certHash = certOk ? repos.raceCenter.certHash(certNo) : '';
    // The person key holds a NUL, which no code does: one namespace for both.
    if (certOk && itemCode)
      unique(
        `${itemCode}\u0000${certHash}`,
        'certificateNumber',
        (first) => `the same person and item as line ${first}`,
      );
    let expiresAt: number | null = null;
    if (get('expires') !== '') {
      const parsed = expiry(get('expires'), race.zone, now);
      if ('problem' in parsed) problem('expires', parsed.problem);
      else expiresAt = parsed.at;
    }
    if (!itemCode) return undefined;
    return {
      line,
      raceId,
      code,
      itemCode,
      kind: 'named',
      namedName: name,
      namedCertHash: certHash,
      maxUses: 1,
      expiresAt,
      note: `imported from ${input.source}`,
      createdAt: now,
    };
  });
  if (!table.ok) return table;
  const { rows: good } = table;
  const problems = [...table.problems];
  // The codes the file names (a row with a problem stops the import before any is used).
  const fileCodes = good.map((row) => row.code).filter((code) => code !== '');

  // The people who already have a named code for the item, and the codes of the file the race already has.
  const held = new Map<string, string>();
  for (const owned of await repos.entryAdmin.namedCodes(raceId)) {
    const key = `${owned.itemCode}\u0000${owned.namedCertHash}`;
    if (!held.has(key)) held.set(key, owned.code);
  }
  const stored = await repos.entryAdmin.codesByValue(raceId, fileCodes);
  const skipped: SkippedCode[] = [];
  const fresh: typeof good = [];
  for (const row of good) {
    const existing = held.get(`${row.itemCode}\u0000${row.namedCertHash}`);
    const owner = row.code === '' ? undefined : stored.get(row.code);
    if (owner && (owner.namedCertHash !== row.namedCertHash || owner.itemCode !== row.itemCode)) {
      problems.push(
        tableProblem(row.line, 'code', `${row.code} already exists in ${raceId} for another person or item`),
      );
    } else if (existing !== undefined) {
      skipped.push({
        line: row.line,
        code: row.code || existing,
        itemCode: row.itemCode,
        name: row.namedName ?? '',
        existing,
      });
    } else fresh.push(row);
  }
  if (problems.length > 0) return { ok: false, problems: problemTexts(problems) };
  if (input.write === false) {
    // The preview: a blank code is drawn when the file is imported.
    return {
      ok: true,
      imported: fresh.map((row) => ({
        line: row.line,
        code: row.code,
        itemCode: row.itemCode,
        name: row.namedName ?? '',
      })),
      skipped,
    };
  }

  const generated = await freshCodes(repos, raceId, fresh.filter((row) => row.code === '').length, new Set(fileCodes));
  for (const row of fresh) if (row.code === '') row.code = generated.pop() ?? '';
  if (fresh.some((row) => row.code === ''))
    return { ok: false, problems: ['could not draw enough new codes; try again'] };
  await repos.transaction(async (tx) => {
    const n = await tx.entryAdmin.insertCodes(fresh);
    // A code made between the check and now: nothing of the file is kept.
    if (n !== fresh.length) throw new Error('a code of the file was created meanwhile; nothing imported, try again');
    if (input.actor) {
      await appendAudit(
        tx,
        input.actor,
        {
          action: 'codes.import',
          raceId,
          target: `${raceId} ${input.source}`,
          after: { file: input.source, imported: n, skipped: skipped.length, createdAt: now },
        },
        now,
      );
    }
  });
  return {
    ok: true,
    imported: fresh.map((row) => ({
      line: row.line,
      code: row.code,
      itemCode: row.itemCode,
      name: row.namedName ?? '',
    })),
    skipped,
  };
}

/** The race's codes (the CLI's codes-list), by item and in the order they were issued. */
export const raceCodes = (repos: Repositories, raceId: string): Promise<InvitationCodeRow[]> =>
  repos.entryAdmin.listCodes(raceId);
