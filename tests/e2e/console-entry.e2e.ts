/**
 * One entry in the console (issue 30 §5), in Chinese and English, on a desktop and a tablet: an owner opens an
 * entry of the demo race awaiting payment, sees the person masked and the form's answers by their labels,
 * shows the whole certificate number, records an offline payment (a missing reason refused beside its field),
 * sees the order paid and the step on the timeline by their name, and gives the entry a bib. A finance member
 * sees no "Show" and no entry-editing action. axe: no serious or critical finding on each state.
 */
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { idCard } from '../../server/src/db/seed-runners';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { serverDataDir } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
let seq = 0;
const CERT_BASE = randomInt(1000);

/** A 10 km entry of the demo race awaiting payment, with the form's main answers, as a submission leaves it. */
async function unpaidEntry(): Promise<{ entryNo: string; certNumber: string }> {
  seq += 1;
  const now = Date.now();
  const stamp = String((now + seq) % 100_000).padStart(5, '0');
  // Its own birthday (no other file of the lane's server uses it) and a sequence number this file counts up
  // from a random start: a number drawn from the clock alone met another entry's in the race (one per person).
  const certNumber = idCard(`11010819900617${String((CERT_BASE + seq) % 1000).padStart(3, '0')}`);
  const phone = `1366${stamp}${String(seq).padStart(2, '0')}`;
  const name = `控制台跑者${seq}`;
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create({ phone }, now);
    return await repos.transaction(async (tx) => {
      expect(await tx.entries.takePlace(RACE_ID, '10K', 'main', 1)).toBe(true);
      const entry = await tx.entries.insertEntry(
        {
          raceId: RACE_ID,
          itemCode: '10K',
          channel: 'public',
          userId,
          status: 0,
          holdsPlace: true,
          name,
          gender: 2,
          birthday: '1990-06-17',
          certType: 1,
          certHash: tx.raceCenter.certHash(certNumber),
          certNumber,
          phone,
          values: {
            item: '10K',
            name,
            gender: 2,
            certificateType: 1,
            certificateNumber: certNumber,
            birthday: '1990-06-17',
            phone,
            bloodType: 'A',
            tshirtSize: 'M',
          },
          feeFen: 8000,
          now,
        },
        ['submitted', 'orderCreated'],
      );
      await tx.orders.create({
        raceId: RACE_ID,
        userId,
        amountFen: 8000,
        deadlineAt: now + 30 * 60_000,
        createdAt: now,
        lines: [{ entryId: entry.id, amountFen: 8000 }],
      });
      return { entryNo: entry.entryNo, certNumber };
    });
  } finally {
    await db.close();
  }
}

const entryHash = (entryNo: string) => `/races/${RACE_ID}/entries/${entryNo}`;

async function openEntry(page: Page, entryNo: string) {
  await page.goto(consoleUrl(entryHash(entryNo)));
  await page.getByTestId('entry-page').waitFor();
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('one entry in the console (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'an owner sees the entry, shows the whole number, records an offline payment and gives a bib (%s)',
    async (lang) => {
      const zh = lang === 'zh';
      const entry = await unpaidEntry();
      const { context, page, errors } = await newPage(browser(), options);
      await signInToConsole(page, { role: 'owner', language: lang });
      await openEntry(page, entry.entryNo);
      const cert = page.getByTestId('entry-cert');
      await expect.poll(() => cert.innerText()).toMatch(/^\d{4}\*+/);
      const answers = page.getByTestId('entry-answers');
      await expect.poll(() => answers.innerText()).toContain(zh ? '血型' : 'Blood type');
      await expectAccessible(page, `console entry ${lang} ${device}`);
      await screenshot(page, `console-entry-${device}-${lang}`);

      await page.getByTestId('entry-show-cert').click();
      await expect.poll(() => cert.innerText()).toBe(entry.certNumber);

      // An offline payment: the reason is required, then the order is paid and the step is the owner's.
      await page.getByTestId('entry-action-offline').click();
      const form = page.getByTestId('entry-form-offline');
      await form.getByLabel(zh ? '收据号或转账流水号' : 'Receipt or transfer number').fill('POS-2027-001');
      await page.getByTestId('entry-action-submit').click();
      await form.getByText(zh ? '请填写操作原因' : 'Give a reason').waitFor();
      await expectAccessible(page, `console entry offline payment ${lang} ${device}`);
      await screenshot(page, `console-entry-offline-${device}-${lang}`);
      await form.getByLabel(zh ? '操作原因' : 'Reason').fill(zh ? '现场刷卡缴费' : 'Paid by card at the desk');
      await page.getByTestId('entry-action-submit').click();
      await form.waitFor({ state: 'detached' });
      const status = page.getByTestId('entry-status');
      await expect.poll(() => status.innerText()).toBe(zh ? '报名成功' : 'Registered successfully');

      await page.getByRole('tab', { name: zh ? '报名进度' : 'Timeline' }).click();
      const timeline = page.getByTestId('entry-timeline');
      await expect.poll(() => timeline.innerText()).toContain(zh ? '（工作人员）' : '(staff)');
      await expectAccessible(page, `console entry timeline ${lang} ${device}`);
      await screenshot(page, `console-entry-timeline-${device}-${lang}`);

      // A bib, unique in the race.
      await page.getByTestId('entry-action-bib').click();
      const bibForm = page.getByTestId('entry-form-bib');
      const bib = `E${device === 'desktop' ? 1 : 2}${zh ? 1 : 2}${String(Date.now() % 1000).padStart(3, '0')}`;
      await bibForm.getByLabel(zh ? '参赛号码' : 'Bib', { exact: true }).fill(bib);
      await bibForm.getByLabel(zh ? '操作原因' : 'Reason').fill(zh ? '补发号码' : 'Bib handed out at the desk');
      await page.getByTestId('entry-action-submit').click();
      await bibForm.waitFor({ state: 'detached' });
      await expect.poll(() => page.getByTestId('entry-page').innerText()).toContain(bib);
      await context.close();
      expect(errors).toEqual([]);
    },
  );

  it.each(['zh', 'en'] as const)('a finance member sees money actions only and no whole numbers (%s)', async (lang) => {
    const entry = await unpaidEntry();
    const { context, page, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'finance', language: lang });
    await openEntry(page, entry.entryNo);
    await page.getByTestId('entry-action-offline').waitFor();
    expect(await page.getByTestId('entry-show-cert').count()).toBe(0);
    expect(await page.getByTestId('entry-action-cancel').count()).toBe(0);
    expect(await page.getByTestId('entry-action-edit').count()).toBe(0);
    await expectAccessible(page, `console entry finance ${lang} ${device}`);
    await context.close();
    expect(errors).toEqual([]);
  });
});
