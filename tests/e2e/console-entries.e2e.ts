/**
 * The console's entry list (issue 30 §5): a customer-service member opens the race's entries, searches, filters
 * by channel, pages, finds each row linked to the entry's page, and downloads the filtered list as .csv and
 * .xlsx (the file holds the search's entries with the form's answers). In Chinese and English, on a desktop and
 * a tablet, with no serious or critical axe finding; screenshots of each.
 */
import { readFileSync } from 'node:fs';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { serverDataDir } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const HOUR = 3_600_000;
const stamp = String(Date.now() % 100_000).padStart(5, '0');
/** A name only this run's entries carry, to search for. */
const FAMILY = `检${stamp}`;

/** Entries of the demo race: 55 with this run's name (more than a page), one of them through a code. */
async function seedEntries() {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    for (let i = 0; i < 55; i += 1) {
      const phone = `1772${stamp.slice(0, 4)}${String(i).padStart(3, '0')}`;
      const userId = await repos.users.create({ phone }, now);
      await repos.entries.insertEntry({
        raceId: RACE_ID,
        itemCode: '10K',
        channel: i === 0 ? 'code' : 'public',
        userId,
        status: 1,
        holdsPlace: true,
        name: `${FAMILY}${String(i).padStart(2, '0')}`,
        gender: 1,
        birthday: '1990-01-01',
        certType: 1,
        certHash: `console-entries-${stamp}-${i}`,
        certNumber: `11010519900101${String(1000 + i)}`,
        phone,
        values: {},
        feeFen: 8000,
        now: now - HOUR + i * 1000,
      });
    }
  } finally {
    await db.close();
  }
}

beforeAll(seedEntries, 60_000);

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the console entry list (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'searches, filters, pages, links each entry and exports the list (%s)',
    async (lang) => {
      const zh = lang === 'zh';
      const { context, page, errors } = await newPage(browser(), { ...options, acceptDownloads: true });
      await signInToConsole(page, { role: 'service', language: lang });
      await page.goto(consoleUrl(`/races/${RACE_ID}/entries`));
      const list = page.getByTestId('entries-page');
      await list.getByRole('heading', { name: zh ? '报名名单' : 'Entries' }).waitFor();

      // The search: this run's 55 entries, 50 on the first page, masked numbers, each row linked to its entry.
      const search = list.getByRole('searchbox', { name: zh ? '搜索' : 'Search' });
      await search.fill(FAMILY);
      await search.press('Enter');
      await list.getByText(zh ? '共 55 条' : '55 entries').waitFor();
      const rows = list.locator('.ant-table-tbody tr.ant-table-row');
      await expect.poll(() => rows.count()).toBe(50);
      await expect.poll(() => page.url()).toContain(`q=${encodeURIComponent(FAMILY)}`);
      const first = rows.first();
      await first.getByText(`${FAMILY}54`).waitFor();
      await first.getByText('1101**********1054').waitFor();
      await first.getByText(zh ? '报名成功' : 'Registered successfully').waitFor();
      const link = first.getByTestId('entries-open');
      expect(await link.getAttribute('href')).toMatch(new RegExp(`^#/races/${RACE_ID}/entries/[A-Z0-9]+$`));
      await expectAccessible(page, `console entries ${lang} ${device}`);
      await screenshot(page, `console-entries-${device}-${lang}`);

      // The second page: the last five.
      await list.getByRole('listitem', { name: '2' }).click();
      await expect.poll(() => rows.count()).toBe(5);
      await expect.poll(() => page.url()).toContain('page=2');

      // A channel filter: the one entry through a code, worded in the language.
      await list.getByRole('combobox', { name: zh ? '报名渠道' : 'Channel' }).click();
      await page
        .locator('.ant-select-item-option:visible')
        .filter({ hasText: zh ? '邀请码' : 'Invitation code' })
        .click();
      await list.getByText(zh ? '共 1 条' : '1 entry', { exact: true }).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      await rows.first().getByText(`${FAMILY}00`).waitFor();
      await expectAccessible(page, `console entries filtered ${lang} ${device}`);

      // The exports: the filtered list, in the language, as .csv (with a BOM) and .xlsx.
      const [csv] = await Promise.all([page.waitForEvent('download'), list.getByTestId('entries-csv').click()]);
      expect(csv.suggestedFilename()).toMatch(new RegExp(`^${RACE_ID}-entries-\\d{8}-\\d{4}\\.csv$`));
      const csvText = readFileSync((await csv.path())!, 'utf8');
      expect(csvText.charCodeAt(0)).toBe(0xfeff);
      expect(csvText).toContain(`${FAMILY}00`);
      expect(csvText).not.toContain(`${FAMILY}01`);
      const [xlsx] = await Promise.all([page.waitForEvent('download'), list.getByTestId('entries-xlsx').click()]);
      expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
      const xlsxBytes = readFileSync((await xlsx.path())!);
      expect(xlsxBytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
