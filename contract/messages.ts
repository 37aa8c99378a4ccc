/**
 * Every message a visitor reads from the server or from a form rule, by a stable code (spec §5, §8). The
 * text is the contract's English (the `msg` of an envelope; a few spec texts are Chinese and stay so);
 * `{{name}}` marks a parameter. The SPA shows `messages.<code>` of its locale files instead, with the same
 * parameters (i18next interpolation), so every code here has a zh and an en text there.
 */
export const MESSAGES = {
  // Spec §8 and the reference server.
  unboundRace: '未绑定赛事...',
  unpublishedConfig: 'A race is bound to this domain, but no site configuration is published for it',
  loginExpired: 'Your login has expired, please log in again',
  raceNotFound: 'Race not found',
  notFound: 'Not Found',
  routeNotFound: 'Not Found: {{method}} {{path}}',
  internal: 'Internal Server Error',
  databaseUnavailable: 'The service is busy, please try again shortly',
  badRequest: 'Bad Request',
  /** A request the server cannot take (a schema or framework refusal), in the framework's words. */
  invalidRequest: '{{detail}}',
  badDomainName: 'domainName must be a host name',
  siteConfigNameMissing: 'No published site configuration has this name',
  cloudConfigMissing: 'The cloud config index is not available',
  translationMissing: 'No translation file named {{name}}',
  badTranslationName: 'A translation file name is letters, digits, "_", "." or "-" and ends with .json',
  tooManyRequests: 'Too many requests, please try again later',
  tooManyRequestsWait: 'Too many requests, please try again in {{seconds}} seconds',
  codeResendWait: 'Please wait {{seconds}} seconds before requesting a new code',
  verificationFailed: 'Verification failed',
  codeError: 'Verification code error, please re-enter',
  codeTriesUsed: 'Too many wrong codes, please get a new code',
  accountMissing: 'Account information does not exist',
  badCredentials: 'Account or password is incorrect',
  badOsId: 'osId must be {{osId}}',
  badLoginType: 'loginType must be 0, 1 or 5',
  badCaptchaType: "captchaType must be '{{captchaType}}'",
  registrationMissing: 'Registration information does not exist',
  redemptionCodeMissing: 'The redemption code information does not exist',
  alreadyRegistered: 'The user has already registered, please do not submit again',
  noGroupRegistration: 'This event project does not support registering for multiple people',
  badQueryType: 'queryType must be 1 (registration status), 2 (third-party), 3 (web) or 5 (app registration info)',
  scoreMissing: 'Your score information was not found...',
  noData: '没有查询到数据哦',
  certificateInvalid: "This certificate does not match the organiser's records",
  lookupNeedsKey: 'Give a bib, or a name and a certificate number',
  uploadNotMultipart: 'Upload a file as multipart/form-data',
  uploadNoFile: 'No file in the upload',
  uploadQuota: 'Daily upload limit reached, please try again tomorrow',

  // Form rules (spec §5); the server answers the same codes for the same fields.
  phoneRequired: 'Please enter phone number',
  badPhone: 'Please enter a correct phone number',
  captchaRequired: 'Please enter verification code',
  passwordRequired: 'Please enter password',
  passwordRule: 'Please enter a 6-20 digit password combining digits and letters',
  confirmRequired: 'Please enter confirm password',
  passwordsDiffer: 'The two passwords do not match',
  emailRequired: 'Please enter email address',
  badEmail: 'Please enter a correct email address',
  badLoginEmail: 'Please enter a valid email address',
  emailRegistered: 'This email has been registered',
  agreementRequired: 'Please agree to the user agreement and privacy policy first',
  slideFirst: 'Please slide the slider to verify first',
  nameRequired: 'Please enter your name',
  nameInvalid: 'The name must be more than spaces and double quotes',
  textInvalid: 'Please enter more than spaces and double quotes',
  certificateRequired: 'Please enter your certificate number',
  idCardInvalid: 'Please enter a valid 18-character ID card number',
  passportInvalid: 'The passport number must be 5-20 letters or digits',
  hkMacaoPermitInvalid: 'Please enter a valid permit number: H or M followed by 8 or 10 digits',
  taiwanPermitInvalid: 'Please enter a valid permit number: 8 or 10 digits',
  bibRequired: 'Please enter your bib number',
  bibInvalid: 'The bib number must be letters or digits',
  badUrl: 'Please enter a correct URL',
  positiveInteger: 'Please enter a positive integer',
  badFileType: '文件格式不正确',
  fileTooBig: 'Please upload a file smaller than {{size}} {{unit}}',
  fieldRequired: 'This field is required',
  choiceRequired: 'Please make a choice',
  uploadRequired: 'Please upload a file',
  invalidValue: 'This value is not valid',
  badNumber: 'Please enter a number',
  numberTooSmall: 'The value must be at least {{min}}',
  numberTooLarge: 'The value must be at most {{max}}',
  textTooShort: 'Please enter at least {{count}} characters',
  textTooLong: 'Please enter at most {{count}} characters',
  tooFewChoices: 'Please choose at least {{count}}',
  tooManyChoices: 'Please choose at most {{count}}',
  badChoice: 'Please choose one of the options',
  badCertificateType: 'Please choose a certificate type',
  badCountry: 'Please choose a country or region from the list',
  badDate: 'Please enter a date as YYYY-MM-DD',
  dateTooEarly: 'The date must be on or after {{date}}',
  dateTooLate: 'The date must be on or before {{date}}',
  badClothingSize: 'Please choose a size from the size chart',
  sizeSoldOut: 'This size is sold out, please choose another',
  badPastEvent: 'Please choose from your own results',
  scoreClaimRequired: 'Please choose or enter a qualifying result',
  scoreRaceRequired: 'Please enter the race name',
  scoreItemRequired: 'Please enter the race item',
  badChipTime: 'Please enter the chip time as H:MM:SS',
  badRaceDate: 'Please enter the race date as YYYY-MM-DD',
  certificateImageRequired: 'Please upload the result certificate',
  badUpload: 'The uploaded file is not valid, please upload it again',
  readOnlyField: 'This field is set by the organiser and cannot be submitted',
  valueRepeated: 'This value must differ from the field it is compared with',
  emergencyNameSame: "The emergency contact's name must differ from the applicant's",
  emergencyPhoneSame: "The emergency contact's phone must differ from the applicant's",
  registrationFormMissing: 'No registration form is published for this race and channel',
  tooManyFiles: 'The files exceed the limit of {{count}}',
  imageSizeMismatch:
    'The image size does not meet the standard: {{width}} × {{height}} px required, {{actualWidth}} × {{actualHeight}} px given',
  regionIncomplete: 'Please select a province, a city and a district',
  regionUnknown: 'Please choose the province, city and district from the list',

  // Registration screens (issue 13 §4: /direct, /post, /upload).
  directNotOpen: 'The application period has not started yet',
  directEnded: 'Application ended',
  directSubmitted: 'Your application has been submitted and is awaiting review',
  directApproved: 'Your application has been approved and can no longer be changed',
  directCertificateUsed: 'An application with this certificate number already exists for this race',
  mailingClosed: 'Race-pack mailing is not offered for this race',
  mailingEnded: 'The deadline for race-pack mailing has passed',
  addressRequired: 'Please enter the detailed address',
  documentsClosed: 'Document upload is not offered for this race',
  documentsEnded: 'The document upload deadline has passed',
  // Sign-up (issue 14 §1): the item's age limits on race day (contract/entry.ts ageProblem).
  entryTooYoung: 'Participants of this item must be at least {{min}} years old on race day',
  entryTooOld: 'Participants of this item must be at most {{max}} years old on race day',
  // Sign-up submission (issue 14 §2): window, items, channels, places.
  entryNotOpen: 'Registration has not opened yet',
  entryClosed: 'Registration is closed',
  // The organiser closed an item, a channel or an item's channel (contract/season.ts entryRefusalFor).
  entryChannelClosed: 'Registration for this item by this channel is closed',
  entryCodeRevoked: 'This code has been revoked by the organiser',
  entryFull: 'No places are left for this item',
  entryItemMissing: 'This race has no such item open for registration',
  entryItemMismatch: 'The item must be the one chosen for this registration',
  entryTooManyPeople: 'At most {{max}} people can be registered in one submission',
  entryAccountLimit: 'One account may register at most {{max}} people for this event, yourself included',
  entryFormMissing: 'This race has no registration form for sign-up',
  entryCodeNotYours: 'This code is issued to another person',
  entryCodeItem: 'This code opens another item',
  charityMissing: 'This item has no charity places',
  teamMissing: 'The team does not exist',
  teamFull: 'This team is full',
  teamNotAllowed: 'This item does not take teams',
  directNotApproved: 'Only runners whose direct-pass application was approved may use this channel',
  // The ballot (issue 14 §3).
  ballotMissing: 'No ballot of this race and item has been committed',
  ballotEntryMissing: 'This entry number is not in a ballot of this race',

  // The personal centre (issue 14 §5): profile and password change.
  profileFieldUnknown: 'This field cannot be saved in the profile: {{field}}',
  cardLocked: 'The real-name certificate is already set and cannot be changed',
  oldPasswordWrong: 'The current password is incorrect',
  oldPasswordRequired: 'Please enter the current password',
  newPasswordSame: 'The new password must differ from the current one',

  // Payment of sign-up orders (issue 14 §4).
  orderNotFound: 'Order not found',
  orderNotPayable: 'This order is not awaiting payment',
  orderPayExpired: 'The payment deadline of this order has passed',
  payMethodUnavailable: 'This way of paying is not available, please choose another',
  payProviderUnreachable: 'The payment service did not answer, please try again in a moment',
  orderBallotDrawn:
    'The ballot of this entry was drawn before it was paid, so it can no longer be paid; any payment that still arrives is refunded in full',

  // After entry (issue 15): the commitment letter.
  letterClosed: 'This race has no commitment letter',
  letterEnded: 'Signing the commitment letter closed at {{deadline}}',
  letterNotWon: 'Only a registration that holds a place can sign the commitment letter',
  letterChanged: 'The commitment letter has changed; please read it again and sign',
  letterStatementsMissing: 'Please tick every statement of the commitment letter',
  letterNameMismatch: 'Please sign with the name of the registration',
  cosignerNameRequired: "Please enter the co-signer's name",
  cosignerNameInvalid: "The co-signer's name must be more than spaces and double quotes",
  cosignerRelationInvalid: 'Please enter the relation to the runner (1-20 characters)',
  cosignerSameAsRunner: 'The co-signer must be someone other than the runner',

  // After entry (issue 15): saved participants.
  participantMissing: 'This saved participant does not exist',
  participantDuplicate: 'A saved participant with this certificate number already exists',
  participantLimit: 'At most {{max}} participants can be saved',

  // After entry (issue 15): pack pick-up appointments.
  pickupClosed: 'This race has no pack pick-up appointments',
  pickupEnded: 'Pick-up booking has closed',
  pickupNotWon: 'Only a registration that holds a place can book pack pick-up',
  pickupNeedsPayment: 'Pay the registration fee before booking pack pick-up',
  pickupNeedsLetter: 'Sign the commitment letter before booking pack pick-up',
  pickupSlotMissing: 'This pick-up time slot does not exist',
  pickupSlotFull: 'This pick-up time slot is full',
  pickupNotBooked: 'This registration has no pick-up booking',
  pickupCollected: 'This race pack was already collected at {{at}}',
  pickupPassMissing: 'No booking has this pick-up pass code',
  staffKeyInvalid: 'The staff key is wrong or has been revoked',
  pickupOutsideSlot: 'This pass is booked for {{slot}}; it is now {{now}}',
  pickupMailingChosen: 'You chose to have your race pack mailed: switch to on-site pick-up first to book a slot',
  mailingPickupBooked: 'You booked pack pick-up for {{slot}}: cancel that booking first to have your pack mailed',

  // After entry (issue 15): refunds and deferral.
  refundClosed: 'This race does not accept refund requests',
  refundEnded: 'Refund requests closed at {{until}}',
  refundNotEligible: 'Only a paid registration that holds a place can be refunded',
  refundInReview: 'A request of this registration is already under review',
  deferralClosed: 'This race does not offer deferral to the next race',
  deferralEnded: 'Deferral requests closed at {{until}}',
  deferralNotEligible: 'Charity and invitation-code places cannot be deferred',
  deferralUsed: 'This registration has already been deferred once',

  // After entry (issue 15): race-pack mailing.
  parcelShipped: 'Your race pack has been shipped; the mailing details can no longer be changed',
} as const;

export type MessageCode = keyof typeof MESSAGES;

export type MessageParams = Record<string, string | number>;

/** A refusal: the code of the message to show and its parameters. */
export interface Refusal {
  code: MessageCode;
  params?: MessageParams;
}

export const isMessageCode = (code: unknown): code is MessageCode =>
  typeof code === 'string' && Object.hasOwn(MESSAGES, code);

/** The `{{name}}` parameters a message text names. */
export function messageParamNames(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!);
}

/** The contract's text of a message with its parameters filled in (a missing one stays as `{{name}}`). */
export function messageText(code: MessageCode, params?: MessageParams): string {
  return fillMessage(MESSAGES[code], params);
}

/** A message text with its `{{name}}` parameters filled in (a missing one stays as `{{name}}`). */
export function fillMessage(text: string, params?: MessageParams): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    params && Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
