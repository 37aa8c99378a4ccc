/**
 * The electronic commitment letter (issue 15 §1; shapes and calculations in contract/after-entry.ts): what
 * letterGet answers (the race's current letter and each of the caller's won entries with its newest
 * signature) and the rules of letterSign. The letter is the race's `commitmentLetter`; its version is the
 * hash of its text, so a changed text makes older signatures no longer current. A signature is appended
 * (never changed) with the version, the statements ticked, the name typed, the co-signers (encrypted), the
 * time, IP and user agent, and the entry's timeline gets 'letterSigned'.
 */
import {
  letterCosigners,
  letterVersionHash,
  letterVersionText,
  mustSignLetter,
  type CommitmentLetterSettings,
  type Cosigner,
  type LetterAnswer,
  type LetterEntry,
  type LetterSignRequest,
  type LetterSignatureView,
} from '#contract/after-entry';
import {
  CONSOLE_LIST_PAGE_SIZE,
  LETTER_STANDINGS,
  type LetterRowView,
  type LetterStanding,
  type LettersPageAnswer,
} from '#contract/console-mailing';
import type { Refusal } from '#contract/messages';
import { formatRaceTime } from '#contract/race-clock';
import { deadlineState, type DeadlineState } from '#contract/registration-screens';
import { checkPhone, checkRequiredText } from '#contract/rules';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { EntryRecord } from '../../db/entries-repository.ts';
import type { LetterSignatureRecord } from '../../db/letters-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskCertNo, maskMobile, normalizeName } from '../../lib/race-center.ts';
import { itemOf } from '../entry/views.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { tableFile, type ExportFormat } from '../console/table-file.ts';

/** The longest user agent kept with a signature. */
export const USER_AGENT_MAX = 512;
/** A co-signer's relation to the runner: 1–20 characters. */
export const RELATION_MAX = 20;

/** The letter's state at `now`: closed without an enabled letter, ended from its deadline (or race day) on. */
export function letterState(race: RaceInfo, now: number): DeadlineState {
  const letter = race.commitmentLetter;
  const deadline = letter?.deadline ?? race.startTime;
  return deadlineState(
    letter ? { enabled: letter.enabled, ...(deadline ? { deadline } : {}) } : undefined,
    now,
    raceTimeZone(race),
  );
}

/** The race day, 'YYYY-MM-DD' (ages on it decide the co-signers). */
const raceDateOf = (race: RaceInfo) => (race.startTime ?? '').slice(0, 10);

const needsOf = (race: RaceInfo, letter: CommitmentLetterSettings, entry: EntryRecord) =>
  letterCosigners(letter, entry.birthday, raceDateOf(race));

const maskedCosigner = (c: Cosigner | null) =>
  c ? { name: c.name, relation: c.relation, phone: maskMobile(c.phone) } : null;

function signatureView(signature: LetterSignatureRecord, currentHash: string | null): LetterSignatureView {
  return {
    versionHash: signature.versionHash,
    current: signature.versionHash === currentHash,
    signerName: signature.signerName,
    guardian: maskedCosigner(signature.guardian),
    relative: maskedCosigner(signature.relative),
    signedAt: signature.signedAt,
  };
}

function letterEntry(
  race: RaceInfo,
  entry: EntryRecord,
  signature: LetterSignatureRecord | undefined,
  currentHash: string | null,
): LetterEntry {
  const letter = race.commitmentLetter;
  return {
    entryNo: entry.entryNo,
    name: entry.name,
    itemName: itemOf(race.entry, entry.itemCode)?.name ?? { zh: entry.itemCode, en: entry.itemCode },
    needs: letter ? needsOf(race, letter, entry) : { guardian: false, relative: false },
    signature: signature ? signatureView(signature, currentHash) : null,
  };
}

const currentHashOf = (race: RaceInfo) =>
  race.commitmentLetter?.enabled ? letterVersionHash(race.commitmentLetter) : null;

/** letterGet: the race's letter and the caller's won entries of the race, oldest first. */
export async function letterAnswer(
  repos: Repositories,
  race: RaceInfo,
  userId: number,
  now: number,
): Promise<LetterAnswer> {
  const state = letterState(race, now);
  const letter = race.commitmentLetter;
  const hash = currentHashOf(race);
  const entries = (await repos.entries.listForUser(userId))
    .filter((e) => e.raceId === race.raceId && mustSignLetter(e.status))
    .reverse();
  const signatures = await repos.letters.newestOf(entries.map((e) => e.id));
  return {
    raceId: race.raceId,
    letter:
      letter && hash
        ? {
            title: letter.title,
            body: letter.body,
            statements: letter.statements,
            versionHash: hash,
            ...(letter.deadline ? { deadline: letter.deadline } : {}),
          }
        : null,
    state,
    entries: entries.map((e) => letterEntry(race, e, signatures.get(e.id), hash)),
  };
}

export type SignOutcome =
  | { ok: true; entry: LetterEntry }
  | { ok: false; kind: 'fields'; fields: Record<string, Refusal> }
  | { ok: false; kind: 'plain'; status: number; code: Refusal['code']; params?: Refusal['params'] };

const plain = (status: number, code: Refusal['code'], params?: Refusal['params']): SignOutcome =>
  params ? { ok: false, kind: 'plain', status, code, params } : { ok: false, kind: 'plain', status, code };

const trimmed = (text: string | undefined) => (text ?? '').trim();

/** The refusals of one co-signer (`key` 'guardian' or 'relative'), field keys like 'guardian.name'. */
export function cosignerRefusals(key: 'guardian' | 'relative', cosigner: Cosigner | undefined, runnerName: string) {
  const fields: Record<string, Refusal> = {};
  const name = checkRequiredText(trimmed(cosigner?.name), {
    required: 'cosignerNameRequired',
    invalid: 'cosignerNameInvalid',
  });
  if (name) fields[`${key}.name`] = name;
  else if (normalizeName(trimmed(cosigner?.name)) === normalizeName(runnerName)) {
    fields[`${key}.name`] = { code: 'cosignerSameAsRunner' };
  }
  const relation = trimmed(cosigner?.relation);
  if (relation.length < 1 || [...relation].length > RELATION_MAX) {
    fields[`${key}.relation`] = { code: 'cosignerRelationInvalid' };
  }
  const phone = checkPhone(trimmed(cosigner?.phone), { strict: true });
  if (phone) fields[`${key}.phone`] = phone;
  return fields;
}

const cleanCosigner = (c: Cosigner): Cosigner => ({
  name: normalizeName(c.name),
  relation: c.relation.trim(),
  phone: c.phone.trim(),
});

/** letterSign: checks, then appends the signature (and the timeline step) in one transaction. */
export async function signLetter(
  deps: { repos: Repositories; now: () => number },
  userId: number,
  body: LetterSignRequest,
  client: { ip: string; userAgent: string },
): Promise<SignOutcome> {
  const { repos } = deps;
  const race = await repos.races.findById(body.raceId);
  if (!race) return plain(404, 'raceNotFound');
  const entry = await repos.entries.findByNo(body.entryNo);
  // Another account's entry (or one of another race) answers as a missing one.
  if (!entry || entry.userId !== userId || entry.raceId !== race.raceId) return plain(404, 'registrationMissing');
  const now = deps.now();
  const state = letterState(race, now);
  const letter = race.commitmentLetter;
  if (state === 'closed' || !letter) return plain(400, 'letterClosed');
  if (state === 'ended') return plain(400, 'letterEnded', { deadline: letter.deadline ?? race.startTime ?? '' });
  if (!mustSignLetter(entry.status)) return plain(400, 'letterNotWon');
  const hash = letterVersionHash(letter);
  if (body.versionHash !== hash) return plain(409, 'letterChanged');

  const fields: Record<string, Refusal> = {};
  const accepted = [...new Set(body.accepted)].sort((a, b) => a - b);
  const every = letter.statements.map((_, i) => i);
  if (accepted.length !== body.accepted.length || accepted.join(',') !== every.join(',')) {
    fields.accepted = { code: 'letterStatementsMissing' };
  }
  if (normalizeName(trimmed(body.signerName)) !== normalizeName(entry.name)) {
    fields.signerName = { code: 'letterNameMismatch' };
  }
  const needs = needsOf(race, letter, entry);
  if (needs.guardian) Object.assign(fields, cosignerRefusals('guardian', body.guardian, entry.name));
  if (needs.relative) Object.assign(fields, cosignerRefusals('relative', body.relative, entry.name));
  if (Object.keys(fields).length > 0) return { ok: false, kind: 'fields', fields };

  const signature = {
    raceId: race.raceId,
    entryId: entry.id,
    userId,
    versionHash: hash,
    signerName: trimmed(body.signerName),
    accepted,
    guardian: needs.guardian && body.guardian ? cleanCosigner(body.guardian) : null,
    relative: needs.relative && body.relative ? cleanCosigner(body.relative) : null,
    ip: client.ip,
    userAgent: client.userAgent.slice(0, USER_AGENT_MAX),
    signedAt: now,
  };
  const stored = await repos.transaction(async (tx) => {
    // The entry is read again inside the transaction: a refund approved meanwhile leaves it unsigned.
    const fresh = await tx.entries.findById(entry.id);
    if (!fresh || !mustSignLetter(fresh.status)) return undefined;
    await tx.letters.recordVersion(race.raceId, hash, letterVersionText(letter), now);
    const id = await tx.letters.insertSignature(signature);
    await tx.entries.addEvent(entry.id, 'letterSigned', now);
    return { id, ...signature };
  });
  if (!stored) return plain(400, 'letterNotWon');
  return { ok: true, entry: letterEntry(race, entry, stored, hash) };
}

/** Where a won entry stands with the letter: signed the current text, an older one, or not at all. */
export type { LetterStanding };
export const LETTER_STANDING_TEXT: Record<LetterStanding, string> = {
  current: 'signed (current version)',
  older: 'signed an older version',
  unsigned: 'not signed',
};

export const LETTER_ROSTER_COLUMNS = [
  'entryNo',
  'item',
  'name',
  'certificate',
  'signed',
  'signedAt',
  'signerName',
  'guardian',
  'relative',
] as const;

const cosignerText = (c: Cosigner | null) => (c ? `${c.name} (${c.relation})` : null);

/** The organiser's roster (letters-export, letters-status, the console): every won entry and its newest signature. */
export async function letterRoster(repos: Repositories, race: RaceInfo) {
  const hash = currentHashOf(race);
  const zone = raceTimeZone(race);
  const entries = (await repos.entries.listForRace(race.raceId)).filter((e) => mustSignLetter(e.status));
  const signatures = await repos.letters.newestOfRace(race.raceId);
  const counts: Record<LetterStanding, number> = { current: 0, older: 0, unsigned: 0 };
  const rows = entries.map((entry) => {
    const signature = signatures.get(entry.id);
    const standing: LetterStanding = !signature ? 'unsigned' : signature.versionHash === hash ? 'current' : 'older';
    counts[standing] += 1;
    const item = itemOf(race.entry, entry.itemCode);
    const view: LetterRowView = {
      entryNo: entry.entryNo,
      itemCode: entry.itemCode,
      itemName: item?.name ?? { zh: entry.itemCode, en: entry.itemCode },
      name: entry.name,
      certificate: maskCertNo(entry.certNumber),
      standing,
      signedAt: signature?.signedAt ?? null,
      signerName: signature?.signerName ?? null,
      guardian: cosignerText(signature?.guardian ?? null),
      relative: cosignerText(signature?.relative ?? null),
    };
    return {
      itemCode: entry.itemCode,
      standing,
      view,
      cells: [
        entry.entryNo,
        item ? `${item.name.zh} / ${item.name.en}` : entry.itemCode,
        entry.name,
        view.certificate,
        LETTER_STANDING_TEXT[standing],
        signature ? formatRaceTime(signature.signedAt, undefined, zone) : '',
        view.signerName ?? '',
        view.guardian ?? '',
        view.relative ?? '',
      ],
    };
  });
  return { rows, counts, hash };
}

export interface LettersQuery {
  /** An entry number, or a part of the name. */
  q?: string;
  standing?: string;
  item?: string;
  page?: number;
}

type LettersFilter = { q?: string; standing?: LetterStanding; item?: string };

function lettersFilter(
  race: RaceInfo,
  query: LettersQuery,
): { ok: true; filter: LettersFilter } | { ok: false; field: 'standing' | 'item' } {
  const standing = query.standing || undefined;
  if (standing !== undefined && !(LETTER_STANDINGS as readonly string[]).includes(standing))
    return { ok: false, field: 'standing' };
  const item = query.item || undefined;
  if (item !== undefined && !itemOf(race.entry, item)) return { ok: false, field: 'item' };
  const q = query.q?.trim() || undefined;
  return {
    ok: true,
    filter: {
      ...(q ? { q } : {}),
      ...(standing ? { standing: standing as LetterStanding } : {}),
      ...(item ? { item } : {}),
    },
  };
}

const matches = (filter: LettersFilter) => (row: { standing: LetterStanding; itemCode: string; view: LetterRowView }) =>
  (filter.q === undefined ||
    row.view.entryNo.toUpperCase() === filter.q.toUpperCase() ||
    row.view.name.includes(filter.q)) &&
  (filter.standing === undefined || row.standing === filter.standing) &&
  (filter.item === undefined || row.itemCode === filter.item);

/** The console's letters page: the letter's version and state, the counts, and a page of the filtered roster. */
export async function lettersPage(
  repos: Repositories,
  race: RaceInfo,
  query: LettersQuery,
  now: number,
): Promise<{ ok: true; answer: LettersPageAnswer } | { ok: false; field: 'standing' | 'item' | 'page' }> {
  const parsed = lettersFilter(race, query);
  if (!parsed.ok) return parsed;
  const page = query.page ?? 1;
  if (!Number.isInteger(page) || page < 1) return { ok: false, field: 'page' };
  const roster = await letterRoster(repos, race);
  const matching = roster.rows.filter(matches(parsed.filter));
  const letter = race.commitmentLetter;
  const pageSize = CONSOLE_LIST_PAGE_SIZE;
  return {
    ok: true,
    answer: {
      letter:
        letter && roster.hash
          ? {
              title: letter.title,
              versionHash: roster.hash,
              state: letterState(race, now),
              deadline: letter.deadline ?? race.startTime ?? null,
            }
          : null,
      counts: roster.counts,
      items: (race.entry?.items ?? []).map((item) => ({ code: item.code, name: item.name })),
      rows: matching.slice((page - 1) * pageSize, page * pageSize).map((row) => row.view),
      total: matching.length,
      page,
      pageSize,
    },
  };
}

/**
 * The roster as a file (letters-export, the console's download of the filtered roster), recorded in the audit
 * log with its format, filter and row count (names and co-signers are in it).
 */
export async function exportLetters(
  repos: Repositories,
  race: RaceInfo,
  options: { format: ExportFormat; query?: LettersQuery },
  actor: AuditActor,
  now: number,
): Promise<
  | {
      ok: true;
      fileName: string;
      contentType: string;
      bytes: string | Buffer;
      rows: number;
      counts: Record<LetterStanding, number>;
    }
  | { ok: false; field: 'standing' | 'item' }
> {
  const parsed = lettersFilter(race, options.query ?? {});
  if (!parsed.ok) return parsed;
  const roster = await letterRoster(repos, race);
  const rows = roster.rows.filter(matches(parsed.filter));
  await appendAudit(
    repos,
    actor,
    {
      action: 'letters.export',
      raceId: race.raceId,
      target: race.raceId,
      after: { format: options.format, filters: parsed.filter, rows: rows.length },
    },
    now,
  );
  const table = [[...LETTER_ROSTER_COLUMNS], ...rows.map((row) => row.cells)];
  return {
    ok: true,
    ...tableFile(table, 'letters', race.raceId, options.format, now),
    rows: rows.length,
    counts: roster.counts,
  };
}
