/**
 * Saved participants end to end (issue 15 §3): the built SPA in Chromium against the real server. A runner adds
 * an adult participant on /my/participants (the list then shows the numbers masked, the age and the adult tag),
 * opens the sign-up page for the demo race's 10 km, picks the participant (name, gender, certificate, birthday,
 * phone and emergency contact filled in, the numbers masked), fills the rest of the public form and submits; the
 * personal centre then lists the entry under the participant's name with the certificate masked, and the entry
 * keeps the full number. Seen in Chinese and English with screenshots and axe.
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import publicForm from '../../server/seed/registration-forms/qc-marathon-2027.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser, passEntrySlider } from './browser';
import { expectAccessible, fromNow, PHOTO, pickMainlandChina, pickRegion, switchLanguage, upload } from './demo-form';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 10_000).padStart(4, '0');
const PHONE = `1773${stamp}003`;
const PERSON = {
  name: '常用参赛人',
  // A woman born 1992-08-16 (the 17th digit even), with its check digit.
  id: idNumber('11010519920816002'),
  birthday: '1992-08-16',
  phone: `1361${stamp}004`,
  emergencyName: '赵六',
  emergencyPhone: `1351${stamp}005`,
};
const MASKED_ID = `${PERSON.id.slice(0, 4)}**********${PERSON.id.slice(-4)}`;
const regArea = (hash: string) => `http://localhost:${serverPort()}/reg/#${hash}`;
const formLabel = (key: string) => publicForm.fields.find((f) => f.key === key)!.label.zh;

/** The check digit of a mainland ID number (GB 11643). */
function idNumber(body17: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body17].reduce((s, d, i) => s + Number(d) * weights[i]!, 0);
  return body17 + '10X98765432'[sum % 11];
}

/** A screenshot of the page from its top, without the passing toasts. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.addStyleTag({ content: '.ant-message { display: none !important; }' });
  await screenshot(page, `participants-${name}`);
}

beforeAll(async () => {
  // The demo race open for sign-up (the test files share one server: restored afterwards).
  await addRace({ ...seed.race, signUpStartTime: fromNow(-2), signUpEndTime: fromNow(30), signUpOpenStatus: 1 });
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  await repos.users.create({ phone: PHONE, passwordHash: await hashPassword(PASSWORD) }, Date.now());
  await db.close();
});
afterAll(() => addRace(seed.race));

/** The Form.Item of a field of the sign-up person's form, by its key. */
const item = (page: Page, key: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator(`#entry-person-0_${key}_label`) });

describe('saved participants', () => {
  it('a runner saves an adult participant, picks them on the sign-up page for 10 km, and sees the entry under their name', async () => {
    const { context, page, errors } = await newPage(browser(), { viewport: { width: 1280, height: 900 } });

    // Add the participant in the personal centre.
    await page.goto(regArea('/my/participants'));
    await loginInDrawer(page, 'zh', { phone: PHONE, password: PASSWORD });
    const centre = page.getByTestId('participants-page');
    await centre.getByTestId('participants-empty').waitFor();
    await centre.getByTestId('participants-add').click();
    const form = centre.getByTestId('participant-form');
    await form.getByLabel('姓名', { exact: true }).fill(PERSON.name);
    await form.getByText('女', { exact: true }).click();
    await form.getByLabel('证件号码', { exact: true }).fill(PERSON.id);
    const birthday = form.getByLabel('出生日期', { exact: true });
    await birthday.click();
    await birthday.fill(PERSON.birthday);
    await birthday.press('Enter');
    await form.getByLabel('手机号', { exact: true }).fill(PERSON.phone);
    await form.getByLabel('紧急联系人姓名', { exact: true }).fill(PERSON.emergencyName);
    await form.getByLabel('紧急联系人电话', { exact: true }).fill(PERSON.emergencyPhone);
    await shot(page, 'form-zh');
    await form.getByTestId('participant-save').click();
    const card = centre.locator('[data-testid^="participant-"]').filter({ hasText: PERSON.name }).first();
    await card.getByTestId('participant-certificate').getByText(MASKED_ID).waitFor();
    await expect(card.getByTestId('participant-adult').textContent()).resolves.toBe('成年');
    await expect(card.getByTestId('participant-phone').textContent()).resolves.toMatch(/^136\*{4}\d{4}$/);
    expect(await rawKeysOn(page)).toEqual([]);
    await shot(page, 'list-zh');
    await expectAccessible(page, 'my participants (zh)');
    await switchLanguage(page, 'en');
    await card.getByTestId('participant-adult').getByText('Adult').waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await shot(page, 'list-en');
    await expectAccessible(page, 'my participants (en)');
    await switchLanguage(page, 'zh');

    // Sign up for 10 km with the saved participant.
    await page.goto(siteUrl('localhost', '/my/signup'));
    await page.getByTestId('entry-choose-10K').click();
    const people = page.getByTestId('entry-people');
    const picker = people.getByTestId('saved-participant-picker');
    await picker.waitFor();
    await picker.getByTestId('saved-participant-select').selectOption({ label: `${PERSON.name}（${MASKED_ID}）` });
    await expect(people.getByLabel(formLabel('name'), { exact: true }).inputValue()).resolves.toBe(PERSON.name);
    await expect(people.getByLabel(formLabel('certificateNumber'), { exact: true }).inputValue()).resolves.toBe(
      MASKED_ID,
    );
    await expect(item(page, 'gender').getByRole('radio', { name: '女' }).isChecked()).resolves.toBe(true);
    await shot(page, 'sign-up-picked-zh');
    await expectAccessible(page, 'sign-up with a saved participant (zh)');
    await switchLanguage(page, 'en');
    await picker.getByText('Choose from my participants').waitFor();
    expect(await rawKeysOn(page)).toEqual([]);
    await shot(page, 'sign-up-picked-en');
    await switchLanguage(page, 'zh');
    // The rest of the public form, by hand.
    await people.getByLabel(formLabel('email'), { exact: true }).fill(`${PHONE}@example.com`);
    await pickMainlandChina(page, people.getByLabel(formLabel('nationality'), { exact: true }));
    await pickRegion(page, people.getByLabel(formLabel('region'), { exact: true }));
    await people.getByLabel(formLabel('address'), { exact: true }).fill('中关村大街1号');
    await people.getByLabel(formLabel('bloodType'), { exact: true }).click();
    await page.locator('.ant-select-item-option:visible').filter({ hasText: 'O型' }).click();
    await item(page, 'tshirtSize').locator('label.rs-size-card').filter({ hasText: 'M（170/88A）' }).click();
    await upload(page, item(page, 'photo'), PHOTO);
    await people.getByRole('button', { name: '保存此参赛者' }).click();
    await people.getByTestId('entry-person-0').getByText(PERSON.name).waitFor();
    await passEntrySlider(page);
    await page.getByTestId('entry-submit').click();
    await page.waitForURL(/#\/my\/order\//);

    // The personal centre lists the entry under the participant's name, the certificate masked.
    await page.goto(regArea('/my/my-index'));
    const entry = page.locator('[data-testid^="entry-"]').filter({ hasText: PERSON.name }).first();
    await entry.getByTestId('entry-certificate').getByText(MASKED_ID).waitFor();
    await shot(page, 'my-index-zh');
    expect(errors).toEqual([]);
    await context.close();

    // The entry keeps the participant's full numbers (the masked ones were filled in by the server).
    const { db, repos } = await openDatabase({
      dataDir: serverDataDir(),
      seedDir: `${repoRoot}/server/seed`,
      now: Date.now(),
    });
    try {
      const user = (await repos.users.findByPhone(PHONE))!;
      const [made] = await repos.entries.listForUser(user.id);
      expect(made).toMatchObject({ itemCode: '10K', name: PERSON.name, certNumber: PERSON.id, phone: PERSON.phone });
    } finally {
      await db.close();
    }
  });
});
