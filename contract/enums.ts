/**
 * The enumerations of the contract (spec §3 "Other" and "Enumerations", §4, §9). A label is the i18n key of
 * its text in the SPA's locale files, never the text itself.
 */

/** Gender codes: 1 male, 2 female, 0 unknown. */
export const GENDERS = { unknown: 0, male: 1, female: 2 } as const;
export type Gender = (typeof GENDERS)[keyof typeof GENDERS];
export const GENDER_LABELS = {
  0: 'enums.genders.0',
  1: 'enums.genders.1',
  2: 'enums.genders.2',
} as const satisfies Record<Gender, string>;
/** The label of a gender code; any other value reads as unknown. */
export const genderLabel = (gender: unknown) => GENDER_LABELS[gender === 1 || gender === 2 ? gender : 0];

/** Certificate types: 1 ID card (second generation), 2 passport, 3 HK/Macao permit, 4 Taiwan permit. */
export const CERTIFICATE_TYPES = { idCard: 1, passport: 2, hkMacaoPermit: 3, taiwanPermit: 4 } as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[keyof typeof CERTIFICATE_TYPES];
/** The types in the order a picker lists them. */
export const CERTIFICATE_TYPE_LIST: readonly CertificateType[] = [1, 2, 3, 4];
export const CERTIFICATE_TYPE_LABELS = {
  1: 'enums.certificateTypes.1',
  2: 'enums.certificateTypes.2',
  3: 'enums.certificateTypes.3',
  4: 'enums.certificateTypes.4',
} as const satisfies Record<CertificateType, string>;
export const isCertificateType = (value: unknown): value is CertificateType =>
  (CERTIFICATE_TYPE_LIST as readonly unknown[]).includes(value);

/** Login types (spec §4, §9): 1 verification code, 0 password, 5 e-mail. Sent as strings (form-encoded). */
export const LOGIN_TYPES = { password: '0', code: '1', email: '5' } as const;
export type LoginType = (typeof LOGIN_TYPES)[keyof typeof LOGIN_TYPES];

/** Captcha types of the code sends (spec §7, §9): '2' login SMS, '3' reset SMS, '20' e-mail. */
export const CAPTCHA_TYPES = { loginSms: '2', resetSms: '3', email: '20' } as const;
export type CaptchaType = (typeof CAPTCHA_TYPES)[keyof typeof CAPTCHA_TYPES];

/** e-mail send types of the e-mail code send: 1 registration, 2 password reset. */
export const EMAIL_SEND_TYPES = { register: '1', reset: '2' } as const;

/**
 * Query types (spec §3 Enumerations): 1 registration status, 2 third-party registration info, 3 web
 * registration info, 4 user score info, 5 app registration info, 6 user certificate image.
 */
export const QUERY_TYPES = {
  registrationStatus: 1,
  thirdParty: 2,
  web: 3,
  score: 4,
  app: 5,
  certificateImage: 6,
} as const;

/** The query types of the registration lookup: the status, or the registration info of channel 2, 3 or 5. */
export const REGISTRATION_QUERY_TYPES = [1, 2, 3, 5] as const;
export type RegistrationQueryType = (typeof REGISTRATION_QUERY_TYPES)[number];
export const REGISTRATION_QUERY_TYPE_LABELS: Record<RegistrationQueryType, string> = {
  1: 'search.registration.queryTypes.1',
  2: 'search.registration.queryTypes.2',
  3: 'search.registration.queryTypes.3',
  5: 'search.registration.queryTypes.5',
};

/** Registration channels; their codes are the query types of their registration info. */
export const REGISTRATION_CHANNELS = { thirdParty: 2, web: 3, app: 5 } as const;
export type RegistrationChannel = (typeof REGISTRATION_CHANNELS)[keyof typeof REGISTRATION_CHANNELS];
export const CHANNEL_KEYS: Record<RegistrationChannel, 'thirdParty' | 'web' | 'app'> = {
  2: 'thirdParty',
  3: 'web',
  5: 'app',
};
export const CHANNEL_LABELS: Record<RegistrationChannel, string> = {
  2: 'search.registration.channels.thirdParty',
  3: 'search.registration.channels.web',
  5: 'search.registration.channels.app',
};

/** Registration statuses (spec §4); the code is the index. */
export const REGISTRATION_STATUS_KEYS = [
  'submitted',
  'won',
  'notWon',
  'cancelled',
  'refundReview',
  'refunded',
] as const;
export type RegistrationStatusKey = (typeof REGISTRATION_STATUS_KEYS)[number];
export const registrationStatusLabel = (status: number) =>
  `enums.registrationStatuses.${(status in REGISTRATION_STATUS_KEYS ? status : 0) as 0 | 1 | 2 | 3 | 4 | 5}` as const;

/**
 * Order statuses (spec §4): submitted, awaiting payment, soon cancelled automatically when unpaid, paid; and
 * the two ends of an order the spec leaves out: cancelled (unpaid at its deadline) and refunded. The spec
 * names no numbers; the code is the index (contract/entry.ts ORDER_STATUSES).
 */
export const ORDER_STATUS_KEYS = [
  'submitted',
  'awaitingPayment',
  'cancelSoon',
  'paid',
  'cancelled',
  'refunded',
] as const;
export type OrderStatusKey = (typeof ORDER_STATUS_KEYS)[number];
export const orderStatusLabel = (status: number) =>
  `enums.orderStatuses.${ORDER_STATUS_KEYS[status] ?? ORDER_STATUS_KEYS[0]}`;
