import { checkCaptcha, checkConfirm, checkEmail, checkPassword, checkPhone } from './validation';
import { agreementHref } from './agreement-links';
import { testConfig } from '@/testing/fixtures/site';

describe('login drawer validation rules (spec §5)', () => {
  it('requires a phone; the reset flow wants 11 digits starting 1, second digit 3-9', () => {
    expect(checkPhone('')).toBe('auth.validation.phoneRequired');
    expect(checkPhone('  ')).toBe('auth.validation.phoneRequired');
    expect(checkPhone('12345')).toBeNull();
    expect(checkPhone('12800138000', { strict: true })).toBe('auth.validation.phoneInvalid');
    expect(checkPhone('1380013800', { strict: true })).toBe('auth.validation.phoneInvalid');
    expect(checkPhone('23800138000', { strict: true })).toBe('auth.validation.phoneInvalid');
    expect(checkPhone('13800138000', { strict: true })).toBeNull();
    expect(checkPhone('19912345678', { strict: true })).toBeNull();
  });

  it('requires a non-blank code', () => {
    expect(checkCaptcha(undefined)).toBe('auth.validation.captchaRequired');
    expect(checkCaptcha('   ')).toBe('auth.validation.captchaRequired');
    expect(checkCaptcha('123456')).toBeNull();
  });

  it('wants a 6-20 character password of letters and digits, both present', () => {
    expect(checkPassword('')).toBe('auth.validation.passwordRequired');
    for (const bad of ['abc12', 'abcdefgh', '12345678', 'abc123!', 'a1'.repeat(10) + 'x']) {
      expect(checkPassword(bad)).toBe('auth.validation.passwordRule');
    }
    expect(checkPassword('abc123')).toBeNull();
    expect(checkPassword('Runner2027')).toBeNull();
    expect(checkPassword('a1'.repeat(10))).toBeNull();
  });

  it('says "valid" email on login and "correct" email on registration and reset', () => {
    expect(checkEmail('', 'login')).toBe('auth.validation.emailRequired');
    expect(checkEmail('runner@', 'login')).toBe('auth.validation.emailLogin');
    expect(checkEmail('runner@example', 'account')).toBe('auth.validation.emailCorrect');
    expect(checkEmail(' runner@example.com ', 'account')).toBeNull();
  });

  it('requires the confirm password and wants it equal', () => {
    expect(checkConfirm('', 'abc123')).toBe('auth.validation.confirmRequired');
    expect(checkConfirm('abc124', 'abc123')).toBe('auth.validation.confirmMismatch');
    expect(checkConfirm('abc123', 'abc123')).toBeNull();
  });
});

describe('agreement links', () => {
  it('uses a route named like the document, else the placeholder under /about-us', () => {
    const config = testConfig();
    expect(agreementHref(config, 'registrationAgreement')).toBe('#/about-us/registration-agreement');
    config.remoteAsyncRoutes![0].children!.push({ path: 'privacy', name: 'privacyPolicy', component: 'DocumentPage' });
    expect(agreementHref(config, 'privacyPolicy')).toBe('#/privacy');
  });
});
