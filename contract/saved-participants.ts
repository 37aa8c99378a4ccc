/**
 * The check of a saved participant (issue 15 §3; contract/after-entry.ts ParticipantSaveRequest), once for the
 * SPA's form and the server. The §5 rules are those of the registration form: the participant's fields are
 * written as a registration-form document (`participantForm`) and checked with checkSubmission, so the name's
 * required-text rule, the certificate number per type, the mobile numbers and "the emergency contact's name
 * and phone must differ from the applicant's" (differsFrom) are the very rules a sign-up form applies.
 * The birthday is a real date between PARTICIPANT_EARLIEST_BIRTHDAY and today.
 */
import type { ParticipantSaveRequest } from '#contract/after-entry';
import type { Refusal } from '#contract/messages';
import { checkFieldValue, checkSubmission, type FormField, type RegistrationForm } from '#contract/registration-form';

/** The earliest birthday taken (the profile's bound); the latest is today. */
export const PARTICIPANT_EARLIEST_BIRTHDAY = '1900-01-01';
/** The longest name (the demo form's bound) and emergency contact name. */
export const PARTICIPANT_NAME_MAX = 30;

/** The keys a ParticipantSaveRequest holds besides `id`, in the order of the form. */
export const PARTICIPANT_FIELDS = [
  'name',
  'gender',
  'certificateType',
  'certificateNumber',
  'birthday',
  'phone',
  'emergencyName',
  'emergencyPhone',
] as const satisfies readonly (keyof ParticipantSaveRequest)[];
export type ParticipantField = (typeof PARTICIPANT_FIELDS)[number];

/** The number fields stored encrypted and answered masked. */
export const PARTICIPANT_NUMBER_FIELDS = ['certificateNumber', 'phone', 'emergencyPhone'] as const;

const label = (zh: string, en: string) => ({ zh, en });

/** The participant's fields as a registration form (the labels are only the document's; the SPA has its own texts). */
export function participantForm(today: string): RegistrationForm {
  const fields: FormField[] = [
    {
      key: 'name',
      type: 'input',
      label: label('姓名', 'Name'),
      required: true,
      rules: [
        { rule: 'requiredText', message: 'nameInvalid' },
        { rule: 'maxLength', value: PARTICIPANT_NAME_MAX },
      ],
    },
    { key: 'gender', type: 'gender', label: label('性别', 'Gender'), required: true },
    { key: 'certificateType', type: 'certificateType', label: label('证件类型', 'Certificate type'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: label('证件号码', 'Certificate number'),
      required: true,
    },
    {
      key: 'birthday',
      type: 'date',
      label: label('出生日期', 'Birthday'),
      required: true,
      min: PARTICIPANT_EARLIEST_BIRTHDAY,
      max: today,
    },
    { key: 'phone', type: 'phone', label: label('手机号', 'Mobile'), required: true },
    {
      key: 'emergencyName',
      type: 'input',
      label: label('紧急联系人', 'Emergency contact'),
      required: true,
      rules: [
        { rule: 'requiredText' },
        { rule: 'maxLength', value: PARTICIPANT_NAME_MAX },
        { rule: 'differsFrom', field: 'name', message: 'emergencyNameSame' },
      ],
    },
    {
      key: 'emergencyPhone',
      type: 'phone',
      label: label('紧急联系人电话', 'Emergency phone'),
      required: true,
      rules: [{ rule: 'differsFrom', field: 'phone', message: 'emergencyPhoneSame' }],
    },
  ];
  return { version: 1, raceId: 'saved-participants', fields };
}

/** Every refusal of a participant's values by field key (empty: it may be saved). `today` is 'YYYY-MM-DD'. */
export function checkParticipant(values: Record<string, unknown>, today: string): Record<string, Refusal> {
  return checkSubmission(participantForm(today), values);
}

/** The refusal of one field for these values (the SPA on blur), or null. */
export function checkParticipantField(
  key: ParticipantField,
  values: Record<string, unknown>,
  today: string,
): Refusal | null {
  return checkFieldValue(participantForm(today), key, values);
}
