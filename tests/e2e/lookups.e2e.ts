/**
 * Runner lookups on the real seeded data (30,000 runners): registration status, a past result with
 * splits and ranks, and the e-certificate's verification against the server (an edited one fails).
 */
import type { Browser } from 'playwright-core';
import { inject } from 'vitest';
import { API_PATHS } from '../../src/config/api-paths';
import { launchBrowser, newPage, screenshot, siteUrl } from './browser';

// DEMO_RUNNERS in server/src/db/seed-runners.ts
const RUNNER = { name: '张伟', id: '320102199001011232', bib: 'A00001', pastRace: 'qc-marathon-2026' };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('runner lookups', () => {
  it('finds a registration by name and ID number, with the ID number masked', async () => {
    const { context, page, errors } = await newPage(browser);
    await context.addCookies([{ name: 'language', value: 'en', url: siteUrl() }]);
    await page.goto(siteUrl('localhost', '/registration-search'));
    await page.getByPlaceholder('Enter your name').fill(RUNNER.name);
    await page.getByPlaceholder('Enter your certificate number').fill(RUNNER.id);
    await page.getByRole('button', { name: 'Search' }).click();
    const result = page.getByTestId('registration-result');
    await result.waitFor();
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('3201**********1232');
    expect(text).not.toContain(RUNNER.id);
    await expect(page.getByTestId('registration-status').textContent()).resolves.toMatch(/won|registered/i);
    await screenshot(page, 'lookup-registration-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds a past result with splits and ranks, and its certificate verifies; an edited one does not', async () => {
    // What the server says of this runner; the page must show the same.
    const answer = (await (
      await fetch(`http://127.0.0.1:${inject('port')}${API_PATHS.searchScore}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ raceId: RUNNER.pastRace, bib: RUNNER.bib }),
      })
    ).json()) as { data: { chipTime: string; certificate: { id: string; sig: string } }[] };
    const { context, page } = await newPage(browser);
    await page.goto(siteUrl('localhost', '/multiple-score-search'));
    await page.locator('select').first().selectOption(RUNNER.pastRace);
    await page.getByPlaceholder('请输入姓名').fill(RUNNER.name);
    await page.getByPlaceholder('请输入证件号码').fill(RUNNER.id);
    await page.locator('button[type="submit"]').click();
    const card = page.getByTestId('score-result').first();
    await card.waitFor();
    const { chipTime } = answer.data[0];
    expect(chipTime).toMatch(/^\d:\d\d:\d\d$/);
    await expect(card.getByTestId('chip-time').textContent()).resolves.toContain(chipTime);
    await expect(card.getByTestId('ranks').isVisible()).resolves.toBe(true);
    await expect(card.locator('table tbody tr').count()).resolves.toBeGreaterThanOrEqual(8);
    await screenshot(page, 'lookup-score-zh');

    // The certificate's QR leads to the verification page with its id and signature.
    const { id, sig } = answer.data[0].certificate;
    await page.goto(siteUrl('localhost', `/certificate?id=${encodeURIComponent(id)}&sig=${encodeURIComponent(sig)}`));
    await page.getByTestId('certificate-valid').waitFor();
    await expect(page.getByTestId('certificate-valid').textContent()).resolves.toContain(chipTime);
    const edited = sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA');
    await page.goto(siteUrl('localhost', `/certificate?id=${encodeURIComponent(id)}&sig=${encodeURIComponent(edited)}`));
    await page.getByTestId('certificate-invalid').waitFor();
    await context.close();
  });
});
