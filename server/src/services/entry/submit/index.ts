/**
 * A sign-up submission (issue 14 §1, §2; contract/entry.ts EntrySubmitRequest): one or more people (several
 * only when the race allows it) for one item through one channel, all accepted or none. In order, one module
 * each:
 *
 * 1. race-copies.ts: the race and its published form, from this process's copies while their versions hold
 *    (read in one query with the idempotency key's stored answer: the same key again answers the first answer).
 * 2. validate.ts: the item, channel, window, code, team, direct pass and the account's limit as read first.
 * 3. people.ts: each person's values against the form, the age bounds, one certificate per person.
 * 4. the slider check (the login codes' provider), redeemed once, just before writing.
 * 5. plan.ts: what the submission writes, by model and channel (places, order, fee, status, timeline), the
 *    answer built from those rows and the runner's message of it: the rules every writer of entries uses.
 * 6. write-entry.ts: the one writer (EntriesRepository.writeSubmission), all rows or none, its guards read under
 *    the account's (and team's) lock: the key's answer, one live entry per person and race, the account's and
 *    team's counts, the code's uses and the places by conditional updates (never read then written).
 *
 * docs/architecture.md (sign-up) and docs/entry-limits.md tell the same for a reader of the docs.
 */
import type { EntrySubmitAnswer, EntrySubmitRequest } from '#contract/entry';
import { newEntryNo } from '../../../db/entries-repository.ts';
import { contactFrom } from '../../../db/ballots-repository.ts';
import { newOrderNo } from '../../../db/orders-repository.ts';
import type { Repositories } from '../../../db/repositories.ts';
import type { FileStore } from '../../../lib/file-store.ts';
import type { CaptchaProvider } from '../../../plugins/captcha.ts';
import { fillSavedNumbers } from '../../after-entry/participants.ts';
import { formChannelOf } from '../views.ts';
import { checkPeople } from './people.ts';
import type { SubmissionNumbers } from './plan.ts';
import { createRaceCopies } from './race-copies.ts';
import { call, type SubmitOutcome, type SubmitRefusal } from './refusals.ts';
import { checkRequest } from './validate.ts';
import { writeEntries } from './write-entry.ts';

export type { SubmitOutcome, SubmitRefusal } from './refusals.ts';

export interface SubmitDeps {
  repos: Repositories;
  files: FileStore;
  now: () => number;
  /** The human check of the login codes: a submission redeems a passed check once before it writes. */
  captcha: Pick<CaptchaProvider, 'redeem'>;
  /** Draw the entry and order numbers (default newEntryNo, newOrderNo; tests give their own to force a clash). */
  numbers?: SubmissionNumbers;
}

export function createEntrySubmission({
  repos,
  files,
  now,
  captcha,
  numbers = { entryNo: newEntryNo, orderNo: newOrderNo },
}: SubmitDeps) {
  const copies = createRaceCopies(repos);
  return {
    async submit(userId: number, request: EntrySubmitRequest): Promise<SubmitOutcome> {
      const refused = (refusal: SubmitRefusal): SubmitOutcome => ({ ok: false, refusal });
      const { raceId, channel, participants, idempotencyKey } = request;

      const kept = copies.seen(raceId);
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
      const race = start.raceJson === null ? kept!.race : copies.keep(raceId, start.raceVersion, start.raceJson);

      const at = now();
      const checked = await checkRequest(repos, race, request, userId, start.accountLive, at);
      if (!checked.ok) return refused(checked.refusal);
      const { settings, item, code, team, account } = checked.checked;

      const published = await copies.publishedForm(raceId, formChannelOf(settings), channelSeen, start.formVersion);
      if (!published) return refused(call(404, 'entryFormMissing'));
      // A participant picked from the caller's saved participants: the numbers sent back masked are the stored ones.
      const filled = await fillSavedNumbers(repos, published.form, userId, participants);
      if (!filled.ok) return refused(call(404, 'participantMissing'));
      const people = await checkPeople(
        repos,
        files,
        published.form,
        checked.checked,
        { raceId, raceDate: (race.startTime ?? '').slice(0, 10) },
        userId,
        filled.participants,
      );
      if (!people.ok) return refused({ kind: 'fields', fields: people.fields });

      // The human check, once: a pass redeemed here is spent whatever the write then answers.
      if (!(await captcha.redeem(pass))) return refused(call(400, 'verificationFailed'));

      return writeEntries(
        repos,
        {
          race,
          item,
          channel,
          userId,
          idempotencyKey,
          people: people.people,
          codeId: code?.id ?? null,
          team: team && { id: team.id, maxSize: team.maxSize },
          accountLimit: account.limit,
          contact: contactFrom(start.contact),
          at,
        },
        numbers,
        account.full,
      );
    },
  };
}

export type EntrySubmission = ReturnType<typeof createEntrySubmission>;
