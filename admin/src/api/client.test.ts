import { ASSET_LIMITS } from '#contract/assets';
import { fileCallLimitMs } from './client';

describe('file calls’ time limit', () => {
  it('is the general 30 s for a small file and grows with the file', () => {
    expect(fileCallLimitMs(0)).toBe(30_000);
    expect(fileCallLimitMs(50_000)).toBe(31_000);
  });

  it('lets the largest asset (20 MB, 27 MB as base64) go up at about 400 kbit/s', () => {
    const largest = Math.ceil((ASSET_LIMITS.fileBytes * 4) / 3);
    const seconds = fileCallLimitMs(largest) / 1000;
    expect(seconds).toBeGreaterThan((largest * 8) / 400_000);
    expect(seconds).toBeLessThan(15 * 60);
  });
});
