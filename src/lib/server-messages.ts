/**
 * The dictionary of server messages (spec §8 "Dictionary messages", and the reference server's other
 * messages meant for the visitor): the contract sends them in English, whatever the visitor's language. An
 * error answer carrying one is shown in the visitor's language; any other msg is shown as the server sent it.
 */
import i18n from 'i18next';
import type enCommon from '@/locales/en/common.json';

type ServerMessageKey = keyof (typeof enCommon)['errors']['server'];

/** Server msg → key under `errors.server` (common.json, both languages; the English text is the msg). */
export const SERVER_MESSAGES: Readonly<Record<string, ServerMessageKey>> = {
  'Verification failed': 'verificationFailed',
  'Verification code error, please re-enter': 'codeError',
  'Too many wrong codes, please get a new code': 'codeTriesUsed',
  'Your login has expired, please log in again': 'loginExpired',
  'Account information does not exist': 'accountMissing',
  'Registration information does not exist': 'registrationMissing',
  'The redemption code information does not exist': 'redemptionCodeMissing',
  'Your score information was not found...': 'scoreMissing',
  'The user has already registered, please do not submit again': 'alreadyRegistered',
  'This event project does not support registering for multiple people': 'noGroupRegistration',
  'Account or password is incorrect': 'badCredentials',
  'Too many requests, please try again later': 'tooManyRequests',
  'Please enter a 6-20 digit password combining digits and letters': 'passwordRule',
  'The two passwords do not match': 'passwordsDiffer',
  'This email has been registered': 'emailRegistered',
  'Please enter a correct phone number': 'badPhone',
  'Please enter phone number': 'phoneRequired',
  'Please enter a correct email address': 'badEmail',
  'Please enter a valid email address': 'badLoginEmail',
  'Please slide the slider to verify first': 'slideFirst',
  'Please upload a file smaller than 10 MB': 'fileTooBig',
  'Daily upload limit reached, please try again tomorrow': 'uploadQuota',
  "This certificate does not match the organiser's records": 'certificateInvalid',
  'Give a bib, or a name and a certificate number': 'lookupNeedsKey',
  'Race not found': 'raceNotFound',
  // The export's empty answer (spec §7 Excel export) is sent in Chinese.
  没有查询到数据哦: 'noData',
};

/** A server msg in the visitor's language when the dictionary knows it; otherwise as it is. */
export function localizeServerMessage(msg: string): string {
  const key = Object.hasOwn(SERVER_MESSAGES, msg) ? SERVER_MESSAGES[msg] : undefined;
  return key === undefined ? msg : i18n.t(`errors.server.${key}`);
}
