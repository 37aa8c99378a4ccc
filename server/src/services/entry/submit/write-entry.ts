/**
 * Writes a planned submission (plan.ts) through the one writer of entries, EntriesRepository.writeSubmission,
 * and turns what it met into the runner's answer: the guard that failed (SUBMISSION_GUARDS) into its refusal, a
 * number taken meanwhile into a new try with new numbers, a submission of the same person or key met at the
 * same time into what it left (the key's answer, the person's entry) by reading the checks again.
 */
import type { EntrySubmitAnswer } from '#contract/entry';
import type { Repositories } from '../../../db/repositories.ts';
import { planSubmission, type SubmissionDraft, type SubmissionNumbers } from './plan.ts';
import { call, fieldRefusal, type SubmitOutcome, type SubmitRefusal } from './refusals.ts';

/** How many times a submission that met a number taken meanwhile (or a rolled-back one) is written again. */
const ATTEMPTS = 8;

export async function writeEntries(
  repos: Repositories,
  draft: SubmissionDraft,
  numbers: SubmissionNumbers,
  /** The refusal of an account holding its most live entries (validate.ts CheckedRequest.account.full). */
  accountFull: SubmitRefusal,
): Promise<SubmitOutcome> {
  const refused = (refusal: SubmitRefusal): SubmitOutcome => ({ ok: false, refusal });
  const answered = (answer: EntrySubmitAnswer): SubmitOutcome => ({ ok: true, answer });
  const { race, item, people, userId, idempotencyKey } = draft;
  /**
   * After meeting another submission: the key's answer, a person's live entry (refused), or undefined: nothing
   * of it stands (a submission since rolled back), to be tried again.
   */
  const settle = async (): Promise<SubmitOutcome | undefined> => {
    const hashes = people.map((person) => person.certHash);
    const checks = await repos.entries.submitChecks(userId, idempotencyKey, race.raceId, hashes);
    if (checks.answer !== undefined) return answered(JSON.parse(checks.answer) as EntrySubmitAnswer);
    const person = people.find((p) => checks.live.has(p.certHash));
    if (person) return refused(fieldRefusal(`${person.index}.${person.certKey}`, { code: 'alreadyRegistered' }));
    return undefined;
  };
  let ensured = false;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const { write, answer } = await planSubmission(repos, draft, numbers);
    const written = await repos.entries.writeSubmission(write);
    switch (written) {
      case 'written':
        return answered(answer);
      case 'answered':
      case 'personLive':
      case 'met': {
        const settled = await settle();
        if (settled) return settled;
        break;
      }
      case 'accountFull':
        return refused(accountFull);
      case 'teamFull':
        return refused(call(400, 'teamFull'));
      case 'codeUsedUp':
        return refused(call(400, 'redemptionCodeMissing'));
      case 'noPlaces': {
        // A race saved before sign-up existed has no places' rows yet: made, then written again.
        const pool = write.takesPlaces;
        const rows = await repos.entries.places(race.raceId);
        if (ensured || rows.some((row) => row.itemCode === item.code && row.pool === pool)) {
          return refused(call(400, 'entryFull'));
        }
        await repos.entries.ensurePlaces(race.raceId, race.entry);
        ensured = true;
        break;
      }
      case 'numberClash':
        break;
    }
  }
  // Nothing kept after ATTEMPTS: the runner is asked to try again.
  return refused(call(503, 'databaseUnavailable'));
}
