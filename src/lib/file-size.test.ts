import { formatFileSize } from './file-size';

describe('formatFileSize', () => {
  it('counts in steps of 1024 with two decimals from KB on', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1024)).toBe('1.00 KB');
    expect(formatFileSize(1536)).toBe('1.50 KB');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1.00 MB');
    expect(formatFileSize(2.5 * 1024 ** 2)).toBe('2.50 MB');
    expect(formatFileSize(10 * 1024 ** 3 + 1)).toBe('10.00 GB');
    expect(formatFileSize(3 * 1024 ** 4)).toBe('3.00 TB');
  });

  it('shows nothing for a size that is not one', () => {
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Number.NaN)).toBe('');
  });
});
