/**
 * Validation of a RaceInfo document (the seed's race.json and the CLI's add-race). Unknown keys are kept:
 * they are returned to the SPA as they are. Times follow the one race-time rule (YYYY-MM-DD HH:mm:ss on the
 * race's clock: its timeZone, China time by default) and links the one link-safety rule, both shared with
 * the site-config schema and the SPA.
 * docs/site-config.md documents every field.
 */
import * as z from 'zod';
import { MAX_SLOT_CAPACITY, pickupSlotId, SLOT_TIME_PATTERN } from '#contract/after-entry';
import { ENTRY_MODELS, ITEM_CODE_PATTERN, MAX_OTHERS_PER_ACCOUNT, TEAM_SIZE } from '#contract/entry';
import { linkProblem } from '#contract/link-safety';
import { CHANNEL_PATTERN } from '#contract/registration-form';
import { timeZoneProblem } from '#contract/time-zone';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeProblem } from '#contract/site-config/race-time';
import { formatJsonPath, type ConfigProblem } from '#contract/site-config/schema';

const optText = z.string().optional();
const optInt = z.number().int().optional();
const optTime = z
  .string()
  .superRefine((value, ctx) => {
    const problem = raceTimeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .optional();
const optLink = z
  .string()
  .superRefine((value, ctx) => {
    const problem = linkProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .optional();
/** Comma-separated image URLs: each one follows the link-safety rule. */
const optLinkList = z
  .string()
  .superRefine((value, ctx) => {
    value.split(',').forEach((url, i) => {
      const problem = linkProblem(url);
      if (problem) ctx.addIssue({ code: 'custom', message: `image ${i + 1}: ${problem}` });
    });
  })
  .optional();
/** The race's IANA time zone (its times are read on that clock); Asia/Shanghai when absent. */
const optTimeZone = z
  .string()
  .superRefine((value, ctx) => {
    const problem = timeZoneProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .optional();

const raceTime = z.string().superRefine((value, ctx) => {
  const problem = raceTimeProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** A text in both languages. */
const localText = z.strictObject({ zh: z.string().min(1).max(2000), en: z.string().min(1).max(2000) });

/** The registration screens' settings (contract/registration-screens.ts; docs/site-config.md). */
const directApplicationSchema = z
  .strictObject({ startTime: raceTime, endTime: raceTime })
  .superRefine((window, ctx) => {
    if (!raceTimeProblem(window.startTime) && !raceTimeProblem(window.endTime) && window.endTime <= window.startTime) {
      ctx.addIssue({
        code: 'custom',
        path: ['endTime'],
        message: `must be after startTime (${window.startTime}); got ${window.endTime}`,
      });
    }
  });
const packMailingSchema = z.strictObject({ enabled: z.boolean(), deadline: raceTime, notice: localText });
const documentUploadSchema = z.strictObject({
  enabled: z.boolean(),
  deadline: raceTime.optional(),
  maxSize: z.strictObject({ size: z.number().min(0), unit: z.enum(['B', 'KB', 'MB', 'GB']) }),
  maxCount: z.number().int().min(0).max(50),
  note: localText,
});

/** Sign-up settings (race.json `entry`; contract/entry.ts EntrySettings; docs/site-config.md). */
const fen = z.number().int().min(0).max(100_000_000);
const places = z.number().int().min(0).max(10_000_000);
const entryItemSchema = z
  .strictObject({
    code: z.string().regex(ITEM_CODE_PATTERN, 'must be 1-32 letters, digits or "-"'),
    name: localText,
    capacity: places,
    feeFen: fen,
    model: z.enum(ENTRY_MODELS),
    minAge: z.number().int().min(0).max(150).optional(),
    maxAge: z.number().int().min(0).max(150).optional(),
    paymentMinutes: z.number().int().min(1).max(10080).optional(),
    waitList: z.boolean().optional(),
    charity: z.strictObject({ capacity: places, feeFen: fen }).optional(),
    teams: z
      .strictObject({
        minSize: z.number().int().min(TEAM_SIZE.min).max(TEAM_SIZE.max),
        maxSize: z.number().int().min(TEAM_SIZE.min).max(TEAM_SIZE.max),
      })
      .optional(),
    codeOnly: z.boolean().optional(),
    distanceKm: z.number().positive().max(1000).optional(),
  })
  .superRefine((item, ctx) => {
    if (item.minAge !== undefined && item.maxAge !== undefined && item.minAge > item.maxAge) {
      ctx.addIssue({ code: 'custom', path: ['maxAge'], message: `must be at least minAge (${item.minAge})` });
    }
    if (item.teams && item.teams.minSize > item.teams.maxSize) {
      ctx.addIssue({
        code: 'custom',
        path: ['teams', 'maxSize'],
        message: `must be at least minSize (${item.teams.minSize})`,
      });
    }
  });
const entrySchema = z
  .strictObject({
    items: z.array(entryItemSchema).min(1).max(50),
    allowMultiple: z.boolean(),
    othersPerAccount: z.number().int().min(0).max(MAX_OTHERS_PER_ACCOUNT).optional(),
    formChannel: z.string().regex(CHANNEL_PATTERN).optional(),
    directPass: z.boolean().optional(),
    allowTransfer: z.boolean().optional(),
    refunds: z
      .strictObject({
        allowed: z.boolean(),
        until: raceTime,
        sharePercent: z.number().min(0).max(100),
        deferral: z.strictObject({ allowed: z.boolean(), until: raceTime }).optional(),
      })
      .optional(),
  })
  .superRefine((entry, ctx) => {
    const seen = new Set<string>();
    entry.items.forEach((item, i) => {
      const key = item.code.toUpperCase();
      if (seen.has(key)) {
        ctx.addIssue({ code: 'custom', path: ['items', i, 'code'], message: `duplicate item code ${item.code}` });
      }
      seen.add(key);
    });
  });

/** The commitment letter (contract/after-entry.ts CommitmentLetterSettings): its body may be long rich text. */
const commitmentLetterSchema = z.strictObject({
  enabled: z.boolean(),
  title: localText,
  body: z.strictObject({ zh: z.string().min(1).max(50_000), en: z.string().min(1).max(50_000) }),
  statements: z.array(localText).min(1).max(20),
  guardianForMinors: z.boolean().optional(),
  relativeOverAge: z.number().int().min(18).max(150).optional(),
  deadline: raceTime.optional(),
});

/** Pack pick-up (contract/after-entry.ts PackPickupSettings): days with slots; a slot's id (day + start) once per race. */
const slotTime = z.string().regex(SLOT_TIME_PATTERN, 'must be HH:mm (24-hour clock)');
const packPickupSchema = z
  .strictObject({
    enabled: z.boolean(),
    location: localText,
    notice: localText,
    deadline: raceTime,
    requirePaid: z.boolean().optional(),
    requireLetter: z.boolean().optional(),
    days: z
      .array(
        z.strictObject({
          date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
          slots: z
            .array(
              z
                .strictObject({
                  start: slotTime,
                  end: slotTime,
                  capacity: z.number().int().min(0).max(MAX_SLOT_CAPACITY),
                })
                .superRefine((slot, ctx) => {
                  if (slot.end <= slot.start) {
                    ctx.addIssue({ code: 'custom', path: ['end'], message: `must be after start (${slot.start})` });
                  }
                }),
            )
            .min(1)
            .max(96),
        }),
      )
      .min(1)
      .max(31),
  })
  .superRefine((pickup, ctx) => {
    const seen = new Set<string>();
    pickup.days.forEach((day, d) =>
      day.slots.forEach((slot, s) => {
        const id = pickupSlotId(day.date, slot.start);
        if (seen.has(id)) {
          ctx.addIssue({ code: 'custom', path: ['days', d, 'slots', s, 'start'], message: `duplicate slot ${id}` });
        }
        seen.add(id);
      }),
    );
  });

/** itemTimeSetting: a JSON text holding a list of { itemName, itemNameEn?, distanceKm?, startTime?, cutOffTime?, maxNumber? }. */
const raceItemSchema = z.looseObject({
  itemName: z.string().min(1),
  itemNameEn: optText,
  distanceKm: z.number().positive().optional(),
  startTime: optTime,
  cutOffTime: optTime,
  maxNumber: optInt,
});
const optItemSetting = z
  .string()
  .superRefine((value, ctx) => {
    let items: unknown;
    try {
      items = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON text of a list of race items' });
      return;
    }
    const result = z.array(raceItemSchema).max(50).safeParse(items);
    if (result.success) return;
    for (const issue of result.error.issues.slice(0, 20)) {
      ctx.addIssue({ code: 'custom', message: `${formatJsonPath(issue.path)}: ${issue.message}` });
    }
  })
  .optional();

const raceInfoShape = z.looseObject({
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
  startTime: optTime,
  endTime: optTime,
  imgDetail: optLinkList,
  itemTimeSetting: optItemSetting,
  organizationId: optText,
  progressStatus: optInt,
  provinceId: optText,
  raceCategoryId: optText,
  raceFeatures: optText,
  raceItemTypeName: optText,
  raceStatus: optInt,
  signUpStartTime: optTime,
  signUpEndTime: optTime,
  showSignUpStartTime: optTime,
  showSignUpEndTime: optTime,
  signUpMaxNumber: optInt,
  /** 0 closed, 1 open. */
  signUpOpenStatus: z.literal([0, 1], 'must be 0 (closed) or 1 (open)').optional(),
  signUpUrl: optLink,
  submitStatus: optInt,
  timeZone: optTimeZone,
  updateUser: optText,
  directApplication: directApplicationSchema.optional(),
  packMailing: packMailingSchema.optional(),
  documentUpload: documentUploadSchema.optional(),
  entry: entrySchema.optional(),
  commitmentLetter: commitmentLetterSchema.optional(),
  packPickup: packPickupSchema.optional(),
});

/** A time pair whose end is not after its start makes the SPA show no dates at all. */
const ORDERED_PAIRS = [
  ['startTime', 'endTime'],
  ['signUpStartTime', 'signUpEndTime'],
  ['showSignUpStartTime', 'showSignUpEndTime'],
] as const;

export const raceInfoSchema = raceInfoShape.superRefine((race, ctx) => {
  for (const [start, end] of ORDERED_PAIRS) {
    const from = race[start];
    const to = race[end];
    // Valid times sort as text.
    if (from && to && !raceTimeProblem(from) && !raceTimeProblem(to) && to <= from) {
      ctx.addIssue({ code: 'custom', path: [end], message: `must be after ${start} (${from}); got ${to}` });
    }
  }
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
