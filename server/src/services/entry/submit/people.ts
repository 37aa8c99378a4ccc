/**
 * The people of a submission: each participant's values checked against the published form of the entry's form
 * channel (the same check as /direct), the form's item field locked to the chosen item, the item's age bounds on
 * race day, what an entry keeps (name, birthday, certificate), then one certificate per person across the
 * submission, a named code's and an approved direct-pass application's own person.
 */
import { ageProblem, PARTICIPANT_KEYS } from '#contract/entry';
import { isCertificateType } from '#contract/enums';
import type { MessageParams, Refusal } from '#contract/messages';
import type { FormField, RegistrationForm, SubmissionValues } from '#contract/registration-form';
import type { Repositories } from '../../../db/repositories.ts';
import type { FileStore } from '../../../lib/file-store.ts';
import { checkRegistrationSubmission } from '../../registration/check-submission.ts';
import { ownResults } from '../../registration/own-results.ts';
import type { CheckedRequest } from './validate.ts';

/** A person of the submission, checked: what the entry row keeps. */
export interface Person {
  /** The participant's place in the submission (field refusals are keyed `<index>.<key>`). */
  index: number;
  /** The form's key of the certificate number (where a refusal about the person is shown). */
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

export async function checkPeople(
  repos: Repositories,
  files: FileStore,
  form: RegistrationForm,
  request: Pick<CheckedRequest, 'item' | 'code' | 'directHash'>,
  race: { raceId: string; raceDate: string },
  userId: number,
  participants: SubmissionValues[],
): Promise<{ ok: true; people: Person[] } | { ok: false; fields: Record<string, Refusal> }> {
  const { item } = request;
  const fields: Record<string, Refusal> = {};
  const people: Person[] = [];
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
    const keptNumber = certNumberField ? text(kept[certNumberField.key]) : '';
    const person: Person = {
      index,
      certKey: certNumberField?.key ?? 'certificateNumber',
      name: text(kept[PARTICIPANT_KEYS.name]),
      gender: (gender === 1 || gender === 2 ? gender : 0) as 0 | 1 | 2,
      birthday,
      certType: (isCertificateType(certType) ? certType : 1) as 1 | 2 | 3 | 4,
      certNumber: keptNumber,
      certHash: repos.raceCenter.certHash(keptNumber),
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
  if (Object.keys(fields).length > 0) return { ok: false, fields };

  // One certificate per person in the submission; a named code's person; the approved application's person.
  const seen = new Set<string>();
  for (const person of people) {
    const key = `${person.index}.${person.certKey}`;
    if (seen.has(person.certHash)) fields[key] = { code: 'alreadyRegistered' };
    seen.add(person.certHash);
    if (request.code?.kind === 'named' && request.code.namedCertHash !== person.certHash) {
      fields[key] = { code: 'entryCodeNotYours' };
    }
    if (request.directHash !== null && request.directHash !== person.certHash) {
      fields[key] = { code: 'directNotApproved' };
    }
  }
  return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, people };
}
