import { CERTIFICATE_TYPES } from '#contract/enums';
import { MESSAGES, messageParamNames, messageText } from '#contract/messages';
import {
  checkBib,
  checkCaptcha,
  checkCertificateNumber,
  checkConfirm,
  checkEmail,
  checkImageSize,
  checkName,
  checkPassword,
  checkPhone,
  checkPositiveInteger,
  checkRequiredText,
  checkUploadCount,
  checkUploadExtension,
  checkUploadSize,
  checkUrl,
  isValidIdCard,
  normalizeEmail,
  normalizeName,
} from '#contract/rules';

const code = (refusal: { code: string } | null) => refusal?.code ?? null;

describe('login drawer rules (spec §5)', () => {
  it('requires a phone; the strict rule wants 11 digits starting 1, second digit 3-9', () => {
    expect(code(checkPhone(''))).toBe('phoneRequired');
    expect(code(checkPhone('  '))).toBe('phoneRequired');
    expect(checkPhone('12345')).toBeNull();
    expect(code(checkPhone('12800138000', { strict: true }))).toBe('badPhone');
    expect(code(checkPhone('1380013800', { strict: true }))).toBe('badPhone');
    expect(code(checkPhone('23800138000', { strict: true }))).toBe('badPhone');
    expect(checkPhone('13800138000', { strict: true })).toBeNull();
    expect(checkPhone('19912345678', { strict: true })).toBeNull();
  });

  it('requires a non-blank code', () => {
    expect(code(checkCaptcha(undefined))).toBe('captchaRequired');
    expect(code(checkCaptcha('   '))).toBe('captchaRequired');
    expect(checkCaptcha('123456')).toBeNull();
  });

  it('wants a 6-20 character password of letters and digits, both present', () => {
    expect(code(checkPassword(''))).toBe('passwordRequired');
    for (const bad of ['abc12', 'abcdefgh', '12345678', 'abc123!', 'a1'.repeat(10) + 'x']) {
      expect(code(checkPassword(bad))).toBe('passwordRule');
    }
    expect(checkPassword('abc123')).toBeNull();
    expect(checkPassword('Runner2027')).toBeNull();
    expect(checkPassword('a1'.repeat(10))).toBeNull();
  });

  it('says "valid" email on login and "correct" email on registration and reset', () => {
    expect(code(checkEmail('', 'login'))).toBe('emailRequired');
    expect(code(checkEmail('runner@', 'login'))).toBe('badLoginEmail');
    expect(code(checkEmail('runner@example', 'account'))).toBe('badEmail');
    expect(checkEmail(' runner@example.com ', 'account')).toBeNull();
  });

  it('refuses e-mail domains with an empty label (the server used to accept them)', () => {
    for (const bad of ['a@b..com', 'a@b.c.', 'a@.b.com', 'a b@c.com', 'a@b@c.com', `${'a'.repeat(250)}@b.com`]) {
      expect(normalizeEmail(bad), bad).toBeNull();
      expect(code(checkEmail(bad, 'account')), bad).toBe('badEmail');
    }
    expect(normalizeEmail(' Runner@Example.COM ')).toBe('runner@example.com');
  });

  it('requires the confirm password and wants it equal', () => {
    expect(code(checkConfirm('', 'abc123'))).toBe('confirmRequired');
    expect(code(checkConfirm('abc124', 'abc123'))).toBe('passwordsDiffer');
    expect(checkConfirm('abc123', 'abc123')).toBeNull();
  });
});

describe('search field rules', () => {
  it('accepts an ID card number only with the GB 11643 check character', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('11010519491231002x')).toBe(true);
    expect(isValidIdCard('110105194912310021')).toBe(false);
    expect(isValidIdCard('1101051949123100')).toBe(false);
  });

  it('checks each certificate type by its own format', () => {
    const { idCard, passport, hkMacaoPermit, taiwanPermit } = CERTIFICATE_TYPES;
    expect(code(checkCertificateNumber(idCard, ''))).toBe('certificateRequired');
    expect(code(checkCertificateNumber(idCard, '110105194912310021'))).toBe('idCardInvalid');
    expect(checkCertificateNumber(passport, 'E1234567')).toBeNull();
    expect(code(checkCertificateNumber(passport, 'E12'))).toBe('passportInvalid');
    expect(checkCertificateNumber(hkMacaoPermit, 'H87654321')).toBeNull();
    expect(checkCertificateNumber(hkMacaoPermit, 'm1234567890')).toBeNull();
    expect(code(checkCertificateNumber(hkMacaoPermit, 'AB-12345'))).toBe('hkMacaoPermitInvalid');
    expect(code(checkCertificateNumber(hkMacaoPermit, 'E12345678'))).toBe('hkMacaoPermitInvalid');
    expect(checkCertificateNumber(taiwanPermit, '12345678')).toBeNull();
    expect(checkCertificateNumber(taiwanPermit, 'T12345678')).toBeNull();
    expect(checkCertificateNumber(taiwanPermit, '1234567890(B)')).toBeNull();
    expect(code(checkCertificateNumber(taiwanPermit, '1234567'))).toBe('taiwanPermitInvalid');
  });

  it('takes names with inner spaces (as on a passport), refuses only spaces and double quotes; bibs are positive alphanumerics', () => {
    expect(checkName('张三')).toBeNull();
    expect(checkName('ZHANG Wei')).toBeNull();
    expect(checkName(' John  Smith ')).toBeNull();
    expect(checkName('a"b')).toBeNull();
    expect(code(checkName('  '))).toBe('nameRequired');
    expect(code(checkName(' "" '))).toBe('nameInvalid');
    expect(code(checkRequiredText('" "', { required: 'fieldRequired', invalid: 'textInvalid' }))).toBe('textInvalid');
    expect(normalizeName('  ZHANG \t Wei  ')).toBe('ZHANG Wei');
    expect(checkBib(' A1023 ')).toBeNull();
    expect(code(checkBib('000'))).toBe('bibInvalid');
    expect(code(checkBib('12-3'))).toBe('bibInvalid');
    expect(code(checkBib(''))).toBe('bibRequired');
  });
});

describe('format and upload rules', () => {
  it('takes http, https and protocol-relative links with a host as URLs', () => {
    for (const good of ['https://example.com', 'http://example.com/a?b=1', '//cdn.example.com/x.png', '']) {
      expect(checkUrl(good), good).toBeNull();
    }
    for (const bad of ['example.com', 'ftp://example.com', 'https://', 'javascript:alert(1)', 'https://exa mple.com']) {
      expect(code(checkUrl(bad)), bad).toBe('badUrl');
    }
  });

  it('wants a positive integer without a leading zero', () => {
    for (const good of ['1', '10', 250, '']) expect(checkPositiveInteger(good)).toBeNull();
    for (const bad of ['0', '01', '-1', '1.5', 'a', 0]) expect(code(checkPositiveInteger(bad))).toBe('positiveInteger');
  });

  it('checks upload extensions, size with its unit, count and the exact image size', () => {
    expect(checkUploadExtension('Photo.JPG')).toBeNull();
    expect(code(checkUploadExtension('run.exe'))).toBe('badFileType');
    expect(checkUploadSize(10 * 1024 ** 2, { size: 10, unit: 'MB' })).toBeNull();
    expect(checkUploadSize(10 * 1024 ** 2 + 1, { size: 10, unit: 'MB' })).toEqual({
      code: 'fileTooBig',
      params: { size: 10, unit: 'MB' },
    });
    expect(checkUploadSize(1e12, { size: 0, unit: 'KB' })).toBeNull();
    expect(checkUploadCount(3, 3)).toBeNull();
    expect(checkUploadCount(4, 3)).toEqual({ code: 'tooManyFiles', params: { count: 3 } });
    expect(checkUploadCount(99, 0)).toBeNull();
    expect(checkImageSize({ width: 750, height: 420 }, { width: 750, height: 420 })).toBeNull();
    const refusal = checkImageSize({ width: 800, height: 600 }, { width: 750, height: 420 });
    expect(messageText(refusal!.code, refusal!.params)).toBe(
      'The image size does not meet the standard: 750 × 420 px required, 800 × 600 px given',
    );
  });
});

describe('message table', () => {
  it('fills parameters into the contract text', () => {
    expect(messageText('codeResendWait', { seconds: 42 })).toBe('Please wait 42 seconds before requesting a new code');
    expect(messageText('fileTooBig', { size: 10, unit: 'MB' })).toBe('Please upload a file smaller than 10 MB');
    expect(messageParamNames(MESSAGES.imageSizeMismatch)).toEqual(['width', 'height', 'actualWidth', 'actualHeight']);
  });
});
