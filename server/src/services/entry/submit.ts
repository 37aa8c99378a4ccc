/**
 * A sign-up submission (issue 14 §1, §2; contract/entry.ts EntrySubmitRequest): one or more people (several
 * only when the race allows it) for one item through one channel, all accepted or none.
 *
 * Checked before any write: the window (race clock, signUpOpenStatus 1; an invitation code works while public
 * entry is closed), the item (codeOnly items only by code), the channel's conditions, each person's values
 * against the published form of the entry's form channel (the same check as /direct), the item's age bounds on
 * race day and one certificate per person, and the account's limit (contract peoplePerAccount: its live entries
 * in the race, these people included; docs/entry-limits.md). A submission carries a passed slider check (the
 * login codes' provider), redeemed once just before writing. Then in one transaction: the stored answer of the
 * idempotency key, the account's count again (under the account's lock), one live entry per person and race
 * (under the person's lock, backed by the entries_person index), the code's uses and the places by conditional
 * updates (never read then written), the team's size under the team's lock, the entries and their order. A
 * refusal inside the transaction rolls back everything it wrote. A unique index met is a person's refusal only
 * when that person now has a live entry; otherwise (a number drawn meanwhile) the submission is written again.
 *
 * On PostgreSQL a submission without a team and with an order to pay (or none) skips the transaction: its writes
 * are one statement that commits by itself (EntriesRepository.writeSubmission), so the item's places row, which
 * every submission of a registration opening updates, is locked only while PostgreSQL commits and never while an
 * answer travels to this process and back. Two submissions of the same person or key then meet in the unique
 * indexes instead of the locks, and the later one answers as it would after the lock; the account's count is
 * read in that statement under the account's lock, which it holds until it commits.
 *
 * Places and orders by model and channel: first-come, charity, direct and code entries take a place now and
 * get an order to pay within the item's payment minutes; pay-then-draw entries get an order and no place; ballot
 * entries (public or team) wait for the draw with no order. An order of 0 fen is paid at once.
 */
import {
  ageProblem,
  ENTRY_STATUSES,
  feeFen,
  MAX_PEOPLE_PER_SUBMISSION,
  normalizeCode,
  PARTICIPANT_KEYS,
  peoplePerAccount,
  type EntryItemSettings,
  type EntrySubmitAnswer,
  type EntrySubmitRequest,
  type OrderView,
  type TimelineStep,
} from '#contract/entry';
import { isCertificateType } from '#contract/enums';
import type { MessageCode, MessageParams, Refusal } from '#contract/messages';
import type { FormField, PublishedForm, RegistrationForm, SubmissionValues } from '#contract/registration-form';
import type { RaceInfo } from '#contract/site-config/race-types';
import {
  newEntryNo,
  poolOf,
  type EntriesRepository,
  type EntryEvent,
  type EntryRecord,
} from '../../db/entries-repository.ts';
import { newOrderNo, orderView, type OrderRecord } from '../../db/orders-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { FileStore } from '../../lib/file-store.ts';
import type { CaptchaProvider } from '../../plugins/captcha.ts';
import { fillSavedNumbers } from '../after-entry/participants.ts';
import { checkRegistrationSubmission } from '../registration/check-submission.ts';
import { ownResults } from '../registration/own-results.ts';
import { statusAfterPayment } from './order-transitions.ts';
import { tellRunner } from './entry-messages.ts';
import { paymentDeadline } from './payment-window.ts';
import { formChannelOf, itemOf, myEntryViews, signUpWindow } from './views.ts';

export interface SubmitDeps {
  repos: Repositories;
  files: FileStore;
  now: () => number;
  /** The human check of the login codes: a submission redeems a passed check once before it writes. */
  captcha: Pick<CaptchaProvider, 'redeem'>;
  /** Draw the entry and order numbers (default newEntryNo, newOrderNo; tests give their own to force a clash). */
  numbers?: { entryNo: () => string; orderNo: (at: number) => string };
}

/** How many times a submission that met a number taken meanwhile (or a rolled-back one) is written again. */
const ATTEMPTS = 8;

export type SubmitRefusal =
  | { kind: 'call'; status: number; code: MessageCode; params?: MessageParams }
  | { kind: 'fields'; fields: Record<string, Refusal> };

export type SubmitOutcome = { ok: true; answer: EntrySubmitAnswer } | { ok: false; refusal: SubmitRefusal };

/**
 * Thrown when a submission's writes kept nothing and are to be tried again: they met an entry or order number
 * taken meanwhile, or a submission of the same person that has since been rolled back.
 */
class TryAgain extends Error {
  constructor() {
    super('try again');
  }
}

/** A refusal decided inside the transaction: thrown so that everything written before it is rolled back. */
class Refused extends Error {
  constructor(readonly refusal: SubmitRefusal) {
    super('refused');
  }
}

const call = (status: number, code: MessageCode, params?: MessageParams): SubmitRefusal =>
  params ? { kind: 'call', status, code, params } : { kind: 'call', status, code };

/** A person of the submission, checked: what the entry row keeps. */
interface Person {
  index: number;
  certKey: string;
  name: string;
  gender: 0 | 1 | 2;
  birthday: string;
  certType: 1 | 2 | 3 | 4;
  certNumber: string;
  certHash: string;
  phone: string;
  values: Record<string, unknown>;
}

const firstOfType = (form: RegistrationForm, type: FormField['type']) => form.fields.find((f) => f.type === type);
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** True when the error is a unique-index violation (a person's entry, or a number taken meanwhile), on either engine. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** How many races, and published forms, a process keeps copies of (far more than an organiser has). */
const SEEN_LIMIT = 1000;

/** The value, and every object in it, made read-only. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Whether entries of this item and channel take a place at submission (and so get an order now). */
const takesPlaceNow = (item: EntryItemSettings, channel: EntrySubmitRequest['channel']) =>
  channel === 'charity' || channel === 'direct' || channel === 'code' || item.model === 'firstCome';

/** Takes n places of a pool; a race saved before sign-up existed gets its pool rows first. */
async function takePlaces(
  entries: EntriesRepository,
  raceId: string,
  settings: Parameters<EntriesRepository['ensurePlaces']>[1],
  item: EntryItemSettings,
  pool: 'main' | 'charity',
  n: number,
): Promise<boolean> {
  if (await entries.takePlace(raceId, item.code, pool, n)) return true;
  const rows = await entries.places(raceId);
  if (rows.some((row) => row.itemCode === item.code && row.pool === pool)) return false;
  await entries.ensurePlaces(raceId, settings);
  return entries.takePlace(raceId, item.code, pool, n);
}

export function createEntrySubmission({
  repos,
  files,
  now,
  captcha,
  numbers = { entryNo: newEntryNo, orderNo: newOrderNo },
}: SubmitDeps) {
  // This process's copies of races (by races.version) and of published forms (by version: a published
  // version never changes), read only: frozen, so no caller can change what the next submission reads.
  const seenRaces = new Map<string, { version: number; race: RaceInfo }>();
  const seenForms = new Map<string, PublishedForm>();
  const formKey = (raceId: string, channel: string, version: number) => `${raceId}\n${channel}\n${version}`;

  function keepRace(raceId: string, version: number, json: string): RaceInfo {
    const race = deepFreeze(JSON.parse(json) as RaceInfo);
    if (seenRaces.size >= SEEN_LIMIT) seenRaces.clear();
    seenRaces.set(raceId, { version, race });
    return race;
  }

  /** The race's published form of `channel`: this process's copy when `version` (read with the race) is known. */
  async function publishedForm(
    raceId: string,
    channel: string,
    channelRead: string | null,
    version: number | null,
  ): Promise<PublishedForm | undefined> {
    if (channel === channelRead && version !== null) {
      const kept = seenForms.get(formKey(raceId, channel, version));
      if (kept) return kept;
    }
    const published = await repos.registrationForms.latest(raceId, channel);
    if (published) {
      if (seenForms.size >= SEEN_LIMIT) seenForms.clear();
      seenForms.set(formKey(raceId, channel, published.version), deepFreeze(published));
    }
    return published;
  }

  /** Each participant's values checked against the form, the item and its age bounds. */
  async function checkPeople(
    form: RegistrationForm,
    item: EntryItemSettings,
    race: { raceId: string; raceDate: string },
    userId: number,
    participants: SubmissionValues[],
  ): Promise<{ ok: true; people: Omit<Person, 'certHash'>[] } | { ok: false; fields: Record<string, Refusal> }> {
    const fields: Record<string, Refusal> = {};
    const people: Omit<Person, 'certHash'>[] = [];
    const itemField = form.fields.find((f) => f.key === PARTICIPANT_KEYS.item);
    const certTypeField = firstOfType(form, 'certificateType');
    const certNumberField = firstOfType(form, 'certificateNumber');
    const asksForResults = form.fields.some((f) => f.type === 'pastEvents' || f.type === 'scoreVerification');
    for (const [index, sent] of participants.entries()) {
      const refuse = (key: string, refusal: Refusal) => {
        fields[`${index}.${key}`] ??= refusal;
      };
      const values: Record<string, unknown> = { ...sent };
      if (itemField) {
        // The form's item field is locked to the chosen item: filled when absent, refused when different.
        if (values[itemField.key] === undefined || values[itemField.key] === '') values[itemField.key] = item.code;
        if (values[itemField.key] !== item.code) {
          refuse(itemField.key, { code: 'entryItemMismatch' });
          continue;
        }
      }
      const name = text(values[PARTICIPANT_KEYS.name]);
      const certNumber = certNumberField ? text(values[certNumberField.key]) : '';
      // The runner's own results are looked up only for a form that asks for them.
      const own = new Set(
        asksForResults
          ? (await ownResults(repos, { name, certificateNumber: certNumber }, race.raceId)).map(
              (result) => result.resultId,
            )
          : [],
      );
      const checked = await checkRegistrationSubmission(form, values, {
        ownResult: (id) => own.has(id),
        uploads: { userId, uploads: repos.uploads, files },
      });
      if (!checked.ok) {
        for (const [key, refusal] of Object.entries(checked.refusals)) refuse(key, refusal);
        continue;
      }
      const kept = checked.values;
      const certType = certTypeField ? kept[certTypeField.key] : undefined;
      const gender = Number(kept[PARTICIPANT_KEYS.gender] ?? 0);
      const birthday = text(kept[PARTICIPANT_KEYS.birthday]);
      const person = {
        index,
        certKey: certNumberField?.key ?? 'certificateNumber',
        name: text(kept[PARTICIPANT_KEYS.name]),
        gender: (gender === 1 || gender === 2 ? gender : 0) as 0 | 1 | 2,
        birthday,
        certType: (isCertificateType(certType) ? certType : 1) as 1 | 2 | 3 | 4,
        certNumber: certNumberField ? text(kept[certNumberField.key]) : '',
        phone: text(kept[PARTICIPANT_KEYS.phone]),
        values: kept,
      };
      // The form must ask for what an entry keeps (a form missing them is refused on those keys).
      if (person.name === '') refuse(PARTICIPANT_KEYS.name, { code: 'fieldRequired' });
      if (!/^\d{4}-\d{2}-\d{2}/.test(birthday)) refuse(PARTICIPANT_KEYS.birthday, { code: 'fieldRequired' });
      if (person.certNumber === '') refuse(person.certKey, { code: 'fieldRequired' });
      if (/^\d{4}-\d{2}-\d{2}/.test(birthday) && race.raceDate !== '') {
        const age = ageProblem(item, birthday, race.raceDate);
        if (age) refuse(PARTICIPANT_KEYS.birthday, { code: age.code, params: age.params as MessageParams });
      }
      people.push(person);
    }
    return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, people };
  }

  return {
    async submit(userId: number, request: EntrySubmitRequest): Promise<SubmitOutcome> {
      const refused = (refusal: SubmitRefusal): SubmitOutcome => ({ ok: false, refusal });
      const { raceId, itemCode, channel, participants, idempotencyKey } = request;

      // The same key again answers the first answer (checked again under the key's lock below). The race and
      // its published form come from this process's copies while their versions are unchanged (one query).
      const kept = seenRaces.get(raceId);
      const channelSeen = kept ? formChannelOf(kept.race.entry) : null;
      const start = await repos.entries.submissionStart(
        userId,
        idempotencyKey,
        raceId,
        channelSeen,
        kept?.version ?? null,
      );
      if (start.answer !== null) return { ok: true, answer: JSON.parse(start.answer) as EntrySubmitAnswer };
      // The human check: a pass is needed (redeemed below, once the submission is ready to be written).
      const pass = request.captcha;
      if (!pass) return refused(call(400, 'slideFirst'));
      if (start.raceVersion === null) return refused(call(404, 'raceNotFound'));
      // No text: the version this process has (raceJson is only left out for the version it named).
      const race = start.raceJson === null ? kept!.race : keepRace(raceId, start.raceVersion, start.raceJson);
      const settings = race.entry;
      const item = itemOf(settings, itemCode);
      if (!settings || !item) return refused(call(404, 'entryItemMissing'));
      if (item.codeOnly && channel !== 'code') return refused(call(404, 'entryItemMissing'));
      if (channel === 'team' && !item.teams) return refused(call(400, 'teamNotAllowed'));
      if (channel === 'charity' && !item.charity) return refused(call(400, 'charityMissing'));

      const at = now();
      // The window: a valid code works while public entry is closed.
      let code: Awaited<ReturnType<EntriesRepository['findCode']>>;
      if (channel === 'code') {
        code = request.code ? await repos.entries.findCode(raceId, normalizeCode(request.code)) : undefined;
        if (!code || code.used >= code.maxUses || (code.expiresAt !== null && code.expiresAt <= at)) {
          return refused(call(400, 'redemptionCodeMissing'));
        }
        if (code.itemCode !== item.code) return refused(call(400, 'entryCodeItem'));
      } else {
        const state = signUpWindow(race, at);
        if (state === 'notYet') return refused(call(400, 'entryNotOpen'));
        if (state !== 'open') return refused(call(400, 'entryClosed'));
      }

      const n = participants.length;
      if (n > 1 && !settings.allowMultiple) return refused(call(400, 'noGroupRegistration'));
      if (n > MAX_PEOPLE_PER_SUBMISSION) {
        return refused(call(400, 'entryTooManyPeople', { max: MAX_PEOPLE_PER_SUBMISSION }));
      }
      // The account's live entries in the race, these people included, at most `limit` (docs/entry-limits.md):
      // read here first, then again under the account's lock where the entries are written.
      const limit = peoplePerAccount(settings);
      const accountFull = settings.allowMultiple
        ? call(400, 'entryAccountLimit', { max: limit })
        : call(400, 'alreadyRegistered');
      if (start.accountLive + n > limit) return refused(accountFull);

      let team: Awaited<ReturnType<EntriesRepository['findTeamByCode']>>;
      if (channel === 'team') {
        team = request.code ? await repos.entries.findTeamByCode(raceId, normalizeCode(request.code)) : undefined;
        if (!team || team.itemCode !== item.code) return refused(call(404, 'teamMissing'));
        if ((await repos.entries.teamSize(team.id)) + n > team.maxSize) return refused(call(400, 'teamFull'));
      }
      let directHash: string | null = null;
      if (channel === 'direct') {
        if (settings.directPass === false) return refused(call(400, 'directNotApproved'));
        const application = await repos.directApplications.findForUser(raceId, userId);
        if (application?.status !== 2 || n !== 1) return refused(call(400, 'directNotApproved'));
        directHash = application.certHash;
      }

      const published = await publishedForm(raceId, formChannelOf(settings), channelSeen, start.formVersion);
      if (!published) return refused(call(404, 'entryFormMissing'));
      // A participant picked from the caller's saved participants: the numbers sent back masked are the stored ones.
      const filled = await fillSavedNumbers(repos, published.form, userId, participants);
      if (!filled.ok) return refused(call(404, 'participantMissing'));
      const checked = await checkPeople(
        published.form,
        item,
        { raceId, raceDate: (race.startTime ?? '').slice(0, 10) },
        userId,
        filled.participants,
      );
      if (!checked.ok) return refused({ kind: 'fields', fields: checked.fields });

      const people: Person[] = checked.people.map((p) => ({ ...p, certHash: repos.raceCenter.certHash(p.certNumber) }));
      const fields: Record<string, Refusal> = {};
      const seen = new Set<string>();
      for (const person of people) {
        if (seen.has(person.certHash)) fields[`${person.index}.${person.certKey}`] = { code: 'alreadyRegistered' };
        seen.add(person.certHash);
        if (code?.kind === 'named' && code.namedCertHash !== person.certHash) {
          fields[`${person.index}.${person.certKey}`] = { code: 'entryCodeNotYours' };
        }
        if (directHash !== null && directHash !== person.certHash) {
          fields[`${person.index}.${person.certKey}`] = { code: 'directNotApproved' };
        }
      }
      if (Object.keys(fields).length > 0) return refused({ kind: 'fields', fields });

      const holds = takesPlaceNow(item, channel);
      const ordered = holds || item.model === 'payThenDraw';
      const fee = feeFen(item, channel);
      const steps: TimelineStep[] = ordered ? ['submitted', 'orderCreated'] : ['submitted'];
      const pool = poolOf(channel);
      /** The entry as written (the same for every person but their own fields and number), not read back. */
      const recordOf = (person: Person, id: number, entryNo: string): EntryRecord & { events: EntryEvent[] } => ({
        raceId,
        itemCode: item.code,
        channel,
        userId,
        teamId: team?.id ?? null,
        codeId: code?.id ?? null,
        status: ENTRY_STATUSES.submitted,
        holdsPlace: holds,
        name: person.name,
        gender: person.gender,
        birthday: person.birthday,
        certType: person.certType,
        certHash: person.certHash,
        certNumber: person.certNumber,
        phone: person.phone,
        feeFen: fee,
        id,
        entryNo,
        bib: null,
        waitRank: null,
        createdAt: at,
        updatedAt: at,
        events: steps.map((step) => ({ step, at, note: '' })),
      });
      /** The answer: the entries (their order's number) and the order as `records` and `placed` have them. */
      const answerOf = async (
        tx: Repositories,
        records: (EntryRecord & { events: EntryEvent[] })[],
        placed?: { orderNo: string; subOrderNos: string[]; deadlineAt: number; paid: boolean },
      ): Promise<EntrySubmitAnswer> => {
        let order: OrderView | null = null;
        const orderNos = new Map<number, string>();
        if (placed) {
          for (const entry of records) orderNos.set(entry.id, placed.orderNo);
          const lines = records
            .map((entry, k) => ({
              subOrderNo: placed.subOrderNos[k]!,
              entryNo: entry.entryNo,
              name: entry.name,
              itemCode: entry.itemCode,
              amountFen: fee,
            }))
            .sort((a, b) => (a.subOrderNo < b.subOrderNo ? -1 : a.subOrderNo > b.subOrderNo ? 1 : 0));
          const record: OrderRecord = {
            id: 0,
            orderNo: placed.orderNo,
            raceId,
            userId,
            status: placed.paid ? 3 : 1,
            amountFen: fee * n,
            paidFen: 0,
            refundedFen: 0,
            deadlineAt: placed.deadlineAt,
            createdAt: at,
            paidAt: placed.paid ? at : null,
            settledAt: placed.paid ? at : null,
            serialNo: null,
          };
          order = orderView(record, lines, race, at);
        }
        return {
          entries: await myEntryViews(tx, records, { races: new Map([[raceId, race]]), orderNos }),
          order,
        };
      };
      /**
       * The refusal the checks read under the locks give: a person who has a live entry in the race already, or
       * the account holding its most live entries.
       */
      const refusalOf = (checks: { live: Set<string>; accountLive: number }) => {
        const person = people.find((p) => checks.live.has(p.certHash));
        if (person) {
          return new Refused({
            kind: 'fields',
            fields: { [`${person.index}.${person.certKey}`]: { code: 'alreadyRegistered' } },
          });
        }
        return checks.accountLive + n > limit ? new Refused(accountFull) : undefined;
      };
      /**
       * After meeting another submission (a check failing in the one statement, or a unique index): the checks
       * read again tell what happened. The key's answer; a refusal (thrown); or undefined: nothing of it stands
       * (a number taken meanwhile, a submission since rolled back), to be tried again.
       */
      const settle = async (): Promise<EntrySubmitAnswer | undefined> => {
        const checks = await repos.entries.submitChecks(userId, idempotencyKey, raceId, [...seen]);
        if (checks.answer !== undefined) return JSON.parse(checks.answer) as EntrySubmitAnswer;
        const refusal = refusalOf(checks);
        if (refusal) throw refusal;
        return undefined;
      };
      // The account's lock: taken by both ways of writing, so the account's count cannot be passed by a burst.
      const accountLock = `entry-account:${raceId}:${userId}`;
      // For writeStepByStep: the key's lock, the account's, then (one live entry per person and race) each
      // person's lock in one order, so no two submissions deadlock; taken with BEGIN (one round trip on PostgreSQL).
      const locks = [
        `entry-submit:${userId}:${idempotencyKey}`,
        accountLock,
        ...[...seen].sort().map((hash) => `entry-person:${raceId}:${hash}`),
      ];

      /**
       * PostgreSQL, no team, an order to pay or none: every write in one statement that commits by itself
       * (writeSubmission), the answer built before it from the numbers chosen here. Undefined: the places' rows
       * of the item are missing (a race saved before sign-up existed), for writeStepByStep to make.
       */
      const writeAtOnce = async (): Promise<EntrySubmitAnswer | undefined> => {
        const records = people.map((person, k) => recordOf(person, -(k + 1), numbers.entryNo()));
        const orderNo = ordered ? numbers.orderNo(at) : undefined;
        const placed =
          orderNo === undefined
            ? undefined
            : {
                orderNo,
                subOrderNos: records.map((_, k) => `${orderNo}-${k + 1}`),
                deadlineAt: paymentDeadline(item, at),
                paid: false,
              };
        const result = await answerOf(repos, records, placed);
        const written = await repos.entries.writeSubmission({
          userId,
          idempotencyKey,
          answerJson: JSON.stringify(result),
          now: at,
          entry: {
            raceId,
            itemCode: item.code,
            channel,
            userId,
            teamId: null,
            codeId: code?.id ?? null,
            status: ENTRY_STATUSES.submitted,
            holdsPlace: holds,
            feeFen: fee,
          },
          people: people.map((person, k) => ({ ...person, entryNo: records[k]!.entryNo })),
          steps,
          order: placed && { ...placed, amountFen: fee * n },
          usesCode: code !== undefined,
          takesPlaces: holds ? pool : undefined,
          account: { lock: accountLock, limit },
        });
        switch (written) {
          case 'written':
            return result;
          case 'numberClash':
            throw new TryAgain();
          case 'codeUsedUp':
            throw new Refused(call(400, 'redemptionCodeMissing'));
          case 'noPlaces': {
            const rows = await repos.entries.places(raceId);
            if (!rows.some((row) => row.itemCode === item.code && row.pool === pool)) return undefined;
            throw new Refused(call(400, 'entryFull'));
          }
          case 'checksFailed': {
            // The submission met has since been rolled back: this one is tried again.
            const settled = await settle();
            if (settled === undefined) throw new TryAgain();
            return settled;
          }
        }
      };

      /** Any engine, any channel: the checks, then each write on its own (the team's lock and size among them). */
      const writeStepByStep = async (tx: Repositories): Promise<EntrySubmitAnswer> => {
        const checks = await tx.entries.submitChecks(userId, idempotencyKey, raceId, [...seen]);
        if (checks.answer !== undefined) return JSON.parse(checks.answer) as EntrySubmitAnswer;
        const refusal = refusalOf(checks);
        if (refusal) throw refusal;
        if (team) {
          await tx.db.lock(`entry-team:${team.id}`);
          if ((await tx.entries.teamSize(team.id)) + n > team.maxSize) throw new Refused(call(400, 'teamFull'));
        }
        const records: (EntryRecord & { events: EntryEvent[] })[] = [];
        for (const person of people) {
          const made = await tx.entries.insertEntry(
            { ...recordOf(person, 0, ''), values: person.values, now: at },
            steps,
            numbers.entryNo,
          );
          records.push(recordOf(person, made.id, made.entryNo));
        }
        let placed: Parameters<typeof answerOf>[2];
        if (ordered) {
          const deadlineAt = paymentDeadline(item, at);
          const created = await tx.orders.create({
            raceId,
            userId,
            amountFen: fee * n,
            deadlineAt,
            createdAt: at,
            lines: records.map((entry) => ({ entryId: entry.id, amountFen: fee })),
            drawOrderNo: numbers.orderNo,
          });
          let paid = false;
          if (fee === 0 && (await tx.orders.markPaid(created.id, { paidFen: 0, paidAt: at, serialNo: null }))) {
            paid = true;
            for (const entry of records) {
              const to = statusAfterPayment({ channel, status: ENTRY_STATUSES.submitted }, item.model);
              if (to === ENTRY_STATUSES.submitted) await tx.entries.addEvent(entry.id, 'paid', at);
              else if (await tx.entries.setStatus(entry.id, [ENTRY_STATUSES.submitted], to, 'paid', at)) {
                entry.status = to;
              } else continue;
              entry.events.push({ step: 'paid', at, note: '' });
            }
          }
          placed = { orderNo: created.orderNo, subOrderNos: created.subOrderNos, deadlineAt, paid };
        }
        const result = await answerOf(tx, records, placed);
        if (code && !(await tx.entries.useCode(code.id, n, at))) throw new Refused(call(400, 'redemptionCodeMissing'));
        const submission = { userId, idempotencyKey, answerJson: JSON.stringify(result), now: at };
        if (!holds) await tx.entries.saveSubmission(userId, idempotencyKey, submission.answerJson, at);
        else if (
          !(await tx.entries.saveSubmissionTakingPlaces(submission, { raceId, itemCode: item.code, pool, n })) &&
          !(await takePlaces(tx.entries, raceId, settings, item, pool, n))
        ) {
          throw new Refused(call(400, 'entryFull'));
        }
        return result;
      };
      const atOnce = repos.db.engine === 'postgres' && !team && !(ordered && fee === 0);

      // The human check, once: a pass redeemed here is spent whatever the write then answers.
      if (!(await captcha.redeem(pass))) return refused(call(400, 'verificationFailed'));

      // The transaction is kept short: every read it does not need was done above, the answer is built from
      // what it writes (not read back), and the contended rows (the code's uses, the item's places) are
      // updated last, so their row locks (PostgreSQL) are held only until the commit that follows.
      for (let attempt = 1; ; attempt += 1) {
        try {
          const answer =
            (atOnce ? await writeAtOnce() : undefined) ?? (await repos.transaction(writeStepByStep, { locks }));
          await tellSubmitted(repos, race, userId, answer, at);
          return { ok: true, answer };
        } catch (error) {
          if (error instanceof Refused) return refused(error.refusal);
          // A unique index met: only a person who now has a live entry is refused as registered (a submission
          // of the same person committed between the checks and the insert); anything else (a number drawn
          // meanwhile by another submission) kept nothing and is tried again, with new numbers.
          if (isUniqueViolation(error)) {
            try {
              const settled = await settle();
              if (settled !== undefined) return { ok: true, answer: settled };
            } catch (refusal) {
              if (refusal instanceof Refused) return refused(refusal.refusal);
              throw refusal;
            }
          } else if (!(error instanceof TryAgain)) throw error;
          // Nothing kept: tried again, with new numbers; after ATTEMPTS, the runner is asked to try again.
          if (attempt >= ATTEMPTS) return refused(call(503, 'databaseUnavailable'));
        }
      }
    },
  };
}

/**
 * The runner's message of an accepted submission, queued after its transaction (never inside the contended
 * write): keyed by its first entry number, so it is sent once. A failure to queue it leaves the entry as
 * written (the runner sees it in the personal centre).
 */
async function tellSubmitted(
  repos: Repositories,
  race: RaceInfo,
  userId: number,
  answer: EntrySubmitAnswer,
  at: number,
): Promise<void> {
  const first = answer.entries[0];
  if (!first) return;
  const lines = answer.entries.map((e) => ({ entryNo: e.entryNo, name: e.name, itemName: e.itemName }));
  const order = answer.order && {
    orderNo: answer.order.orderNo,
    amountFen: answer.order.amountFen,
    deadlineAt: answer.order.deadlineAt,
  };
  try {
    await tellRunner(repos, race, userId, `submitted:${first.entryNo}`, { kind: 'submitted', lines, order }, at);
  } catch {
    // The submission stands; only its message is lost.
  }
}

export type EntrySubmission = ReturnType<typeof createEntrySubmission>;
