import type { ConsoleMessageCode } from '#contract/console-messages';
import type { MessageCode, MessageParams } from '#contract/messages';

/**
 * Every path of the API contract (spec §7), shared by the SPA and the reference server so that the two
 * can never drift apart. Paths the spec hides are fixed here; an organiser's own API implements the same.
 */
export const API_PATHS = {
  /** GET ?domainName= → { domainName, fileMd5, uri }; `uri` is then fetched as the site configuration. */
  siteConfigLookup: '/website-centre/api/website/config',
  /** GET ?domainName= → { raceId, domainName }, or data null when no race is bound to the domain. */
  raceByDomain: '/website-centre/api/website/race-binding',
  /** POST { raceId } → race base information (imgDetail etc.). */
  raceBaseInfo: '/website-centre/api/race/base-info',
  /** POST {} with the token header → code 0 when the token is valid. */
  commonInfo: '/changzheng-basic-center-api/api/common/getCommonInfo',
  /** GET ?t= → the cloud config index (storage provider and hosts). */
  cloudConfigIndex: '/config/cz/',
  /** GET ?t= → a translation file: map key → { en, zh }. */
  translationsPrefix: '/config/i18n/',
  /** GET → every country of the ISO list (dictCode 'country'). */
  countryList: '/changzheng-basic-center-api/api/iso/country/listAll',
  /** Published site-configuration documents are served below this prefix, by MD5. */
  siteConfigFilesPrefix: '/website-centre/files/site-config/',
  /** POST form-encoded: loginType 1 (phone + captcha), 0 (phone + password), 5 (accountEmail + password). */
  login: '/user-center/login',
  /** POST with the token header: revokes that token. */
  logout: '/user-center/logout',
  /** GET → a slider challenge { sessionId, scene, trackWidth, pieceWidth, targetX, tolerance }; POST …/verify { sessionId, x, trail } → { token, sig, sessionId, scene }. */
  captchaChallenge: '/user-center/api/captcha/slider',
  captchaVerify: '/user-center/api/captcha/slider/verify',
  /** POST JSON captchaType '2': login code by SMS. */
  sendPhoneCode: '/user-center/api/code/phone',
  /** POST JSON captchaType '20': email code (registration or reset) → { captchaCode, verificationToken }. */
  sendEmailCode: '/user-center/api/code/email',
  /** POST JSON captchaType '3': password-reset code by SMS → { verificationToken }. */
  sendResetPhoneCode: '/user-center/api/code/reset-phone',
  /** GET ?email=&osId= → truthy data when the email is registered. */
  emailRegistered: '/user-center/api/account/email-registered',
  /** POST JSON: email registration. */
  register: '/user-center/api/account/register',
  /** POST JSON: password reset by email / by phone. */
  resetByEmail: '/user-center/api/account/reset-by-email',
  resetByPhone: '/user-center/api/account/reset-by-phone',
  /** Development only: the outbox of delivered codes (HTML page and JSON). */
  devOutbox: '/dev/outbox',
  /** Runner lookups (issue 5). Queries travel in POST bodies, never ID numbers in URLs. */
  searchRegistration: '/race-center/api/search/registration',
  searchScore: '/race-center/api/search/score',
  searchPb: '/race-center/api/search/pb',
  searchHistory: '/race-center/api/search/history',
  searchPhotos: '/race-center/api/search/photos',
  /**
   * GET ?raceId= → the races of that race's organiser that have results, latest first:
   * [{ raceId, raceName, raceNameEn, raceDate, results }] (the score page's race picker).
   */
  racesWithResults: '/race-center/api/races/with-results',
  /** GET ?id=&sig= → the certificate's facts when the signature matches (verification page). */
  certificateVerify: '/race-center/api/certificate/verify',
  /** POST { raceId, item?, language? } → .xls file (headers in that language, contract/score-export.ts), or a JSON envelope explaining why not. */
  exportScores: '/race-center/api/export/scores',
  /** User-centre image upload, and the two base uploads. */
  uploadImageUserCentre: '/pangu-uc/uc/api/user/upload/image',
  uploadImage: '/api/base/uploadImage',
  uploadFile: '/api/base/uploadFile',
  /**
   * GET ?raceId=&channel= (default 'public') → the published registration form of that race and entry channel:
   * { raceId, channel, version, md5, publishedAt, form } (form: contract/registration-form.ts), cached 60 s;
   * code 404 registrationFormMissing when none is published.
   */
  registrationForm: '/race-center/api/registration/form',
  /**
   * Registration screens (issue 13 §4; request and answer types in contract/registration-screens.ts). Each
   * needs login (token header) except sizeStock. GET ?raceId= → DirectMineAnswer.
   */
  directMine: '/race-center/api/direct/mine',
  /** POST DirectSaveRequest → DirectApplication; field refusals: code 400, data FieldRefusals. */
  directSave: '/race-center/api/direct/save',
  /** POST MyResultsRequest → OwnResult[] (rate-limited like the lookups). */
  myResults: '/race-center/api/registration/my-results',
  /** GET ?raceId=&channel=&field= → { [sizeCode]: left } (public, cached 10 s). */
  sizeStock: '/race-center/api/registration/sizes',
  /** POST ConfirmSearchRequest (with a passed slider check) → ConfirmRegistration. */
  confirmSearch: '/race-center/api/registration/confirm/search',
  /** POST ConfirmRequest → ConfirmRegistration with confirmedAt. */
  confirm: '/race-center/api/registration/confirm',
  /** GET ?raceId= → MailingAnswer. */
  mailingGet: '/race-center/api/registration/mailing',
  /** POST MailingSaveRequest → MailingChoice. */
  mailingSave: '/race-center/api/registration/mailing',
  /** GET ?raceId= → DocumentsAnswer. */
  documentsGet: '/race-center/api/registration/documents',
  /** POST DocumentsSaveRequest → { files, updatedAt }. */
  documentsSave: '/race-center/api/registration/documents',
  /**
   * Sign-up (issue 14; request and answer types in contract/entry.ts, the draw in contract/ballot.ts).
   * GET ?raceId= → EntryInfo (public, cached a few seconds).
   */
  entryInfo: '/race-center/api/entry/info',
  /** POST CodeCheckRequest (login) → CodeCheckAnswer; redemptionCodeMissing when unknown, used up or expired. */
  entryCodeCheck: '/race-center/api/entry/code/check',
  /** POST TeamCreateRequest (login) → TeamInfo. GET ?raceId=&teamCode= (login) → TeamInfo. */
  teamCreate: '/race-center/api/entry/team/create',
  teamGet: '/race-center/api/entry/team',
  /** POST EntrySubmitRequest (login) → EntrySubmitAnswer; field refusals: code 400, data FieldRefusals (per participant: `0.name`). */
  entrySubmit: '/race-center/api/entry/submit',
  /** GET (login) → MyEntriesAnswer: the personal centre's registrations and orders. */
  myEntries: '/race-center/api/entry/mine',
  /** GET ?orderNo= (login) → OrderView. */
  orderGet: '/race-center/api/order',
  /** POST OrderPayRequest (login) → OrderPayAnswer: the provider's cashier page. */
  orderPay: '/race-center/api/order/pay',
  /** POST the provider's signed asynchronous notification (no login; verified by signature, idempotent). */
  payNotifyPrefix: '/pay/notify/',
  /**
   * POST `<prefix><provider>?token=<SMS_RECEIPT_TOKEN>`: an SMS provider's delivery receipts (no login; the
   * secret token in the URL set in its console, server/src/routes/sms/receipt.ts).
   */
  smsReceiptPrefix: '/api/sms/receipt/',
  /**
   * GET ?orderNo=&site=&paid=: where a provider's cashier sends the runner back (a URL without '#', which not
   * every provider keeps), answered by a redirect to the order page of the site they paid from.
   */
  payReturn: '/pay/return',
  /** The built-in sandbox provider's cashier page (GET ?paymentId=, HTML) and its decision (POST form). */
  sandboxCashier: '/pay/sandbox/cashier',
  sandboxDecide: '/pay/sandbox/decide',
  /** GET ?raceId=&itemCode=&round= → BallotPublic (public, cached until the ballot changes). */
  ballotPublic: '/race-center/api/ballot',
  /** GET ?raceId= → BallotSummary & { itemCode }[] of every ballot of the race. */
  ballotList: '/race-center/api/ballot/list',
  /** POST BallotCheckRequest → BallotCheckAnswer ("am I in?", public, answered from a cache). */
  ballotCheck: '/race-center/api/ballot/check',
  /** GET (login) → the userData of the token; POST ProfileSaveRequest → the new userData. */
  profile: '/user-center/api/account/profile',
  /** POST PasswordChangeRequest (login) → code 0; every token of the account is revoked. */
  passwordChange: '/user-center/api/account/password',
  /**
   * After entry (issue 15; request and answer types in contract/after-entry.ts). Every call needs login except
   * pickupCheckIn (the staff key header).
   * GET ?raceId= → LetterAnswer; POST LetterSignRequest → LetterEntry.
   */
  letterGet: '/race-center/api/services/letter',
  letterSign: '/race-center/api/services/letter/sign',
  /** GET ?raceId= → PickupAnswer; POST PickupBookRequest → PickupBookingView; POST PickupCancelRequest → null. */
  pickupGet: '/race-center/api/services/pickup',
  pickupBook: '/race-center/api/services/pickup/book',
  pickupCancel: '/race-center/api/services/pickup/cancel',
  /** POST PickupCheckInRequest with the staffKey header → PickupCheckInAnswer (collected once). */
  pickupCheckIn: '/race-center/api/services/pickup/check-in',
  /** POST PickupStaffKeyRequest with the staffKey header → PickupStaffKeyAnswer: the check-in screen checks its key first. */
  pickupStaffKey: '/race-center/api/services/pickup/staff-key',
  /** GET → SavedParticipant[]; POST ParticipantSaveRequest → SavedParticipant; POST ParticipantDeleteRequest → null. */
  participantList: '/user-center/api/participants',
  participantSave: '/user-center/api/participants/save',
  participantDelete: '/user-center/api/participants/delete',
  /** GET ?raceId= → RefundAnswer; POST RefundRequestBody → RefundRequestView. */
  refundGet: '/race-center/api/services/refund',
  refundRequest: '/race-center/api/services/refund/request',
  /** GET ?lang=zh|en (login) → MyMessage[] (contract/runner-messages.ts): the messages sent to the caller. */
  myMessages: '/user-center/api/messages',
  /** Uploaded and demo files are served below this prefix (the default file host of the bundled server). */
  filesPrefix: '/files/',
} as const;

/** The contract's terminal type and OS id (spec §9), sent as headers on every call. */
export const TERMINAL_TYPE = '3';
export const OS_ID = '1002';
export const CONTRACT_HEADERS = { terminalType: TERMINAL_TYPE, osId: OS_ID } as const;

/** Path prefixes that belong to the API (used by the dev proxy and by the server's SPA fallback). */
export const API_PREFIXES = [
  '/website-centre',
  '/race-center',
  '/changzheng-basic-center-api',
  '/config',
  '/user-center',
  '/pangu-uc',
  '/api',
  '/files',
  '/dev',
  '/pay',
] as const;

export const translationsPath = (name: string) => `${API_PATHS.translationsPrefix}${encodeURIComponent(name)}`;

/**
 * The response envelope (spec §7): `{ code, msg, data }`, code 0 is success; a failure uses the HTTP-like
 * status as its code. A refusal of the reference server also names its message by code (`msgCode`, with
 * `msgParams`), so that the SPA can show it in the visitor's language; `msg` stays the English text for
 * clients that know only it (an organiser's own API may send msg alone).
 */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  /** A console call's refusal names one of contract/console-messages.ts. */
  msgCode?: MessageCode | ConsoleMessageCode;
  msgParams?: MessageParams;
}
