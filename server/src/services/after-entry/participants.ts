/**
 * Saved participants (issue 15 §3; contract/after-entry.ts SavedParticipant, ParticipantSaveRequest): an
 * account keeps the people it registers and picks them in a sign-up.
 *
 * - Checked with contract/saved-participants.ts checkParticipant (the registration form's §5 rules).
 * - Numbers encrypted, answered masked (maskCertNo, maskMobile); a masked number sent back exactly as answered
 *   stands for the stored one (as directSave does), so editing a name does not ask for the numbers again.
 * - One certificate once per account (participantDuplicate), at most MAX_SAVED_PARTICIPANTS (participantLimit),
 *   both re-checked under the account's lock; UNIQUE (user_id, cert_hash) is the backstop.
 * - In a sign-up, `savedParticipantId` fills the numbers sent back masked (`fillSavedNumbers`).
 */
import { isAdult, MAX_SAVED_PARTICIPANTS, SAVED_PARTICIPANT_KEY, type SavedParticipant } from '#contract/after-entry';
import { ageOn, PARTICIPANT_KEYS } from '#contract/entry';
import type { CertificateType } from '#contract/enums';
import type { MessageCode, MessageParams, Refusal } from '#contract/messages';
import { formatRaceTime } from '#contract/race-clock';
import type { FormField, RegistrationForm } from '#contract/registration-form';
import { checkParticipant, PARTICIPANT_FIELDS } from '#contract/saved-participants';
import type { ParticipantRecord, ParticipantWrite } from '../../db/participants-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskCertNo, maskMobile, normalizeCertNo, normalizeName } from '../../lib/race-center.ts';

export interface ParticipantDeps {
  repos: Repositories;
  now: () => number;
}

export type ParticipantRefusal =
  | { kind: 'call'; status: number; code: MessageCode; params?: MessageParams }
  | { kind: 'fields'; fields: Record<string, Refusal> };

export type ParticipantOutcome =
  { ok: true; participant: SavedParticipant } | { ok: false; refusal: ParticipantRefusal };

/** A refusal decided under the account's lock (rolls the transaction back). */
class Refused extends Error {
  constructor(readonly refusal: ParticipantRefusal) {
    super('refused');
  }
}

const missing: ParticipantRefusal = { kind: 'call', status: 404, code: 'participantMissing' };

/** Today in the race clock's zone, 'YYYY-MM-DD'. */
const todayOf = (now: number) => formatRaceTime(now, 'YYYY-MM-DD');

/** A saved participant as its account holder sees it: numbers masked, age and adult as of today. */
export function participantAnswer(record: ParticipantRecord, today: string): SavedParticipant {
  const age = Math.max(0, ageOn(record.birthday, today));
  return {
    id: record.id,
    name: record.name,
    gender: record.gender,
    certificateType: record.certType,
    certificateNumber: maskCertNo(record.certNumber),
    phone: maskMobile(record.phone),
    emergencyName: record.emergencyName,
    emergencyPhone: maskMobile(record.emergencyPhone),
    birthday: record.birthday,
    age,
    adult: isAdult(record.birthday, today),
    updatedAt: record.updatedAt,
  };
}

/** The masked answer of each stored number, by the key it has in a ParticipantSaveRequest. */
const maskedNumbers = (stored: ParticipantRecord) => ({
  certificateNumber: [maskCertNo(stored.certNumber), stored.certNumber],
  phone: [maskMobile(stored.phone), stored.phone],
  emergencyPhone: [maskMobile(stored.emergencyPhone), stored.emergencyPhone],
});

/** The values a save means: each number sent back exactly as it was answered masked is the stored one. */
function unmaskEcho(sent: Record<string, unknown>, stored: ParticipantRecord | undefined): Record<string, unknown> {
  const values = { ...sent };
  if (!stored) return values;
  for (const [key, [masked, whole]] of Object.entries(maskedNumbers(stored))) {
    if (typeof values[key] === 'string' && values[key] === masked && whole !== '') values[key] = whole;
  }
  return values;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export function createParticipants({ repos, now }: ParticipantDeps) {
  return {
    async list(userId: number): Promise<SavedParticipant[]> {
      const today = todayOf(now());
      return (await repos.participants.list(userId)).map((record) => participantAnswer(record, today));
    },

    /** Creates (no id) or updates (the account's id) a saved participant. */
    async save(userId: number, request: Record<string, unknown>): Promise<ParticipantOutcome> {
      const at = now();
      const today = todayOf(at);
      const id = request.id;
      const stored = typeof id === 'number' ? await repos.participants.find(userId, id) : undefined;
      if (id !== undefined && !stored) return { ok: false, refusal: missing };
      const sent = Object.fromEntries(PARTICIPANT_FIELDS.map((key) => [key, request[key]]));
      const values = unmaskEcho(sent, stored);
      const fields = checkParticipant(values, today);
      if (Object.keys(fields).length > 0) return { ok: false, refusal: { kind: 'fields', fields } };

      const certNumber = normalizeCertNo(text(values.certificateNumber));
      const write: ParticipantWrite = {
        userId,
        name: normalizeName(text(values.name)),
        gender: values.gender as 0 | 1 | 2,
        certType: values.certificateType as CertificateType,
        certHash: repos.raceCenter.certHash(certNumber),
        certNumber,
        phone: text(values.phone),
        emergencyName: normalizeName(text(values.emergencyName)),
        emergencyPhone: text(values.emergencyPhone),
        birthday: text(values.birthday),
      };
      try {
        const savedId = await repos.transaction(async (tx) => {
          await tx.db.lock(`participants:${userId}`);
          const holder = await tx.participants.idByCert(userId, write.certHash);
          if (holder !== undefined && holder !== stored?.id) {
            throw new Refused({ kind: 'fields', fields: { certificateNumber: { code: 'participantDuplicate' } } });
          }
          if (stored) {
            if (!(await tx.participants.update(stored.id, write, at))) throw new Refused(missing);
            return stored.id;
          }
          if ((await tx.participants.count(userId)) >= MAX_SAVED_PARTICIPANTS) {
            throw new Refused({
              kind: 'call',
              status: 400,
              code: 'participantLimit',
              params: { max: MAX_SAVED_PARTICIPANTS },
            });
          }
          return tx.participants.insert(write, at);
        });
        const saved = await repos.participants.find(userId, savedId);
        return saved ? { ok: true, participant: participantAnswer(saved, today) } : { ok: false, refusal: missing };
      } catch (error) {
        if (error instanceof Refused) return { ok: false, refusal: error.refusal };
        throw error;
      }
    },

    /** Deletes the account's participant; false when it is not the account's. */
    remove: (userId: number, id: number) => repos.participants.remove(userId, id),
  };
}

/**
 * Sign-up with a saved participant (contract/after-entry.ts SAVED_PARTICIPANT_KEY): each participant that
 * names one of the caller's saved participants gets the stored number in every number field of the form
 * (the first certificate number, the phone and emergency phone fields) whose value is exactly the saved
 * participant's masked answer; the key itself is dropped. An unknown id (or another account's) is refused.
 */
export async function fillSavedNumbers(
  repos: Pick<Repositories, 'participants'>,
  form: RegistrationForm,
  userId: number,
  participants: Record<string, unknown>[],
): Promise<{ ok: true; participants: Record<string, unknown>[] } | { ok: false }> {
  const firstOf = (type: FormField['type']) => form.fields.find((f) => f.type === type)?.key;
  const keys: Record<'certificateNumber' | 'phone' | 'emergencyPhone', string | undefined> = {
    certificateNumber: firstOf('certificateNumber'),
    phone: PARTICIPANT_KEYS.phone,
    emergencyPhone: PARTICIPANT_KEYS.emergencyPhone,
  };
  const filled: Record<string, unknown>[] = [];
  for (const sent of participants) {
    const { [SAVED_PARTICIPANT_KEY]: savedId, ...values } = sent;
    if (savedId === undefined || savedId === null) {
      filled.push(values);
      continue;
    }
    const stored = typeof savedId === 'number' ? await repos.participants.find(userId, savedId) : undefined;
    if (!stored) return { ok: false };
    for (const [name, [masked, whole]] of Object.entries(maskedNumbers(stored))) {
      const key = keys[name as keyof typeof keys];
      if (key !== undefined && values[key] === masked && whole !== '') values[key] = whole;
    }
    filled.push(values);
  }
  return { ok: true, participants: filled };
}
