/**
 * Pack pick-up end to end (issue 15 §2): a runner with a 10 km entry of the demo race awaiting payment (put
 * into the database as the sign-up submission leaves it) pays in the sandbox cashier; /my/pickup then says the
 * commitment letter is missing; the runner signs it (the letterSign call from the page) and books a slot after
 * confirming, and sees the pass with its QR code, in Chinese and English. Staff, on the check-in screen with a
 * key from `site staff-key-issue` (a wrong key first, refused before any scan), type the pass: today is not its
 * booked day, so the screen warns (booked slot, time now) and hands over only when staff confirm; the holder is
 * shown once; the second time the screen says it was already collected, and the runner's pass reads collected.
 * Screenshots and axe on both screens.
 */
import type { Locator, Page } from 'playwright-core';
import { letterVersionHash, type CommitmentLetterSettings } from '../../contract/after-entry';
import { API_PATHS } from '../../contract/api';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser } from './browser';
import { expectAccessible, switchLanguage } from './demo-form';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { siteCli } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const NAME = '领物跑者';
const stamp = String(Date.now() % 10_000).padStart(4, '0');
const PHONE = `1772${stamp}002`;
const SLOT = '2027-04-16 11:00';
const regArea = (hash: string) => `http://localhost:${serverPort()}/reg/#${hash}`;

/** The screenshots this file takes, copied where the closing note collects them. */
async function shot(page: Page, name: string) {
  // From the top (the menu bar sticks once scrolled), without the passing toasts.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.addStyleTag({ content: '.ant-message { display: none !important; }' });
  await screenshot(page, `pick-up-${name}`);
}

/** A new account with a 10 km entry awaiting payment (its place taken, its order open for 30 minutes). */
async function seedRunner() {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create({ phone: PHONE, passwordHash: await hashPassword(PASSWORD) }, now);
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
          name: NAME,
          gender: 1,
          birthday: '1991-03-03',
          certType: 1,
          certHash: `pick-up-e2e-${now}`,
          certNumber: '110105199103031237',
          phone: PHONE,
          values: {},
          feeFen: 8000,
          now,
        },
        ['submitted', 'orderCreated'],
      );
      const order = await tx.orders.create({
        raceId: RACE_ID,
        userId,
        amountFen: 8000,
        deadlineAt: now + 30 * 60_000,
        createdAt: now,
        lines: [{ entryId: entry.id, amountFen: 8000 }],
      });
      return { entryNo: entry.entryNo, orderNo: order.orderNo };
    });
  } finally {
    await db.close();
  }
}

/** The number of lines an element's text takes. */
const linesOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    // Boxes of one line overlap vertically (a dash in another font may sit a pixel lower); a new line starts below.
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0).sort((x, y) => x.top - y.top);
    let lines = 0;
    let bottom = -Infinity;
    for (const box of boxes) {
      if (box.top >= bottom - 1) lines += 1;
      bottom = Math.max(bottom, box.bottom);
    }
    return lines;
  });

/** Every slot's time ('09:00–11:00') on one line, and the pass's day and times ('2027-04-16 11:00–13:00'). */
async function expectTimesOnOneLine(page: Page, state: string) {
  const times = page.getByTestId('pickup-slots').locator('.pickup-slot__time:visible');
  await times.first().waitFor();
  for (const time of await times.all()) {
    expect(await linesOf(time), `${state}: ${await time.textContent()}`).toBe(1);
  }
  // The pass's day and times may take a line each on a phone, but neither breaks.
  const pass = page.getByTestId('pickup-pass-slot');
  expect(await pass.textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d–\d\d:\d\d$/);
  const [day, hours] = (await pass.textContent())!.split(' ');
  for (const part of [day!, hours!]) {
    expect(await linesOf(pass.getByText(part, { exact: true })), `${state}: the pass's ${part}`).toBe(1);
  }
}

describe('pack pick-up', () => {
  it('a paid runner signs the letter, books a slot and gets a pass; staff check it in once, the second time is refused', async () => {
    const runner = await seedRunner();
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1280, height: 900 } });

    // Pay the order in the sandbox cashier.
    await page.goto(regArea(`/my/order/${runner.orderNo}`));
    await loginInDrawer(page, 'zh', { phone: PHONE, password: PASSWORD });
    await page.getByTestId('order-pay').first().click();
    await page.waitForURL(/\/pay\/sandbox\/cashier/);
    await page.locator('button.pay').click();
    await page.waitForURL(/\/reg\/#\/my\/order\/.*\?paid=1/);
    await page.getByTestId('payment-success').waitFor();

    // Paid, the letter not signed: the page says so and links to the letter.
    await page.goto(regArea(`/my/pickup?entryNo=${runner.entryNo}`));
    const pickup = page.getByTestId('pickup-page');
    const blocked = pickup.getByTestId('pickup-blocked');
    await blocked.getByText('尚未签署电子承诺书', { exact: false }).waitFor();
    await expect(blocked.getByTestId('pickup-unblock').getAttribute('href')).resolves.toBe(
      `#/my/letter?entryNo=${runner.entryNo}`,
    );
    await expect(pickup.getByTestId('pickup-book').first().isDisabled()).resolves.toBe(true);
    await shot(page, 'blocked-zh');

    // Sign the letter as it reads now (the letter page's call).
    const letter = seed.race.commitmentLetter as unknown as CommitmentLetterSettings;
    const signed = await page.evaluate(
      async ({ url, body }) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: localStorage.getItem('token') ?? '' },
          body: JSON.stringify(body),
        });
        return (await response.json()) as { code: number; msg: string };
      },
      {
        url: API_PATHS.letterSign,
        body: {
          raceId: RACE_ID,
          entryNo: runner.entryNo,
          versionHash: letterVersionHash(letter),
          accepted: letter.statements.map((_, i) => i),
          signerName: NAME,
        },
      },
    );
    expect(signed.code, signed.msg).toBe(0);

    // Book the second day's 11:00 slot after confirming.
    await page.reload();
    await pickup.getByTestId('pickup-slots').waitFor();
    await expect(pickup.getByTestId('pickup-blocked').count()).resolves.toBe(0);
    await pickup.getByTestId('pickup-day-2027-04-16').click();
    const slot = pickup.getByTestId(`pickup-slot-${SLOT}`);
    await slot.getByTestId('pickup-book').click();
    await page.locator('.ant-popconfirm').getByText('确认预约 2027-04-16 11:00–13:00 领取参赛包？').waitFor();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    const pass = pickup.getByTestId('pickup-pass');
    await pass.getByTestId('pickup-qr').waitFor();
    const code = ((await pass.getByTestId('pickup-pass-code').textContent()) ?? '').trim();
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5} [2-9A-HJKMNP-Z]{5}$/);
    await expect(pass.getByTestId('pickup-pass-slot').textContent()).resolves.toBe('2027-04-16 11:00–13:00');
    await slot.getByText('当前预约').waitFor();
    await shot(page, 'pass-zh');
    await expectAccessible(page, 'pick-up pass (zh)');
    await switchLanguage(page, 'en');
    await pass.getByText('Pick-up pass').waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await shot(page, 'pass-en');
    await expectAccessible(page, 'pick-up pass (en)');
    await expectTimesOnOneLine(page, 'desktop, en');

    // On a phone (the mobile site at 360 px), in both languages: no time range breaks after its dash.
    await page.setViewportSize({ width: 360, height: 740 });
    for (const lang of ['zh', 'en'] as const) {
      await page.goto(`http://localhost:${serverPort()}/m/#/my/pickup?entryNo=${runner.entryNo}`);
      await switchLanguage(page, lang);
      await pickup.getByTestId('pickup-pass').getByTestId('pickup-qr').waitFor();
      await pickup.getByTestId('pickup-day-2027-04-16').click();
      await expectTimesOnOneLine(page, `360 px, ${lang}`);
      await screenshot(page, `pick-up-phone-${lang}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(regArea(`/my/pickup?entryNo=${runner.entryNo}`));

    // Staff: the key from the CLI, then the pass typed as a scanner types it.
    const issued = await siteCli('staff-key-issue', '--race', RACE_ID, '--label', `e2e-desk-${stamp}`);
    const key = issued.trim().split('\n').at(-1)!.trim();
    const staff = await newPage(browser(), { viewport: { width: 1280, height: 900 } });
    await staff.page.goto(siteUrl('localhost', '/pickup-check-in'));
    const screen = staff.page.getByTestId('pickup-check-in-page');
    // A wrong key is said at once, before any pass is scanned, and no pass field is offered.
    await screen.getByTestId('pickup-check-key').fill(`${key}x`);
    await screen.getByTestId('pickup-check-key').press('Enter');
    await screen.getByTestId('pickup-check-key-error').getByText('工作人员密钥错误或已停用').waitFor();
    await expect(screen.getByTestId('pickup-check-pass').count()).resolves.toBe(0);
    await screen.getByTestId('pickup-check-key').fill(key);
    await screen.getByTestId('pickup-check-key').press('Enter');
    const input = screen.getByTestId('pickup-check-pass');
    await input.pressSequentially(code.replace(' ', '').toLowerCase());
    await input.press('Enter');
    const result = screen.getByTestId('pickup-check-result');
    // Today is not the booked day: a warning with the booked slot and the time now, nothing handed over yet.
    await result.getByText('不在预约时段').waitFor();
    await expect(result.getByTestId('pickup-check-outside-slot').textContent()).resolves.toBe('2027-04-16 11:00–13:00');
    expect(await result.getByTestId('pickup-check-outside-now').textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    await shot(staff.page, 'check-in-outside-zh');
    await expectAccessible(staff.page, 'check-in outside its slot (zh)');
    await result.getByTestId('pickup-check-confirm').click();
    await result.getByText('核验通过，请发放参赛包').waitFor();
    await result.getByTestId('pickup-check-outside-note').getByText('已在预约时段外发放').waitFor();
    await result.getByText(NAME, { exact: true }).waitFor();
    await result.getByText('1101**********1237').waitFor();
    // The booked slot by its day, start and end.
    await result.getByText('2027-04-16 11:00–13:00', { exact: true }).waitFor();
    await shot(staff.page, 'check-in-ok-zh');
    await expectAccessible(staff.page, 'check-in holder (zh)');

    await input.fill(code);
    await input.press('Enter');
    await result.getByText('不能发放').waitFor();
    await screen
      .getByTestId('pickup-check-reason')
      .getByText(/^该参赛包已于 \d{4}-\d\d-\d\d \d\d:\d\d 领取$/)
      .waitFor();
    await shot(staff.page, 'check-in-refused-zh');
    await switchLanguage(staff.page, 'en');
    await input.fill(code);
    await input.press('Enter');
    await screen
      .getByTestId('pickup-check-reason')
      .getByText(/^This race pack was already collected at \d{4}-\d\d-\d\d \d\d:\d\d$/)
      .waitFor();
    expect(await rawKeysOn(staff.page)).toEqual([]);
    await shot(staff.page, 'check-in-refused-en');
    await expectAccessible(staff.page, 'check-in refused (en)');
    expect(staff.errors).toEqual([]);
    await staff.context.close();

    // The runner's pass now reads collected; no change or cancel any more.
    await page.reload();
    await pass
      .getByTestId('pickup-collected')
      .getByText(/^Race pack collected on /)
      .waitFor();
    await expect(pickup.getByTestId('pickup-cancel').count()).resolves.toBe(0);
    await shot(page, 'collected-en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
