/**
 * The console's Pack mailing and Commitment letter pages (issue 32), in Chinese and English, on a desktop and a
 * tablet. A runner with a won, paid 10 km entry of the demo race chose mailing (put into the database the way
 * /post leaves it). A service member sees the counts and the runner waiting, checks a tracking file with one
 * good row and one bad row (the bad one shown by its line, nothing written yet), imports it (the runner's
 * parcel shipped, the counts moved), downloads the list; then on the letters page finds the runner's entry
 * among those who have not signed, with the link to message them. No serious or critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { serverDataDir } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const HOUR = 3_600_000;

const TEXT = {
  zh: {
    mailing: '参赛物资邮寄',
    problem: (line: number) => `第 ${line} 行：key 999999999 在本赛事未选择邮寄`,
    importRows: '导入 1 行',
    imported: /1 个包裹记录为已寄出/,
    shipped: '已寄出',
    letters: '电子承诺书',
    unsigned: '未签署',
    message: '给未签署者发消息',
  },
  en: {
    mailing: 'Race-pack mailing',
    problem: (line: number) => `Line ${line}: key 999999999 did not choose mailing in this race`,
    importRows: 'Import 1 row',
    imported: /^Recorded as shipped: 1 /,
    shipped: 'Shipped',
    letters: 'Commitment letter',
    unsigned: 'Not signed',
    message: 'Message those who have not signed',
  },
} as const;

/** A new account with a won, paid 10 km entry of the demo race that chose mailing of its pack. */
async function seedRunner(tag: string) {
  const now = Date.now();
  const phone = `177${String(now % 100_000_000).padStart(8, '0')}`;
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create({ phone, passwordHash: await hashPassword('Runner2027') }, now);
    const name = `邮寄${tag}`;
    const entry = await repos.entries.insertEntry({
      raceId: RACE_ID,
      itemCode: '10K',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name,
      gender: 2,
      birthday: '1992-08-08',
      certType: 1,
      certHash: `console-mailing-e2e-${tag}-${randomBytes(4).toString('hex')}`,
      certNumber: '110105199208081226',
      phone,
      values: {},
      feeFen: 8000,
      now: now - 10 * HOUR,
    });
    const order = await repos.orders.create({
      raceId: RACE_ID,
      userId,
      amountFen: 8000,
      deadlineAt: now - 9 * HOUR,
      createdAt: now - 10 * HOUR,
      lines: [{ entryId: entry.id, amountFen: 8000 }],
    });
    await repos.orders.markPaid(order.id, {
      paidFen: 8000,
      paidAt: now - 9 * HOUR,
      serialNo: `SBCM${randomBytes(5).toString('hex')}`,
    });
    await repos.entries.setStatus(entry.id, [0], 1, 'won', now - 9 * HOUR);
    await repos.runnerChoices.saveMailing({
      raceId: RACE_ID,
      userId,
      method: 'mail',
      name,
      phone,
      region: ['110000', '110100', '110108'],
      address: '中关村大街8号',
      updatedAt: now,
    });
    return { userId, entryNo: entry.entryNo, name };
  } finally {
    await db.close();
  }
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the mailing and letters pages (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'checks and imports tracking numbers, downloads, finds the unsigned (%s)',
    async (lang) => {
      const text = TEXT[lang];
      const runner = await seedRunner(`${device}-${lang}`);
      const trackingNo = `SF${Date.now()}`;
      const { page, context, errors } = await newPage(browser(), { ...options, acceptDownloads: true });
      await signInToConsole(page, { role: 'service', language: lang });

      // Mailing: the runner waits for a tracking number.
      await page.goto(consoleUrl(`/races/${RACE_ID}/mailing?state=waiting`));
      const main = page.getByTestId('mailing-page');
      await main.getByRole('heading', { name: text.mailing, level: 1 }).waitFor();
      const row = main.getByTestId('mailing-table').locator('.ant-table-row').filter({ hasText: runner.name });
      await row.waitFor();
      await expectAccessible(page, `console mailing ${lang} ${device}`);
      await screenshot(page, `console-mailing-${device}-${lang}`);

      // A tracking file: one good row, one bad; checked first, nothing written.
      const csv = `key,carrier,trackingNo\n${runner.userId},顺丰速运,${trackingNo}\n999999999,EMS,1180000000001\n`;
      await main
        .locator('input[type=file]')
        .setInputFiles({ name: 'tracking.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const preview = main.getByTestId('mailing-preview');
      await preview.getByTestId('mailing-problems').getByText(text.problem(3)).waitFor();
      await preview.getByTestId('mailing-good-rows').getByText(trackingNo).waitFor();
      await expect(row.innerText()).resolves.not.toContain(trackingNo);
      await expectAccessible(page, `console mailing preview ${lang} ${device}`);
      await screenshot(page, `console-mailing-preview-${device}-${lang}`);

      // Import: the parcel shipped.
      await preview.getByRole('button', { name: text.importRows }).click();
      await expect
        .poll(async () => (await main.getByTestId('mailing-imported').innerText()).trim())
        .toMatch(text.imported);
      await page.goto(consoleUrl(`/races/${RACE_ID}/mailing?state=shipped`));
      const shipped = main.getByTestId('mailing-table').locator('.ant-table-row').filter({ hasText: trackingNo });
      await shipped.waitFor();
      await expect(shipped.innerText()).resolves.toContain(text.shipped);
      await expectAccessible(page, `console mailing shipped ${lang} ${device}`);

      // The list for the courier.
      const [download] = await Promise.all([page.waitForEvent('download'), main.getByTestId('mailing-csv').click()]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${RACE_ID}-mailing-\\d{8}-\\d{4}\\.csv$`));
      const file = readFileSync((await download.path())!, 'utf8');
      expect(file).toContain(`${runner.userId},${runner.name}`);
      expect(file).toContain(trackingNo);

      // Letters: the runner's entry has not signed; the link to message them.
      await page.goto(consoleUrl(`/races/${RACE_ID}/letters`));
      const letters = page.getByTestId('letters-page');
      await letters.getByRole('heading', { name: text.letters, level: 1 }).waitFor();
      await letters.getByTestId('letters-letter').waitFor();
      await letters.getByTestId('letters-filter').getByText(text.unsigned, { exact: true }).click();
      await expect.poll(() => page.url()).toContain('standing=unsigned');
      const search = letters.getByTestId('letters-search').locator('input');
      await search.fill(runner.entryNo);
      await search.press('Enter');
      await expect.poll(() => page.url()).toContain(`q=${runner.entryNo}`);
      const entry = letters.getByTestId('letters-table').locator('.ant-table-row').filter({ hasText: runner.entryNo });
      await entry.waitFor();
      await expect(entry.innerText()).resolves.toContain(text.unsigned);
      const link = letters.getByRole('link', { name: text.message });
      await expect(link.getAttribute('href')).resolves.toBe(`#/races/${RACE_ID}/messages?audience=unsigned`);
      await expectAccessible(page, `console letters ${lang} ${device}`);
      await screenshot(page, `console-letters-${device}-${lang}`);
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
