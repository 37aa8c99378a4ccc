/**
 * The console's ballot and bib pages (issue 32), in Chinese and English, on a desktop and a tablet: an owner
 * commits round 1 of a race's ballot item while entry is open (the draw is refused until it closes), the
 * organiser closes entry (`entry-close`, as the CLI does it), the owner draws and reveals, sees the public
 * verification page, the server's re-run of the draw matching the published record and the wait list in
 * order; then on the bib page previews a series that does not fit (refused in the page's language), previews
 * one that does and assigns it. Each case has its own race (a draw is done once). axe: no serious or critical
 * finding on each state.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { EntrySettings } from '#contract/entry';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { idCard } from '../../server/src/db/seed-runners';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { siteCli } from './site-config';
import { serverDataDir } from './test-server';

const browser = useBrowser();
const ENTRIES = 6;
const PLACES = 3;
const CERT_BASE = randomInt(1000);
let people = 0;

const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [
    {
      code: 'M',
      name: { zh: '马拉松', en: 'Marathon' },
      capacity: PLACES,
      feeFen: 0,
      model: 'ballot',
      paymentMinutes: 60,
    },
  ],
};

/** A race of its own, entry open for a year more, with ENTRIES entries awaiting the draw of item M. */
async function ballotRace(): Promise<string> {
  const now = Date.now();
  const raceId = `e2e-ballot-${randomBytes(4).toString('hex')}`;
  const day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const base = (await repos.races.findById(seed.race.raceId))!;
    await repos.races.save(
      {
        ...base,
        raceId,
        raceName: `抽签测试赛 ${raceId.slice(-4)}`,
        raceNameEn: `Ballot test race ${raceId.slice(-4)}`,
        signUpOpenStatus: 1,
        signUpStartTime: day(now - 86_400_000),
        signUpEndTime: day(now + 365 * 86_400_000),
        entry: ENTRY,
      },
      now,
    );
    await repos.entries.ensurePlaces(raceId, ENTRY);
    for (let i = 0; i < ENTRIES; i += 1) {
      people += 1;
      const certNumber = idCard(`11010819910723${String((CERT_BASE + people) % 1000).padStart(3, '0')}`);
      const phone = `1355${String(now % 10_000).padStart(4, '0')}${String(people).padStart(3, '0')}`;
      const userId = await repos.users.create({ phone }, now);
      await repos.entries.insertEntry({
        raceId,
        itemCode: 'M',
        channel: 'public',
        userId,
        status: 0,
        holdsPlace: false,
        name: `抽签跑者${people}`,
        gender: 1,
        birthday: '1991-07-23',
        certType: 1,
        certHash: repos.raceCenter.certHash(certNumber),
        certNumber,
        phone,
        values: {},
        feeFen: 0,
        now,
      });
    }
    return raceId;
  } finally {
    await db.close();
  }
}

const TEXT = {
  zh: {
    title: '抽签',
    pool: `${ENTRIES} 个报名参加，名额 ${PLACES} 个`,
    drawTooEarly: '报名仍在进行中',
    notRevealed: '未公布',
    matches: '与公示的抽签结果一致',
    bibsTitle: '号码布分配',
    tooWide: '超出 1 位',
    wouldGive: `将分配 ${PLACES} 个号码：B0001 至 B0003`,
    assigned: `已分配 ${PLACES} 个号码`,
  },
  en: {
    title: 'Ballot',
    pool: `${ENTRIES} entries in the pool for ${PLACES} places`,
    drawTooEarly: 'Entry is still open',
    notRevealed: 'Not revealed',
    matches: 'Matches the published draw',
    bibsTitle: 'Bib assignment',
    tooWide: 'does not fit 1 digits',
    wouldGive: `Would give ${PLACES} bibs: B0001 to B0003`,
    assigned: `Assigned ${PLACES} bibs`,
  },
} as const;

/** Confirms the open dialog's step and waits for it to close. */
async function confirm(page: Page) {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  // Clicked once the dialog has finished opening (a click during its zoom-in was once lost on a busy machine).
  await expect.poll(async () => dialog.getAttribute('class')).not.toMatch(/zoom/);
  await page.getByTestId('ballot-confirm').click();
  // Closed when done; a refusal stays in the dialog and is the failure's message.
  const refusal = page.getByTestId('ballot-error');
  await expect
    .poll(async () => ((await refusal.count()) > 0 ? await refusal.innerText() : (await dialog.isHidden()) && 'closed'))
    .toBe('closed');
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the ballot and bib pages (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('an owner commits, draws, reveals and assigns bibs (%s)', async (lang) => {
    const text = TEXT[lang];
    const raceId = await ballotRace();
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'owner', language: lang });
    await page.goto(consoleUrl(`/races/${raceId}/ballot`));
    const main = page.getByTestId('ballot-page');
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
    const pool = page.getByTestId('ballot-pool-M');
    await expect.poll(() => pool.innerText()).toContain(text.pool);

    // Commit while entry is open: the commitment is shown; the draw waits for entry to close.
    await page.getByTestId('ballot-commit-M').click();
    await expectAccessible(page, `console ballot commit dialog ${lang} ${device}`);
    await confirm(page);
    await expect.poll(() => page.getByTestId('ballot-commitment-M-1').innerText()).toMatch(/^[0-9a-f]{64}$/);
    await expect(page.getByTestId('ballot-draw-M').isDisabled()).resolves.toBe(true);
    await expect(main.innerText()).resolves.toContain(text.drawTooEarly);
    await expectAccessible(page, `console ballot committed ${lang} ${device}`);
    await screenshot(page, `console-ballot-committed-${device}-${lang}`);

    // The organiser closes entry (the CLI's entry-close): the draw may go ahead.
    await siteCli('entry-close', raceId);
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByTestId('ballot-item-M').waitFor();
        return page.getByTestId('ballot-draw-M').isEnabled();
      })
      .toBe(true);
    await page.getByTestId('ballot-draw-M').click();
    await confirm(page);
    await expect.poll(() => page.getByTestId('ballot-rounds-M').innerText()).toContain(text.notRevealed);

    // Reveal: the server re-runs the draw from the public record and it matches.
    await page.getByTestId('ballot-reveal-M').click();
    await confirm(page);
    const check = page.getByTestId('ballot-check-M-1');
    await expect.poll(() => check.innerText()).toContain(text.matches);
    await expect(page.getByTestId('ballot-seed-M-1').innerText()).resolves.toMatch(/^[0-9a-f]{64}$/);
    await expect(page.getByTestId('ballot-public-link').innerText()).resolves.toMatch(/\/#\/ballot$/);
    const waitList = page.getByTestId('ballot-waitlist-M').locator('.ant-table-row');
    await expect.poll(() => waitList.count()).toBe(ENTRIES - PLACES);
    await expect(waitList.first().innerText()).resolves.toMatch(/^1\s/);
    await expectAccessible(page, `console ballot revealed ${lang} ${device}`);
    await screenshot(page, `console-ballot-revealed-${device}-${lang}`);

    // Bibs: the winners (free entries) await theirs.
    await page.goto(consoleUrl(`/races/${raceId}/bibs`));
    const bibs = page.getByTestId('bibs-page');
    await bibs.getByRole('heading', { name: text.bibsTitle, level: 1 }).waitFor();
    const items = page.getByTestId('bibs-items');
    await expect.poll(() => items.locator('.ant-table-row').first().innerText()).toMatch(new RegExp(`\\b${PLACES}\\b`));
    await page.getByTestId('bibs-item').click();
    await page.locator('.ant-select-item-option').first().click();
    await page.getByTestId('bibs-prefix').fill('b');
    await page.getByTestId('bibs-from').fill('9');
    await page.getByTestId('bibs-width').fill('1');
    await page.getByTestId('bibs-preview').click();
    await expect.poll(() => page.getByTestId('bibs-refusal').innerText()).toContain(text.tooWide);
    await expectAccessible(page, `console bibs refused ${lang} ${device}`);

    await page.getByTestId('bibs-from').fill('1');
    await page.getByTestId('bibs-width').fill('4');
    await page.getByTestId('bibs-preview').click();
    const result = page.getByTestId('bibs-preview-result');
    await expect.poll(() => result.innerText()).toContain(text.wouldGive);
    await screenshot(page, `console-bibs-preview-${device}-${lang}`);
    await page.getByTestId('bibs-assign').click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, `console bibs confirm ${lang} ${device}`);
    await page.getByTestId('bibs-confirm').click();
    await page.getByText(text.assigned).first().waitFor();
    await expect.poll(() => items.innerText()).toContain('B0001');
    await expectAccessible(page, `console bibs assigned ${lang} ${device}`);
    await screenshot(page, `console-bibs-assigned-${device}-${lang}`);
    await context.close();
    expect(errors).toEqual([]);
  });
});
