/**
 * Race-pack mailing after sign-up end to end (issue 15 §5): a runner with a won, paid 10 km entry of the demo
 * race (put into the database the way sign-up and payment leave it) sees the entry's service links on its card
 * in reg/#/my/my-index, follows 'race pack delivery' to /post and chooses mailing; the parcel waits for
 * dispatch. The organiser runs mailing-export and mailing-import with a tracking number (the CLI on the
 * server's data folder); the runner then reads 'shipped' with the carrier and the tracking number, in Chinese
 * and English, with the cash-on-delivery notice still there. Screenshots and axe on the card and /post.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { entryServices } from '../../contract/after-entry';
import type { RaceInfo } from '../../contract/site-config/race-types';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { parseCsv } from '../../server/src/lib/csv';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { expectAccessible, pickRegion, switchLanguage } from './demo-form';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { siteCli } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const HOUR = 3_600_000;
const stamp = String(Date.now() % 10_000).padStart(4, '0');
const PHONE = `1771${stamp}001`;
const TRACKING = `SF${stamp}20270301`;
const regArea = (hash: string) => `http://localhost:${serverPort()}/reg/#${hash}`;

/** A new account with a won, paid 10 km entry of the demo race. */
async function seedRunner() {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create({ phone: PHONE, passwordHash: await hashPassword(PASSWORD) }, now);
    const entry = await repos.entries.insertEntry({
      raceId: RACE_ID,
      itemCode: '10K',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name: '邮寄跑者',
      gender: 2,
      birthday: '1992-08-08',
      certType: 1,
      certHash: `mailing-e2e-${now}`,
      certNumber: '110105199208081226',
      phone: PHONE,
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
    await repos.entries.addEvent(entry.id, 'orderCreated', now - 10 * HOUR);
    await repos.orders.markPaid(order.id, { paidFen: 8000, paidAt: now - 9 * HOUR, serialNo: `SB${stamp}0001` });
    await repos.entries.addEvent(entry.id, 'paid', now - 9 * HOUR);
    await repos.entries.setStatus(entry.id, [0], 1, 'won', now - 9 * HOUR);
    return { userId, entryNo: entry.entryNo };
  } finally {
    await db.close();
  }
}

async function parcelState(page: Page, state: 'waiting' | 'shipped') {
  await page.locator(`[data-testid="post-parcel"][data-state="${state}"]`).waitFor();
}

describe('race-pack mailing', () => {
  it('links a won entry to its services; mailing chosen on /post waits, the organiser imports a tracking number, the runner sees it shipped', async () => {
    const runner = await seedRunner();
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1280, height: 900 } });

    // The entry card: the services the demo race offers a won entry, in the contract's order.
    await page.goto(regArea('/my/my-index'));
    await loginInDrawer(page, 'zh', { phone: PHONE, password: PASSWORD });
    const card = page.getByTestId(`entry-${runner.entryNo}`);
    const services = card.getByTestId('entry-services');
    await services.waitFor();
    const expected = entryServices(seed.race as unknown as RaceInfo, 1);
    expect(expected).toContain('mailing');
    const links = services.getByRole('link');
    await expect(links.count()).resolves.toBe(expected.length);
    for (const service of expected) {
      const href = await services.getByTestId(`entry-service-${service}`).getAttribute('href');
      expect(href).toBe(service === 'mailing' ? '#/post' : `#/my/${service}?entryNo=${runner.entryNo}`);
    }
    await services.getByText('电子承诺书').waitFor();
    await screenshot(page, 'mailing-entry-card-zh');
    await expectAccessible(page, 'entry card with services (zh)');

    // Race pack delivery → /post: choose mailing.
    await services.getByTestId('entry-service-mailing').click();
    const post = page.getByTestId('post-page');
    await post
      .getByTestId('post-notice')
      .getByText(/快递到付/)
      .waitFor();
    await post.getByLabel('收件人', { exact: true }).fill('邮寄跑者');
    await post.getByLabel('收件人手机号码').fill(PHONE);
    const region = post.getByLabel('所在省市区');
    await region.waitFor();
    await pickRegion(page, region);
    await post.getByLabel('详细地址').fill('中关村大街8号');
    await post.getByTestId('post-save').click();
    await parcelState(page, 'waiting');
    await post.getByTestId('post-parcel').getByText('等待寄出', { exact: true }).waitFor();
    await screenshot(page, 'mailing-post-waiting-zh');
    await expectAccessible(page, '/post parcel waiting (zh)');

    // The organiser: the list, then the courier's tracking numbers back.
    const folder = mkdtempSync(path.join(tmpdir(), 'mailing-e2e-'));
    const list = path.join(folder, 'mailing.csv');
    expect(await siteCli('mailing-export', '--race', RACE_ID, '--out', list)).toContain('who chose mailing');
    const rows = parseCsv(readFileSync(list, 'utf8')).map((r) => r.fields);
    const row = rows.find((r) => r[0] === String(runner.userId))!;
    expect(row.slice(1, 7)).toEqual(['邮寄跑者', PHONE, '北京市', '北京市', '海淀区', '中关村大街8号']);
    expect(row[7]).toContain(runner.entryNo);
    const tracking = path.join(folder, 'tracking.csv');
    writeFileSync(tracking, `key,carrier,trackingNo\n${runner.userId},顺丰速运,${TRACKING}\n`);
    expect(await siteCli('mailing-import', '--race', RACE_ID, '--file', tracking)).toContain('1 parcel marked shipped');

    // The runner: shipped, with the number to copy; no more changes; the notice stays.
    await page.reload();
    await parcelState(page, 'shipped');
    const parcel = post.getByTestId('post-parcel');
    await expect(parcel.getByTestId('post-parcel-tracking').textContent()).resolves.toBe(TRACKING);
    await expect(parcel.getByTestId('post-parcel-carrier').textContent()).resolves.toBe('顺丰速运');
    await parcel.getByText('已寄出', { exact: true }).waitFor();
    await post
      .getByTestId('post-notice')
      .getByText(/快递到付/)
      .waitFor();
    await expect(post.getByTestId('post-change').count()).resolves.toBe(0);
    await screenshot(page, 'mailing-post-shipped-zh');
    await expectAccessible(page, '/post parcel shipped (zh)');

    await switchLanguage(page, 'en');
    await parcel.getByText('Shipped', { exact: true }).waitFor();
    await post
      .getByTestId('post-notice')
      .getByText(/cash on delivery/)
      .waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'mailing-post-shipped-en');
    await expectAccessible(page, '/post parcel shipped (en)');

    await page.goto(regArea('/my/my-index'));
    await card.getByTestId('entry-services').getByText('Race pack delivery').waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await screenshot(page, 'mailing-entry-card-en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
