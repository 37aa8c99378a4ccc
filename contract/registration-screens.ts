/**
 * The registration screens' API (issue 13 §4): /direct (direct-pass qualification application), /confirm
 * (registration confirmation), /post (race-pack mailing) and /upload (documents), plus the two lookups the
 * registration form's fields use (the runner's own results, the clothing sizes left). Request and answer
 * types of the calls named in contract/api.ts, the statuses with their label keys, the race settings that
 * race.json carries (docs/site-config.md) and the one calculation of a window's or a deadline's state.
 *
 * Every answer is the `{code, msg, data}` envelope; the `data` types are below. Times in answers are epoch
 * milliseconds (show them with contract/race-clock formatRaceTime in the race's zone); times in the race
 * settings are race wall-clock texts 'YYYY-MM-DD HH:mm:ss' in the race's time zone, like the other race times.
 * Personal numbers (certificate number, phone) are masked in every answer.
 *
 * How the server answers (server/test/registration-screens.test.ts shows each):
 * - Logged-in calls without a valid token: `{ code: 401, msgCode: 'loginExpired' }`; every answer no-store.
 * - Field refusals: `{ code: 400, msg, msgCode, msgParams?, data: FieldRefusals }`, msg/msgCode the first field's.
 *   Other refusals: `{ code, msg, msgCode, data: null }` (raceNotFound 404, registrationFormMissing 404,
 *   directNotOpen / directEnded / directSubmitted / directApproved 400, mailingClosed / mailingEnded,
 *   documentsClosed / documentsEnded 400, slideFirst / verificationFailed 400, registrationMissing 404).
 *   A body of the wrong shape is HTTP 400 invalidRequest.
 * - A masked personal number sent back exactly as it was answered (directSave values, mailingSave phone) stands
 *   for the stored one: a form may be re-sent as loaded without typing the numbers again.
 * - directSave on a rejected (3) application with submit false keeps status 3 (and its reason) with the new
 *   values; submit true makes it 1 again and drops the reason. A certificate number submitted by another
 *   account answers the field refusal directCertificateUsed on the certificate-number field.
 * - directMine of a race without `directApplication`: window { startTime: '', endTime: '', state: 'ended' }.
 * - confirm only within 30 minutes after this account's confirmSearch of that registration, else slideFirst.
 */
import type { ParcelView } from '#contract/after-entry';
import type { EntryModel } from '#contract/entry';
import type { CertificateType } from '#contract/enums';
import type { MessageParams, Refusal } from '#contract/messages';
import { parseRaceTime } from '#contract/race-clock';
import type { RegionCodes } from '#contract/region';
import type { LocalText } from '#contract/registration-form';
import type { SizeLimit } from '#contract/rules';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';

// ---------------------------------------------------------------------------------------------------------
// Statuses
// ---------------------------------------------------------------------------------------------------------

/** Direct-pass application statuses (spec §4): 0 waiting to submit, 1 submitted awaiting review, 2 approved, 3 rejected. */
export const DIRECT_STATUSES = { draft: 0, submitted: 1, approved: 2, rejected: 3 } as const;
export type DirectStatus = (typeof DIRECT_STATUSES)[keyof typeof DIRECT_STATUSES];
export const DIRECT_STATUS_LIST: readonly DirectStatus[] = [0, 1, 2, 3];
export const isDirectStatus = (value: unknown): value is DirectStatus =>
  (DIRECT_STATUS_LIST as readonly unknown[]).includes(value);

/**
 * The detail view's label of each status (i18n keys of the SPA's common.json: 待提交 / Waiting to submit,
 * 已提交待审核 / Submitted, awaiting review, 审核通过 / Approved, 审核未通过 / Rejected).
 */
export const DIRECT_STATUS_LABELS = {
  0: 'enums.directStatuses.0',
  1: 'enums.directStatuses.1',
  2: 'enums.directStatuses.2',
  3: 'enums.directStatuses.3',
} as const satisfies Record<DirectStatus, string>;

/** The list view's labels (spec §4): 0 waiting to submit, 1, 2 and 3 all 'submitted' (已提交 / Submitted). */
export const DIRECT_LIST_LABELS = {
  0: 'enums.directListStatuses.draft',
  1: 'enums.directListStatuses.submitted',
  2: 'enums.directListStatuses.submitted',
  3: 'enums.directListStatuses.submitted',
} as const satisfies Record<DirectStatus, string>;

/** 'Application ended' (申请已结束), shown instead of the form once the window has closed. */
export const DIRECT_ENDED_LABEL = 'enums.directStatuses.ended';

/** The entry channel of the direct-pass form (contract/registration-form.ts channel). */
export const DIRECT_FORM_CHANNEL = 'direct';

// ---------------------------------------------------------------------------------------------------------
// Race settings (race.json `race` object; docs/site-config.md)
// ---------------------------------------------------------------------------------------------------------

/** `race.directApplication`: the direct-pass window. */
export interface DirectApplicationSettings {
  startTime: string;
  endTime: string;
}

/** `race.packMailing`: race-pack mailing instead of pick-up (/post). */
export interface PackMailingSettings {
  enabled: boolean;
  /** The last moment a runner may choose or change. */
  deadline: string;
  /** The cash-on-delivery notice (spec §9 sample). */
  notice: LocalText;
}

/** `race.documentUpload`: the documents a runner hands in (/upload). */
export interface DocumentUploadSettings {
  enabled: boolean;
  /** None: open while enabled. */
  deadline?: string;
  /** Largest file; a size of 0 is no limit. */
  maxSize: SizeLimit;
  /** Most files; 0 is no limit. */
  maxCount: number;
  note: LocalText;
}

// ---------------------------------------------------------------------------------------------------------
// Window and deadline states: the one calculation, for the SPA and the server
// ---------------------------------------------------------------------------------------------------------

export type WindowState = 'notYet' | 'open' | 'ended';
/** 'closed': not offered for this race (disabled or not set). */
export type DeadlineState = 'open' | 'ended' | 'closed';

/** Where `now` (epoch ms) stands in a window of race wall-clock times read in the race's zone (start inclusive, end exclusive). */
export function windowState(
  window: DirectApplicationSettings | undefined,
  now: number,
  zone = DEFAULT_RACE_TIME_ZONE,
): WindowState {
  const start = parseRaceTime(window?.startTime, zone);
  const end = parseRaceTime(window?.endTime, zone);
  if (start === null || end === null) return 'ended';
  if (now < start) return 'notYet';
  return now < end ? 'open' : 'ended';
}

/** A setting with an optional deadline: closed when disabled or absent, ended from the deadline on. */
export function deadlineState(
  settings: { enabled: boolean; deadline?: string } | undefined,
  now: number,
  zone = DEFAULT_RACE_TIME_ZONE,
): DeadlineState {
  if (!settings?.enabled) return 'closed';
  if (settings.deadline === undefined) return 'open';
  const deadline = parseRaceTime(settings.deadline, zone);
  return deadline !== null && now < deadline ? 'open' : 'ended';
}

// ---------------------------------------------------------------------------------------------------------
// Shared shapes
// ---------------------------------------------------------------------------------------------------------

/** The field refusals of a save (code 400, msg the first field's message): `data` of the refusal. */
export interface FieldRefusals {
  fields: Record<string, { code: Refusal['code']; params?: MessageParams }>;
}

/** The runner's name and certificate: the key of the own-results lookup and of the confirmation. */
export interface RunnerKey {
  name: string;
  certificateType: CertificateType;
  certificateNumber: string;
}

/** A passed slider check: what captchaVerify answered (single-use). */
export interface CaptchaPass {
  token: string;
  sig: string;
  sessionId: string;
  scene: string;
}

// ---------------------------------------------------------------------------------------------------------
// 1, 2. /direct: directMine, directSave
// ---------------------------------------------------------------------------------------------------------

export interface DirectWindow extends DirectApplicationSettings {
  state: WindowState;
}

export interface DirectApplication {
  id: number;
  status: DirectStatus;
  /** The form's values; certificate numbers and phones masked. */
  values: Record<string, unknown>;
  createdAt: number;
  updatedAt: number;
  submittedAt?: number;
  reviewedAt?: number;
  /** Set when rejected (3): the organiser's reason. */
  rejectReason?: string;
}

/** GET directMine ?raceId= */
export interface DirectMineAnswer {
  window: DirectWindow;
  application?: DirectApplication;
  formChannel: typeof DIRECT_FORM_CHANNEL;
}

/** POST directSave: submit false keeps a draft (0), true checks the whole form and submits (1). */
export interface DirectSaveRequest {
  raceId: string;
  values: Record<string, unknown>;
  submit: boolean;
}
export type DirectSaveAnswer = DirectApplication;

// ---------------------------------------------------------------------------------------------------------
// 3, 4. Form lookups: myResults, sizeStock
// ---------------------------------------------------------------------------------------------------------

/** POST myResults: the runner's own finishes in the organiser's races (pastEvents, own score claims). */
export interface MyResultsRequest extends RunnerKey {
  /** The race whose organiser's races are searched; every race's when absent. */
  raceId?: string;
}
export interface OwnResult {
  /** 'raceId:bib': the value a pastEvents or an own scoreVerification field holds. */
  resultId: string;
  raceId: string;
  raceName: string;
  raceNameEn: string;
  item: string;
  /** 'H:MM:SS' */
  chipTime: string;
  /** 'YYYY-MM-DD' */
  raceDate: string;
}
export type MyResultsAnswer = OwnResult[];

/** GET sizeStock ?raceId=&channel=&field= (public, cached 10 s): pieces left per size code, for sizes with a stock. */
export type SizeStockAnswer = Record<string, number>;

// ---------------------------------------------------------------------------------------------------------
// 5. /confirm: confirmSearch, confirm
// ---------------------------------------------------------------------------------------------------------

export interface ConfirmSearchRequest extends RunnerKey {
  raceId: string;
  captcha: CaptchaPass;
}
export interface ConfirmRequest extends RunnerKey {
  raceId: string;
}

/** The runner's registration as the registration lookup answers it (numbers masked), and the confirmation. */
export interface ConfirmRegistration {
  raceId: string;
  raceName: string;
  raceNameEn: string;
  /** Registration status (entry.ts entryStatusLabel, with `model`). */
  status: number;
  /** How the item gives its places (race.json `entry`); absent for an item its sign-up does not list. */
  model?: EntryModel;
  item: string;
  itemName: string;
  itemNameEn: string;
  /** '' until assigned. */
  bib: string;
  /** 2 third-party, 3 web, 5 app (enums.ts CHANNEL_LABELS). */
  channel: number;
  participant: {
    name: string;
    gender: number;
    certificateType: number;
    /** Masked. */
    certificateNumber: string;
    /** Masked. */
    phone: string;
    emergencyName: string;
    /** Masked. */
    emergencyPhone: string;
  };
  /** When the runner confirmed the details; absent until then. */
  confirmedAt?: number;
}

// ---------------------------------------------------------------------------------------------------------
// 6. /post: mailingGet, mailingSave
// ---------------------------------------------------------------------------------------------------------

export const MAILING_METHODS = ['mail', 'pickup'] as const;
export type MailingMethod = (typeof MAILING_METHODS)[number];

export interface MailingChoice {
  method: MailingMethod;
  name: string;
  /** Masked. */
  phone: string;
  region: RegionCodes;
  address: string;
  updatedAt: number;
}

/** GET mailingGet ?raceId= */
export interface MailingAnswer {
  settings: { enabled: boolean; deadline: string; notice: LocalText; state: DeadlineState };
  choice?: MailingChoice;
  /** Once the runner chose mailing: the parcel's state (issue 15 §5; contract/after-entry.ts). */
  parcel?: ParcelView;
  /**
   * The runner's pick-up bookings in the race (/my/pickup), with their slot's day and times: a pack is mailed
   * OR collected, so mailing cannot be chosen while there is one (mailingPickupBooked).
   */
  pickupBookings?: { slotId: string; slot: { date: string; start: string; end: string } | null }[];
}

/** POST mailingSave: 'mail' needs name, phone, region (three levels) and address; 'pickup' needs none. */
export interface MailingSaveRequest {
  raceId: string;
  method: MailingMethod;
  name?: string;
  phone?: string;
  region?: RegionCodes;
  address?: string;
}
export type MailingSaveAnswer = MailingChoice;

// ---------------------------------------------------------------------------------------------------------
// 7. /upload: documentsGet, documentsSave
// ---------------------------------------------------------------------------------------------------------

export interface DocumentsAnswer {
  settings: Omit<DocumentUploadSettings, 'enabled'> & { enabled: boolean; state: DeadlineState };
  /** The upload value: comma-separated URLs ('' when none). */
  files: string;
  updatedAt?: number;
}

export interface DocumentsSaveRequest {
  raceId: string;
  files: string;
}
export type DocumentsSaveAnswer = { files: string; updatedAt: number };
