/**
 * The sign-up draft in the browser (issue #28): the built SPA in Chromium against the real server. A runner
 * fills part of the demo race's public form, reloads the page (the browser asks first) and finds the form
 * filled again, except the certificate number and the phone numbers, which never go into browser storage.
 */
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, siteUrl, useBrowser } from './browser';
import { fromNow, publicFormLabel } from './demo-form';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir } from './test-server';

const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 1000).padStart(3, '0');
const PHONE = `1771${stamp}0021`;
const ID = '11010519491231002X';
/** The phone typed on the form (not the account's, which the login keeps). */
const FORM_PHONE = `1390${stamp}0021`;
const browser = useBrowser();

beforeAll(async () => {
  await addRace({ ...seed.race, signUpStartTime: fromNow(-2), signUpEndTime: fromNow(30), signUpOpenStatus: 1 });
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  await repos.users.create({ phone: PHONE, passwordHash: await hashPassword(PASSWORD) }, Date.now());
  await db.close();
});
// The test files share one server: the demo race goes back to its seeded settings for the files after this one.
afterAll(() => addRace(seed.race));

it('keeps a half-filled sign-up form over a reload, without the certificate number or the phone', async () => {
  const { context, page, errors } = await newPage(browser());
  await page.goto(siteUrl('localhost', '/my/signup'));
  await loginInDrawer(page, 'zh', { phone: PHONE, password: PASSWORD });
  await page.getByTestId('entry-choose-M').click();
  const people = page.getByTestId('entry-people');
  const field = (key: string) => people.getByLabel(publicFormLabel(key), { exact: true });
  await field('name').fill('陈一');
  await field('certificateNumber').fill(ID);
  await field('phone').fill(FORM_PHONE);
  await field('address').fill('中关村大街1号');
  await field('address').blur();

  // Reloading a changed form: the browser asks first (beforeunload); the runner goes on.
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  await page.getByTestId('entry-draft-restored').waitFor();
  expect(asked).toEqual(['beforeunload']);
  await expect.poll(() => field('name').inputValue()).toBe('陈一');
  expect(await field('address').inputValue()).toBe('中关村大街1号');
  expect(await field('certificateNumber').inputValue()).toBe('');
  expect(await field('phone').inputValue()).toBe('');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  expect(stored).toContain('陈一');
  expect(stored).not.toContain(ID);
  expect(stored).not.toContain(FORM_PHONE);
  expect(errors).toEqual([]);
  await context.close();
});
