/**
 * What the registration screens' routes share (issue 13 §4; contract/registration-screens.ts): the
 * field-refusal answer, the runner-key check and the request schemas. (The login is checked once per scope:
 * plugins/sessions.ts.)
 */
import type { Envelope } from '#contract/api';
import { isCertificateType } from '#contract/enums';
import { messageText, type Refusal } from '#contract/messages';
import type { FieldRefusals, RunnerKey } from '#contract/registration-screens';
import { checkCertificateNumber, checkName } from '#contract/rules';

/** Field refusals: code 400, msg (and msgCode) the first field's message, data.fields every one. */
export function refuseFields(fields: Record<string, Refusal>): Envelope<FieldRefusals> {
  const first = Object.values(fields)[0] ?? { code: 'badRequest' as const };
  return {
    code: 400,
    msg: messageText(first.code, first.params),
    data: {
      fields: Object.fromEntries(
        Object.entries(fields).map(([key, r]) => [
          key,
          r.params ? { code: r.code, params: r.params } : { code: r.code },
        ]),
      ),
    },
    msgCode: first.code,
    ...(first.params ? { msgParams: first.params } : {}),
  };
}

/** The refusals of a name + certificate key (the contract's name and certificate-number rules). */
export function runnerKeyRefusals(key: RunnerKey): Record<string, Refusal> {
  const refusals: Record<string, Refusal> = {};
  const name = checkName(key.name);
  if (name) refusals.name = name;
  const number = isCertificateType(key.certificateType)
    ? checkCertificateNumber(key.certificateType, key.certificateNumber)
    : { code: 'badCertificateType' as const };
  if (number) refusals.certificateNumber = number;
  return refusals;
}

export const raceIdSchema = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[\\w.-]+$' } as const;
export const raceIdQuery = { type: 'object', required: ['raceId'], properties: { raceId: raceIdSchema } } as const;

/** Name and certificate: their bounds only, so that a wrong one gets the contract rule's message. */
export const runnerKeyProperties = {
  name: { type: 'string', maxLength: 50 },
  certificateType: { type: 'integer' },
  certificateNumber: { type: 'string', maxLength: 32 },
} as const;
export const runnerKeyRequired = ['name', 'certificateType', 'certificateNumber'] as const;
