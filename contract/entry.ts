/**
 * Sign-up (issue #14): what an organiser sets per race (`entry` of race.json), the statuses of registrations
 * and orders, the request and answer shapes of the entry, order, payment, ballot and personal-centre calls
 * (paths in contract/api.ts), and the calculations the SPA and the server must agree on (age on race day,
 * payment deadlines, fees in fen). One place for each; the SPA and the server import them from here.
 *
 * Money is integer fen everywhere (¥1 = 100 fen); `formatFen` is the one way to show it.
 */
import type { LocalText } from '#contract/registration-form';
import type { EntryService, RefundSettings } from '#contract/after-entry';
import { registrationStatusLabel, type CertificateType } from '#contract/enums';
import { windowState, type CaptchaPass } from '#contract/registration-screens';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';

// ---------------------------------------------------------------------------------------------------------
// The organiser's settings (race.json `entry`; docs/site-config.md)
// ---------------------------------------------------------------------------------------------------------

/**
 * How places of an item are given (docs/site-config.md "Sign-up", `model`):
 * - firstCome: a place is held at submission while the order is unpaid (paymentMinutes), kept once paid.
 * - ballot: entries wait for the draw after the window; winners then pay within paymentMinutes; places of
 *   those who do not pay go to the wait list (or a second draw).
 * - payThenDraw: the order is paid at submission (unpaid after paymentMinutes: void); the draw runs over paid
 *   entries; losers are refunded automatically.
 */
export const ENTRY_MODELS = ['firstCome', 'ballot', 'payThenDraw'] as const;
export type EntryModel = (typeof ENTRY_MODELS)[number];

/**
 * The channels an entry comes through: public (the item's model), direct (an approved /direct application:
 * a guaranteed place), code (an invitation or sponsor code: a guaranteed place, works while public entry is
 * closed), team (a team code; drawn together in a ballot item), charity (the item's charity places: own fee,
 * first come).
 */
export const ENTRY_CHANNELS = ['public', 'direct', 'code', 'team', 'charity'] as const;
export type EntryChannel = (typeof ENTRY_CHANNELS)[number];

/** Team size bounds of the issue (2–7 members). */
export const TEAM_SIZE = { min: 2, max: 7 } as const;
/** At most this many people in one submission when the race allows registering several. */
export const MAX_PEOPLE_PER_SUBMISSION = 10;
/**
 * Where the race allows registering several people: how many besides themselves one account may register for
 * the race when `othersPerAccount` is not set (docs/entry-limits.md), and the most it may be set to.
 */
export const DEFAULT_OTHERS_PER_ACCOUNT = 4;
export const MAX_OTHERS_PER_ACCOUNT = 49;
/** Default payment windows (minutes): a held first-come or pay-first place; a ballot winner's window. */
export const DEFAULT_PAYMENT_MINUTES = { firstCome: 30, payThenDraw: 15, ballot: 48 * 60 } as const;
/** The order shows "cancelled automatically soon" in its last minutes (ORDER_STATUS_KEYS 'cancelSoon'). */
export const CANCEL_SOON_MS = 10 * 60 * 1000;

export interface EntryItemSettings {
  /** Stable code of the item: letters, digits, '-' (the form's `item` field uses it as the option value). */
  code: string;
  name: LocalText;
  /** Places in all (public + guaranteed channels; charity places are counted apart). */
  capacity: number;
  /** Entry fee in fen. */
  feeFen: number;
  model: EntryModel;
  /** Age on race day (contract ageOnRaceDay), inclusive bounds. */
  minAge?: number;
  maxAge?: number;
  /** Minutes to pay (defaults: DEFAULT_PAYMENT_MINUTES of the model). */
  paymentMinutes?: number;
  /** Ballot items: unpaid winners' places go to the wait list in draw order (default true). */
  waitList?: boolean;
  /** Charity places: own capacity and fee, first come. */
  charity?: { capacity: number; feeFen: number };
  /** Teams may enter this item (team codes), with these size bounds within TEAM_SIZE. */
  teams?: { minSize: number; maxSize: number };
  /** Hidden from the public: only an invitation code opens it. */
  codeOnly?: boolean;
  /** The course's length in km (results: checkpoints and pace); M, H and 10K have theirs by default. */
  distanceKm?: number;
}

export interface EntrySettings {
  items: EntryItemSettings[];
  /** One account may register several people in one submission (spec §5: an event may not allow it). */
  allowMultiple: boolean;
  /**
   * With allowMultiple: how many people besides themselves one account may have registered for the race at a
   * time (live entries; default DEFAULT_OTHERS_PER_ACCOUNT, 0–MAX_OTHERS_PER_ACCOUNT). Without it: none.
   */
  othersPerAccount?: number;
  /** The registration form's channel the entries are filled on (default 'public'). */
  formChannel?: string;
  /** Direct-pass applicants approved on /direct may enter without the ballot (default true when /direct is set). */
  directPass?: boolean;
  /** Refunds and deferral (issue #15; contract/after-entry.ts). Absent: no refunds (pay-first ballot losers are refunded regardless). */
  refunds?: RefundSettings;
  /**
   * The organiser may transfer an entry to another person (console or CLI `entry-transfer`). Default false: at
   * most Chinese races a place is the named person's own (real-name entry); deferral is the norm there.
   */
  allowTransfer?: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Statuses (spec §4). The numbers are those of contract/enums.ts REGISTRATION_STATUS_KEYS / ORDER_STATUS_KEYS.
// ---------------------------------------------------------------------------------------------------------

/** Registration statuses: 0 submitted (awaiting draw or payment), 1 won / registered, 2 not won, 3 cancelled, 4 refund under review, 5 refunded. */
export const ENTRY_STATUSES = { submitted: 0, won: 1, notWon: 2, cancelled: 3, refundReview: 4, refunded: 5 } as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[keyof typeof ENTRY_STATUSES];
/** Statuses that hold the person's one registration of the race (a cancelled, refunded or lost entry does not). */
export const LIVE_ENTRY_STATUSES: readonly EntryStatus[] = [0, 1, 4];

/**
 * The most live entries one account may hold in a race (docs/entry-limits.md): its own plus othersPerAccount
 * where the race allows registering several people, otherwise exactly one. The one place this rule is decided;
 * the server counts the account's live entries against it under the account's lock.
 */
export function peoplePerAccount(settings: Pick<EntrySettings, 'allowMultiple' | 'othersPerAccount'> | undefined) {
  if (!settings?.allowMultiple) return 1;
  return 1 + (settings.othersPerAccount ?? DEFAULT_OTHERS_PER_ACCOUNT);
}

/**
 * Whether an entry's place is given by a draw: ballot and pay-first items entered publicly or as a team. A
 * first-come item, and the guaranteed channels of any item (direct, code, charity), take a place at submission.
 */
export const placeByDraw = (model: EntryModel, channel?: EntryChannel): boolean =>
  model !== 'firstCome' && (channel === undefined || channel === 'public' || channel === 'team');

/**
 * The i18n key of a registration status as runners and the organiser read it, by how its place is given: a
 * place by draw reads 'submitted, awaiting the draw' / 'won the lottery (registered)' (spec §4); a place taken at
 * submission 'submitted, awaiting payment' / 'registered'. Without a model (a registration imported for an
 * item the race's sign-up does not list) the spec's wording.
 */
export function entryStatusLabel(status: number, model?: EntryModel, channel?: EntryChannel) {
  if (model !== undefined && !placeByDraw(model, channel) && (status === 0 || status === 1)) {
    return `enums.registrationStatusesPlaced.${status}` as const;
  }
  return registrationStatusLabel(status);
}

/** Order statuses: 1 awaiting payment, 3 paid, 4 cancelled, 5 refunded (0 submitted and 2 cancel-soon are shown, not stored). */
export const ORDER_STATUSES = {
  submitted: 0,
  awaitingPayment: 1,
  cancelSoon: 2,
  paid: 3,
  cancelled: 4,
  refunded: 5,
} as const;
export type OrderStatus = (typeof ORDER_STATUSES)[keyof typeof ORDER_STATUSES];

/** The status an order shows at `now`: an unpaid order in its last CANCEL_SOON_MS reads 'cancel soon'. */
export function shownOrderStatus(order: { status: OrderStatus; deadlineAt: number | null }, now: number): OrderStatus {
  if (
    order.status === ORDER_STATUSES.awaitingPayment &&
    order.deadlineAt !== null &&
    order.deadlineAt - now <= CANCEL_SOON_MS
  ) {
    return ORDER_STATUSES.cancelSoon;
  }
  return order.status;
}

/** The steps of a registration's timeline (each with the time it happened). */
export const TIMELINE_STEPS = [
  'submitted',
  'orderCreated',
  'paid',
  'drawn',
  'won',
  'notWon',
  'waitListed',
  'promoted',
  'cancelled',
  'refundRequested',
  'refundRejected',
  'refunded',
  'deferralRequested',
  'deferralRejected',
  'deferred',
  'bibAssigned',
  'letterSigned',
  'pickupBooked',
  'pickupCancelled',
  'packCollected',
  // The organiser's actions from the console or the CLI (issue 30 §5); 'cancelled', 'paid' and 'bibAssigned'
  // are theirs too when the step's actor says so.
  'answersEdited',
  'transferred',
  'organiserRefund',
] as const;
export type TimelineStep = (typeof TIMELINE_STEPS)[number];

// ---------------------------------------------------------------------------------------------------------
// Whether entry is open: the one rule of the server's sign-up, the sign-up page and the home page
// ---------------------------------------------------------------------------------------------------------

/** Where the race's public sign-up stands: not yet, open, past its end, or closed by the organiser. */
export type SignUpWindowState = 'notYet' | 'open' | 'ended' | 'closed';

/**
 * The race's public sign-up at `now` (race clock): 'closed' while signUpOpenStatus is not 1 (`site entry-close`
 * sets 0), else where `now` stands in signUpStartTime–signUpEndTime (a race without both times: 'ended'). The
 * server refuses public submissions outside 'open'; every screen that says whether entry is open reads this.
 */
export function signUpWindow(
  race: Pick<RaceInfo, 'signUpOpenStatus' | 'signUpStartTime' | 'signUpEndTime' | 'timeZone'>,
  now: number,
): SignUpWindowState {
  if (race.signUpOpenStatus !== 1) return 'closed';
  return windowState(
    { startTime: race.signUpStartTime ?? '', endTime: race.signUpEndTime ?? '' },
    now,
    raceTimeZone(race),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Calculations shared by the SPA and the server
// ---------------------------------------------------------------------------------------------------------

/** Age in whole years on a date (both 'YYYY-MM-DD'; a race time's date part may be given whole). */
export function ageOn(birthday: string, date: string): number {
  const [by = 0, bm = 0, bd = 0] = birthday.slice(0, 10).split('-').map(Number);
  const [y = 0, m = 0, d = 0] = date.slice(0, 10).split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** The refusal code of an age outside the item's bounds, or null. */
export function ageProblem(
  item: Pick<EntryItemSettings, 'minAge' | 'maxAge'>,
  birthday: string,
  raceDate: string,
): { code: 'entryTooYoung' | 'entryTooOld'; params: { min?: number; max?: number } } | null {
  const age = ageOn(birthday, raceDate);
  if (item.minAge !== undefined && age < item.minAge) return { code: 'entryTooYoung', params: { min: item.minAge } };
  if (item.maxAge !== undefined && age > item.maxAge) return { code: 'entryTooOld', params: { max: item.maxAge } };
  return null;
}

/** Minutes to pay an order of this item created by this model step. */
export const paymentMinutes = (item: Pick<EntryItemSettings, 'model' | 'paymentMinutes'>): number =>
  item.paymentMinutes ?? DEFAULT_PAYMENT_MINUTES[item.model];

/** The fee of one place in fen for a channel (charity places have their own fee). */
export const feeFen = (item: EntryItemSettings, channel: EntryChannel): number =>
  channel === 'charity' && item.charity ? item.charity.feeFen : item.feeFen;

/** Fen as yuan with two decimals ('¥1,280.00' style without the sign): 128000 → '1,280.00'. */
export function formatFen(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  const yuan = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${yuan}.${String(abs % 100).padStart(2, '0')}`;
}

/** The pattern of item codes, team codes' race-unique text and invitation codes. */
export const ITEM_CODE_PATTERN = /^[A-Za-z0-9-]{1,32}$/;
/** Invitation and team codes: 6–32 letters or digits, compared without case. */
export const INVITATION_CODE_PATTERN = /^[A-Za-z0-9]{6,32}$/;
export const normalizeCode = (code: string) => code.trim().toUpperCase();

// ---------------------------------------------------------------------------------------------------------
// The form's participant fields: the keys the entry system reads from a submitted registration form
// ---------------------------------------------------------------------------------------------------------

/**
 * The registration form of the entry channel (docs/registration-form.md) must hold these keys; the form's
 * `item` field (when present) is filled with the chosen item code and locked. The certificate is the form's
 * first certificateType / certificateNumber pair.
 */
export const PARTICIPANT_KEYS = {
  item: 'item',
  name: 'name',
  gender: 'gender',
  birthday: 'birthday',
  phone: 'phone',
  emergencyName: 'emergencyName',
  emergencyPhone: 'emergencyPhone',
} as const;

// ---------------------------------------------------------------------------------------------------------
// Calls (paths in contract/api.ts)
// ---------------------------------------------------------------------------------------------------------

/** entryInfo: GET ?raceId= → the race's sign-up state for the entry page (public, cached a few seconds). */
export interface EntryInfo {
  raceId: string;
  /** The race's sign-up window (race clock texts) and its state at `now`. */
  signUpStartTime?: string;
  signUpEndTime?: string;
  windowState: SignUpWindowState;
  allowMultiple: boolean;
  /** The most people one account may have registered for the race at a time (contract peoplePerAccount). */
  peoplePerAccount: number;
  formChannel: string;
  /** The public items (codeOnly ones are left out). */
  items: EntryItemInfo[];
  /** The server's clock when answered (epoch ms), for countdowns. */
  now: number;
}

export interface EntryItemInfo {
  code: string;
  name: LocalText;
  feeFen: number;
  model: EntryModel;
  capacity: number;
  /** Places left now (first come), or null where a ballot decides. */
  left: number | null;
  minAge?: number;
  maxAge?: number;
  paymentMinutes: number;
  charity?: { capacity: number; left: number; feeFen: number };
  teams?: { minSize: number; maxSize: number };
  /** The ballot of this item, once committed. */
  ballot?: BallotSummary;
  /** The item's channels the organiser closed (contract/season.ts entryStateFor); absent when none. */
  closedChannels?: EntryChannel[];
}

/** codeCheck: POST { raceId, code } → what the code opens (refused with redemptionCodeMissing when unknown, used up or expired). */
export interface CodeCheckRequest {
  raceId: string;
  code: string;
}
export interface CodeCheckAnswer {
  code: string;
  itemCode: string;
  itemName: LocalText;
  /** A named code works only for that person (name shown masked). */
  namedFor?: string;
  usesLeft: number;
  expiresAt: number | null;
}

/** teamCreate: POST → a new team of the item; the creator registers into it like any member. */
export interface TeamCreateRequest {
  raceId: string;
  itemCode: string;
  name: string;
}
export interface TeamInfo {
  teamCode: string;
  name: string;
  itemCode: string;
  minSize: number;
  maxSize: number;
  members: { maskedName: string; entryNo: string }[];
  /** The captain (creator) sees the code; members see it too (they joined with it). */
  isCaptain: boolean;
}

/** entrySubmit: POST → the entries made and the order to pay (when the model takes payment now). */
export interface EntrySubmitRequest {
  raceId: string;
  itemCode: string;
  channel: EntryChannel;
  /** channel 'code': the invitation code; channel 'team': the team code. */
  code?: string;
  /** One per person (one unless the race allows several): the registration form's values. */
  participants: Record<string, unknown>[];
  /** The SPA's random key for this submission: the same key twice gives the first answer again. */
  idempotencyKey: string;
  /**
   * A passed slider check (the provider of the login codes), redeemed once when the submission is written;
   * required (slideFirst without it), except that a key already answered answers without one.
   */
  captcha?: CaptchaPass;
}
export interface EntrySubmitAnswer {
  entries: MyEntry[];
  order: OrderView | null;
}

/** One registration as its account holder sees it (personal centre). */
export interface MyEntry {
  entryNo: string;
  raceId: string;
  raceName: LocalText;
  itemCode: string;
  itemName: LocalText;
  channel: EntryChannel;
  model: EntryModel;
  status: EntryStatus;
  name: string;
  certificateType: CertificateType;
  /** Masked (maskCertNo). */
  certificateNumber: string;
  bib: string | null;
  teamCode: string | null;
  /** Wait-list position after the draw (1 = next), or null. */
  waitListPosition: number | null;
  timeline: { step: TimelineStep; at: number }[];
  /** The order this entry is paid by (the latest), if any. */
  orderNo: string | null;
  /** The after-entry services the race offers this entry (contract/after-entry.ts entryServices): the card's links. */
  services: EntryService[];
  createdAt: number;
}

export interface OrderLineView {
  subOrderNo: string;
  entryNo: string;
  name: string;
  itemName: LocalText;
  amountFen: number;
}

export interface OrderView {
  orderNo: string;
  raceId: string;
  status: OrderStatus;
  amountFen: number;
  /** Paid amount (0 until paid). */
  paidFen: number;
  /** Coupon and discount are part of the spec's order labels; always 0 in the reference server. */
  couponFen: number;
  discountFen: number;
  createdAt: number;
  /** Pay before this (epoch ms) or the order is cancelled automatically; null once settled. */
  deadlineAt: number | null;
  paidAt: number | null;
  /** The provider's serial number of the payment, once paid. */
  serialNo: string | null;
  refundedFen: number;
  lines: OrderLineView[];
  /**
   * true while the order is unpaid and its latest payment attempt failed at the provider (a failed payment, or
   * one the runner cancelled at the cashier): the order page says so and offers paying again. Absent otherwise.
   */
  paymentFailed?: true;
  /**
   * The ways this server takes payment (payment provider names, PAYMENT_PROVIDER's order, the first the
   * default): the order page's pay buttons, one per method (orderGet only).
   */
  payMethods?: string[];
}

/** myEntries: GET → every entry of the account, newest first, with their orders. */
export interface MyEntriesAnswer {
  entries: MyEntry[];
  orders: OrderView[];
  now: number;
}

/**
 * The site a runner pays from: the desktop site or the mobile site. The cashier sends them back to the order
 * page of the same site, so that a phone comes back to the mobile site at once instead of loading the desktop
 * page and being sent on from there.
 */
export const PAY_SITES = ['desktop', 'mobile'] as const;
export type PaySite = (typeof PAY_SITES)[number];

/**
 * Where the reference server serves each site's pages (a hash route follows): the desktop registration area
 * and the mobile site. (src/lib/mobile-redirect.ts keeps its own copy of '/m/': it must import nothing.)
 */
export const SITE_PATHS: Readonly<Record<PaySite, string>> = { desktop: '/reg/', mobile: '/m/' };

/** orderPay: POST { orderNo, site? } → where to pay (the provider's cashier page); refused when not payable. */
export interface OrderPayRequest {
  orderNo: string;
  /** The site the runner pays from, to come back to (default desktop). */
  site?: PaySite;
  /** The way the runner pays: one of the order's payMethods (default the first); payMethodUnavailable otherwise. */
  method?: string;
}

/** A payment method's name as orderPay takes it (a payment provider's name). */
export const PAY_METHOD_PATTERN = '^[a-z0-9][a-z0-9_-]{0,31}$';
export interface OrderPayAnswer {
  orderNo: string;
  paymentId: string;
  cashierUrl: string;
  /** A QR code's content for paying on a phone (the same cashier URL in the sandbox). */
  qrContent: string;
  deadlineAt: number;
  /** The method (provider) paid with. */
  method: string;
  /**
   * redirect: the browser goes to cashierUrl; qr: the order page shows qrContent as a QR code to scan with the
   * wallet's app and waits until the order is paid.
   */
  display: 'redirect' | 'qr';
  amountFen: number;
}

// ---------------------------------------------------------------------------------------------------------
// The ballot (contract/ballot.ts holds the draw itself)
// ---------------------------------------------------------------------------------------------------------

export interface BallotSummary {
  round: number;
  /** sha256 hex of the seed, published before the window closes. */
  commitment: string;
  committedAt: number;
  /** The public beacon named with the commitment (a value nobody knew then, mixed into the draw); '' or absent: none. */
  beacon?: string;
  drawnAt: number | null;
  /** The seed, once revealed (after the draw). */
  seed: string | null;
  places: number | null;
}

/** ballotPublic: GET ?raceId=&itemCode=&round= → everything needed to re-run the draw. */
export interface BallotPublic extends BallotSummary {
  raceId: string;
  itemCode: string;
  itemName: LocalText;
  /** The published entry list: entry numbers with masked names, team units together. */
  entries: BallotEntry[];
  /** Entry numbers of the winners in draw order, then of the wait list in order (once drawn). */
  winners: string[];
  waitList: string[];
}

export interface BallotEntry {
  entryNo: string;
  maskedName: string;
  /** Members of one team share a unit id (their team code's public id); null for a single runner. */
  unit: string | null;
}

/** ballotCheck ("am I in?"): POST { raceId, entryNo } → the entry's ballot outcome (public, cached). */
export interface BallotCheckRequest {
  raceId: string;
  entryNo: string;
}
export interface BallotCheckAnswer {
  entryNo: string;
  itemCode: string;
  outcome: 'pending' | 'won' | 'waitList' | 'notWon';
  waitListPosition: number | null;
}

// ---------------------------------------------------------------------------------------------------------
// The personal centre's profile and password (user-center paths in contract/api.ts)
// ---------------------------------------------------------------------------------------------------------

/** profileSave: POST → the userInfo fields a runner may edit (spec §3 userInfo); answered with the whole userData. */
export interface ProfileSaveRequest {
  userName?: string;
  userGender?: 0 | 1 | 2;
  birthday?: string;
  userEmail?: string;
  userHeight?: number;
  userWeight?: number;
  educationLevel?: string;
  graduateInstitution?: string;
  major?: string;
  residentialProvinceCode?: string;
  residentialCityCode?: string;
  residentialDistrictCode?: string;
  residentialAddress?: string;
  /** Real-name fields: set once; afterwards only shown masked and refused when changed. */
  cardType?: CertificateType;
  cardNumber?: string;
}

/** passwordChange: POST → code 0; every token of the account is revoked except none (the runner logs in again). */
export interface PasswordChangeRequest {
  /** Encrypted like the login's password (contract/password-crypto.ts, encryptType '1'). */
  oldPassword: string;
  loginPassword: string;
  confirmPassword: string;
  encryptType: '1';
}
