/**
 * The bodies of the user-center calls (spec §3 "Forms", §7), one schema each, checked with the contract's
 * rules in the order the answers have always given them. Passwords are checked once decrypted
 * (common.ts `newPasswordFrom`, with the same contract rules).
 */
import { OS_ID } from '#contract/api';
import { CAPTCHA_TYPES, LOGIN_TYPES, type CaptchaType } from '#contract/enums';
import type { Refusal } from '#contract/messages';
import { checkEmail, checkPhone } from '#contract/rules';
import { firstRefusal, formBody, withRules } from '../../lib/body-schema.ts';

const SLIDER_FIELDS = ['nc_token', 'sig', 'sessionId', 'scene'] as const;

const LOGIN_TYPE_VALUES: readonly string[] = Object.values(LOGIN_TYPES);

export const loginBody = withRules(
  formBody('loginType', 'phone', 'captcha', 'password', 'encryptType', 'accountEmail', 'osId'),
  (body) =>
    firstRefusal(
      () => (body.osId !== '' && body.osId !== OS_ID ? { code: 'badOsId', params: { osId: OS_ID } } : null),
      () => (LOGIN_TYPE_VALUES.includes(body.loginType) ? null : { code: 'badLoginType' }),
      // Code login: a correct mobile number; password login: any account phone; e-mail login: a valid address.
      () => (body.loginType === LOGIN_TYPES.code ? checkPhone(body.phone, { strict: true }) : null),
      () => (body.loginType === LOGIN_TYPES.password ? checkPhone(body.phone) : null),
      () => (body.loginType === LOGIN_TYPES.email ? checkEmail(body.accountEmail, 'login') : null),
    ),
);

const captchaTypeIs = (sent: string, wanted: CaptchaType): Refusal | null =>
  sent === wanted ? null : { code: 'badCaptchaType', params: { captchaType: wanted } };

/** A passed slider check is required before any send. */
const sliderPassed = (body: Record<(typeof SLIDER_FIELDS)[number], string>): Refusal | null =>
  body.nc_token === '' || body.sig === '' || body.sessionId === '' ? { code: 'slideFirst' } : null;

const phoneCodeBody = (captchaType: CaptchaType) =>
  withRules(formBody('captchaType', ...SLIDER_FIELDS, 'userPhone', 'raceAppBusinessType', 'cloudType'), (body) =>
    firstRefusal(
      () => captchaTypeIs(body.captchaType, captchaType),
      () => checkPhone(body.userPhone, { strict: true }),
      () => sliderPassed(body),
    ),
  );

/** captchaType '2': a login code by SMS. */
export const sendPhoneCodeBody = phoneCodeBody(CAPTCHA_TYPES.loginSms);
/** captchaType '3': a reset code by SMS. */
export const sendResetPhoneCodeBody = phoneCodeBody(CAPTCHA_TYPES.resetSms);

/** captchaType '20': a registration or reset code by e-mail. */
export const sendEmailCodeBody = withRules(
  formBody('captchaType', ...SLIDER_FIELDS, 'accountEmail', 'emailSendType', 'raceAppBusinessType', 'cloudType'),
  (body) =>
    firstRefusal(
      () => captchaTypeIs(body.captchaType, CAPTCHA_TYPES.email),
      () => checkEmail(body.accountEmail, 'account'),
      () => sliderPassed(body),
    ),
);

/** GET ?email=: is this address registered? */
export const emailRegisteredQuery = withRules(formBody('email', 'osId'), (query) => checkEmail(query.email, 'account'));

export const registerBody = withRules(
  formBody(
    'accountEmail',
    'captcha',
    'loginPassword',
    'loginPasswordConfirm',
    'encryptType',
    'verificationToken',
    'machineCode',
  ),
  (body) => checkEmail(body.accountEmail, 'account'),
);

const RESET_FIELDS = ['verificationToken', 'captcha', 'encryptType', 'loginPassword', 'confirmPassword'] as const;

export const resetByEmailBody = withRules(formBody('accountEmail', ...RESET_FIELDS), (body) =>
  checkEmail(body.accountEmail, 'account'),
);

export const resetByPhoneBody = withRules(formBody('phone', 'enterprise', ...RESET_FIELDS), (body) =>
  checkPhone(body.phone, { strict: true }),
);
