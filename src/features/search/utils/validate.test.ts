import { checkBib, checkCertificateNumber, checkName, isValidIdCard } from './validate';

describe('search field rules', () => {
  it('accepts an ID card number only with the GB 11643 check character', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('11010519491231002x')).toBe(true);
    expect(isValidIdCard('110105194912310021')).toBe(false);
    expect(isValidIdCard('1101051949123100')).toBe(false);
  });

  it('checks other certificates as 5-20 letters and digits', () => {
    expect(checkCertificateNumber(2, 'E1234567')).toBeNull();
    expect(checkCertificateNumber(2, 'E12')).toBe('search.validation.certificateInvalid');
    expect(checkCertificateNumber(3, 'AB-12345')).toBe('search.validation.certificateInvalid');
    expect(checkCertificateNumber(1, '')).toBe('search.validation.certificateRequired');
  });

  it('rejects names with spaces or double quotes and bibs that are not positive alphanumerics', () => {
    expect(checkName('张三')).toBeNull();
    expect(checkName('  ')).toBe('search.validation.nameRequired');
    expect(checkName('张 三')).toBe('search.validation.nameInvalid');
    expect(checkName('a"b')).toBe('search.validation.nameInvalid');
    expect(checkBib(' A1023 ')).toBeNull();
    expect(checkBib('000')).toBe('search.validation.bibInvalid');
    expect(checkBib('12-3')).toBe('search.validation.bibInvalid');
    expect(checkBib('')).toBe('search.validation.bibRequired');
  });
});
