/**
 * The console's Reconciliation page (issue 31 §3), in Chinese and English, on a desktop and a tablet: a finance
 * member checks the sandbox's bill of a day now (it matches: the sandbox's bill is our own books), imports a
 * bill file of that day with a payment we never took (a difference: paid at the provider, missing here), marks
 * it handled with a note, and sees who handled it. Each case works on its own day. No serious or critical axe
 * finding.
 */
import { randomBytes } from 'node:crypto';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';

const browser = useBrowser();

const TEXT = {
  zh: {
    title: '对账',
    matched: /的账单与本站记录一致$/,
    differences: /有 1 处差异$/,
    kind: '渠道已收款，本站无记录或未支付',
    mark: '标记已处理',
    note: '处理说明',
    save: /^保 ?存$/,
  },
  en: {
    title: 'Reconciliation',
    matched: /matches our records$/,
    differences: /differs from our records \(differences: 1\)$/,
    kind: 'Paid at the provider, missing or unpaid here',
    mark: 'Mark handled',
    note: 'What was done',
    save: /^Save$/,
  },
} as const;

/** A China day some days back (before any sandbox payment of the other tests, after none: a quiet day). */
function chinaDay(daysBack: number): string {
  return new Date(Date.now() + 8 * 3_600_000 - daysBack * 86_400_000).toISOString().slice(0, 10);
}

let cases = 0;

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the reconciliation page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('finance checks a day, imports a bill, handles a difference (%s)', async (lang) => {
    const text = TEXT[lang];
    cases += 1;
    const day = chinaDay(30 + cases);
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'finance', language: lang });
    await page.goto(consoleUrl('/reconciliation'));
    const main = page.getByTestId('reconciliation-page');
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();

    // The day: typed into the picker.
    const picker = page.locator('input[data-testid=reconcile-day], [data-testid=reconcile-day] input').first();
    await picker.click();
    await picker.fill(day);
    await picker.press('Enter');
    await expect(picker.inputValue()).resolves.toBe(day);

    // Check it now: the sandbox's bill is our own books, so it matches.
    await page.getByTestId('reconcile-run').click();
    const outcome = page.getByTestId('reconcile-outcome');
    await expect
      .poll(async () => (await outcome.count()) > 0 && (await outcome.innerText()).trim())
      .toMatch(text.matched);
    await expectAccessible(page, `console reconciliation ${lang} ${device}`);
    await screenshot(page, `console-reconciliation-${device}-${lang}`);

    // A bill file of that day with a payment we never took.
    const paymentId = `PAYE2E${randomBytes(6).toString('hex').toUpperCase()}`;
    const csv = `kind,paymentId,tradeNo,refundNo,amountFen,at\npayment,${paymentId},SBTE2E1,,8000,${day}T12:00:00+08:00\n`;
    await main
      .locator('input[type=file]')
      .setInputFiles({ name: 'bill.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(async () => (await outcome.innerText()).trim()).toMatch(text.differences);
    const row = main.getByTestId('reconcile-differences').locator('.ant-table-row').filter({ hasText: paymentId });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(text.kind);

    // Mark it handled with a note.
    await row.getByRole('button', { name: text.mark }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(text.note).fill('refunded by hand');
    await expectAccessible(page, `console reconciliation handle ${lang} ${device}`);
    await dialog.getByRole('button', { name: text.save }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => row.innerText()).toContain('refunded by hand');
    await expect(row.innerText()).resolves.toContain('E2E finance');
    await expectAccessible(page, `console reconciliation handled ${lang} ${device}`);
    await screenshot(page, `console-reconciliation-handled-${device}-${lang}`);
    await context.close();
    expect(errors).toEqual([]);
  });
});
