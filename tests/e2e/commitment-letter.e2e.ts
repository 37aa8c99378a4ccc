/**
 * The commitment letter end to end (issue 15 §1): a runner registers for the demo race's 10 km on the sign-up
 * page, pays in the sandbox cashier, follows the entry card's letter link to /my/letter, ticks each statement,
 * types the name and signs: the page shows the signature. A second runner has a 15-year-old's 10 km entry
 * awaiting payment (put into the database as a submission leaves it: the demo form's birthday field takes
 * adults only), pays it in the sandbox cashier and signs: the guardian's fields are there, signing without
 * them shows the refusals beside them, with them the letter is signed with the guardian (phone masked).
 * Chinese and English, screenshots and axe.
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { idCard } from '../../server/src/db/seed-runners';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser, passEntrySlider } from './browser';
import { expectAccessible, fillDemoPerson, fromNow, switchLanguage } from './demo-form';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { addRace, siteCli } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 10_000).padStart(4, '0');
const ADULT = {
  phone: `1773${stamp}021`,
  name: '承诺跑者',
  birthday: '1990-06-15',
  id: idCard(`11010819900615${stamp.slice(1)}`),
  emergencyPhone: `1393${stamp}021`,
};
// 15 on race day (2027-04-18); the 10 km's minimum age is 12.
const MINOR = {
  phone: `1774${stamp}022`,
  name: '小跑者',
  birthday: '2011-09-01',
  id: idCard(`11010820110901${stamp.slice(1)}`),
  emergencyPhone: `1394${stamp}022`,
};
type Runner = typeof ADULT;
const regArea = (hash: string) => `http://localhost:${serverPort()}/reg/#${hash}`;

beforeAll(async () => {
  // Sign-up open now and the letter open until later, whatever today's date (the seed's windows are fixed dates).
  await addRace({
    ...seed.race,
    signUpStartTime: fromNow(-2),
    signUpEndTime: fromNow(30),
    signUpOpenStatus: 1,
    commitmentLetter: { ...seed.race.commitmentLetter, deadline: fromNow(20) },
  });
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  const passwordHash = await hashPassword(PASSWORD);
  for (const runner of [ADULT, MINOR]) await repos.users.create({ phone: runner.phone, passwordHash }, Date.now());
  await db.close();
});
// The test files share one server: the demo race goes back to its seeded settings for the files after this one.
afterAll(() => addRace(seed.race));

const shot = async (page: Page, name: string) => {
  await screenshot(page, name);
};

/**
 * The minor's 10 km entry and its order awaiting payment, as a submission leaves them. (The demo race's
 * public form takes birthdays up to 18 years before race day only, so a 15-year-old cannot be typed in it.)
 */
async function minorOrder(): Promise<string> {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  const user = (await repos.users.findByPhone(MINOR.phone))!;
  const order = await repos.transaction(async (tx) => {
    expect(await tx.entries.takePlace(RACE_ID, '10K', 'main', 1)).toBe(true);
    const entry = await tx.entries.insertEntry(
      {
        raceId: RACE_ID,
        itemCode: '10K',
        channel: 'public',
        userId: user.id,
        status: 0,
        holdsPlace: true,
        name: MINOR.name,
        gender: 1,
        birthday: MINOR.birthday,
        certType: 1,
        certHash: tx.raceCenter.certHash(MINOR.id),
        certNumber: MINOR.id,
        phone: MINOR.phone,
        values: {},
        feeFen: 8000,
        now,
      },
      ['submitted', 'orderCreated'],
    );
    return tx.orders.create({
      raceId: RACE_ID,
      userId: user.id,
      amountFen: 8000,
      deadlineAt: now + 30 * 60_000,
      createdAt: now,
      lines: [{ entryId: entry.id, amountFen: 8000 }],
    });
  });
  await db.close();
  return order.orderNo;
}

/** Signs up for the 10 km (in Chinese) and pays in the sandbox cashier; the entry number. */
async function registerAndPay(page: Page, runner: Runner): Promise<string> {
  await page.goto(siteUrl('localhost', '/my/signup'));
  await loginInDrawer(page, 'zh', { phone: runner.phone, password: PASSWORD });
  await page.getByTestId('entry-choose-10K').click();
  await page.getByTestId('entry-people').waitFor();
  await fillDemoPerson(
    page,
    {
      name: runner.name,
      gender: '男',
      id: runner.id,
      birthday: runner.birthday,
      phone: runner.phone,
      emergencyName: '王芳',
      emergencyPhone: runner.emergencyPhone,
      address: '运河路8号',
      bloodType: 'A型',
    },
    '10K',
  );
  await passEntrySlider(page);
  await page.getByTestId('entry-submit').click();
  await page.waitForURL(/\/my\/order\//);
  const orderNo = decodeURIComponent(/\/my\/order\/([^?/]+)/.exec(page.url())![1]!);
  return pay(page, orderNo);
}

/** Pays an order in the sandbox cashier from its order page; the entry number. */
async function pay(page: Page, orderNo: string): Promise<string> {
  await page.getByTestId(`order-${orderNo}`).waitFor();
  const entryNo = ((await page.getByTestId('order-lines').locator('tbody td').nth(1).textContent()) ?? '').trim();
  expect(entryNo).not.toBe('');
  await page.getByTestId('order-pay').click();
  await page.waitForURL(/\/pay\/sandbox\/cashier/);
  await page.locator('button.pay').click();
  await page.waitForURL(/\/my\/order\/.*\?paid=1/);
  await page.getByTestId('payment-success').waitFor();
  return entryNo;
}

async function tickAll(page: Page) {
  const count = seed.race.commitmentLetter.statements.length;
  for (let i = 0; i < count; i += 1) await page.getByTestId(`letter-statement-${i}`).check();
}

describe('the commitment letter', () => {
  it('an adult registers, pays and signs from the entry card’s link', async () => {
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1280, height: 900 } });
    const entryNo = await registerAndPay(page, ADULT);

    await page.goto(regArea('/my/my-index'));
    await page.getByTestId(`entry-${entryNo}`).getByTestId('entry-service-letter').click();
    await page.waitForURL(/\/my\/letter\?entryNo=/);
    const letter = page.getByTestId('letter-text');
    await expect(letter.locator('h2').textContent()).resolves.toBe(seed.race.commitmentLetter.title.zh);
    await page.getByTestId('letter-form').waitFor();
    expect(await page.getByTestId('letter-guardian').count()).toBe(0);
    expect(await rawKeysOn(page)).toEqual([]);
    await shot(page, 'h1-letter-form-zh');
    await expectAccessible(page, 'letter page (zh)');

    await tickAll(page);
    await page.getByTestId('letter-signer-name').fill(ADULT.name);
    await page.getByTestId('letter-sign').click();
    const signed = page.getByTestId('letter-signed');
    await signed.waitFor();
    await expect(signed.textContent()).resolves.toContain('已签署当前版本的承诺书');
    await expect(signed.textContent()).resolves.toContain(`签署人：${ADULT.name}`);
    expect(await page.getByTestId('letter-form').count()).toBe(0);
    await shot(page, 'h1-letter-signed-zh');

    await switchLanguage(page, 'en');
    await signed.getByText('You have signed the current version of the letter').waitFor();
    await expect(letter.locator('h2').textContent()).resolves.toBe(seed.race.commitmentLetter.title.en);
    expect(await rawKeysOn(page)).toEqual([]);
    await shot(page, 'h1-letter-signed-en');
    await expectAccessible(page, 'letter signed (en)');
    expect(await siteCli('letters-status', '--race', RACE_ID)).toContain('signed the current version');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a 15-year-old signs with a guardian; without the guardian the refusals show', async () => {
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1280, height: 900 } });
    const orderNo = await minorOrder();
    await page.goto(siteUrl('localhost', `/my/order/${orderNo}`));
    await loginInDrawer(page, 'zh', { phone: MINOR.phone, password: PASSWORD });
    const entryNo = await pay(page, orderNo);

    await switchLanguage(page, 'en');
    await page.goto(regArea(`/my/letter?entryNo=${entryNo}`));
    const guardian = page.getByTestId('letter-guardian');
    await guardian.waitFor();
    await tickAll(page);
    await page.getByTestId('letter-signer-name').fill(MINOR.name);
    await page.getByTestId('letter-sign').click();
    await expect(page.getByTestId('letter-error-guardian.name').textContent()).resolves.toBe(
      "Please enter the co-signer's name",
    );
    await page.getByTestId('letter-error-guardian.phone').waitFor();
    // Focus went to the first refused field (the guardian's name), scrolling the page: axe is run from the top,
    // where no field lies under the sticky menu bar (as in pick-up.e2e's pictures).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('letter-guardian-name');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'h1-letter-guardian-refused-en');
    await expectAccessible(page, 'letter guardian refused (en)');

    await page.getByTestId('letter-guardian-name').fill('小跑者爸爸');
    await page.getByTestId('letter-guardian-relation').fill('Father');
    await page.getByTestId('letter-guardian-phone').fill('13912345678');
    await page.getByTestId('letter-sign').click();
    const signedGuardian = page.getByTestId('letter-signed-guardian');
    await signedGuardian.waitFor();
    await expect(signedGuardian.textContent()).resolves.toBe('Guardian: 小跑者爸爸 (Father), phone 139****5678');
    await shot(page, 'h1-letter-guardian-signed-en');
    await switchLanguage(page, 'zh');
    await page
      .getByTestId('letter-signed-guardian')
      .getByText('监护人：小跑者爸爸（Father），电话 139****5678')
      .waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await shot(page, 'h1-letter-guardian-signed-zh');
    expect(errors).toEqual([]);
    await context.close();
  });
});
