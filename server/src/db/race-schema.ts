/**
 * Validation of a RaceInfo document (the seed's race.json and the CLI's add-race). Unknown keys are kept:
 * they are returned to the SPA as they are.
 */
import * as z from 'zod';
import type { RaceInfo } from '../../../src/features/site-config/race-types.ts';
import { formatJsonPath, type ConfigProblem } from '../../../src/features/site-config/site-config-schema.ts';

const optText = z.string().optional();
const optInt = z.number().int().optional();

export const raceInfoSchema = z.looseObject({
  raceId: z.string().regex(/^[\w.-]{1,64}$/, 'raceId must be 1-64 letters, digits, "_", "." or "-"'),
  raceName: z.string().min(1),
  raceNameEn: optText,
  auditStatus: optInt,
  cityId: optText,
  contactName: optText,
  contactPhone: optText,
  createUser: optText,
  detailAddress: optText,
  districtId: optText,
  startTime: optText,
  endTime: optText,
  imgDetail: optText,
  itemTimeSetting: optText,
  organizationId: optText,
  progressStatus: optInt,
  provinceId: optText,
  raceCategoryId: optText,
  raceFeatures: optText,
  raceItemTypeName: optText,
  raceStatus: optInt,
  signUpStartTime: optText,
  signUpEndTime: optText,
  showSignUpStartTime: optText,
  showSignUpEndTime: optText,
  signUpMaxNumber: optInt,
  signUpOpenStatus: optInt,
  signUpUrl: optText,
  submitStatus: optInt,
  updateUser: optText,
});

// The schema and the shared interface must describe the same fields.
type Parsed = z.infer<typeof raceInfoSchema>;
const sameShape: [Parsed] extends [RaceInfo] ? true : false = true;
void sameShape;

export function validateRaceInfo(
  raw: unknown,
): { ok: true; race: RaceInfo } | { ok: false; problems: ConfigProblem[] } {
  const result = raceInfoSchema.safeParse(raw);
  if (result.success) return { ok: true, race: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })),
  };
}
