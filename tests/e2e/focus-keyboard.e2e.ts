/**
 * Focus and keyboard (issue 28 §3), on the desktop site and on the mobile site at 360 px: Shift+Tab onto a
 * link just under the sticky top bar brings it into view below the bar (scroll-padding-top); the birthday of a
 * saved participant and of the sign-up form is typed with the keyboard on both sites; the commitment letter's
 * refusals are tied to their fields, said by an alert (in Chinese and English) and focus goes to the first
 * refused field; the pick-up confirmation follows its slot's button in the page and takes the focus; and focus
 * never drops to <body>: after signing the letter it is on the signature, after booking on the pass, after a
 * refund request on the entry's new state, after saving a participant on their card, and after the delete
 * dialog closes on the add button.
 */
import type { Locator, Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { idCard } from '../../server/src/db/seed-runners';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, useBrowser } from './browser';
import { letterVersionHash, type CommitmentLetterSettings } from '../../contract/after-entry';
import { API_PATHS } from '../../contract/api';
import { fromNow, publicFormLabel, switchLanguage } from './demo-form';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 10_000).padStart(4, '0');

const LAYOUTS = {
  desktop: { base: '/reg/', options: { viewport: { width: 1280, height: 900 } } },
  phone: {
    base: '/m/',
    options: {
      viewport: { width: 360, height: 740 },
      userAgent:
        'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
      isMobile: true,
      hasTouch: true,
    },
  },
} as const;
type Layout = keyof typeof LAYOUTS;

beforeAll(async () => {
  // Sign-up, the letter, pick-up booking and refunds open now, whatever today's date.
  await addRace({
    ...seed.race,
    signUpStartTime: fromNow(-2),
    signUpEndTime: fromNow(30),
    signUpOpenStatus: 1,
    commitmentLetter: { ...seed.race.commitmentLetter, deadline: fromNow(20) },
    packPickup: { ...seed.race.packPickup, deadline: fromNow(20) },
    entry: { ...seed.race.entry, refunds: { ...seed.race.entry.refunds, until: fromNow(20) } },
  });
});
// The test files share one server: the demo race goes back to its seeded settings for the files after this one.
afterAll(() => addRace(seed.race));

let runners = 0;
/** A new account with a paid 10 km entry (its letter unsigned), as a paid submission leaves it. */
async function seedRunner(): Promise<{ phone: string; password: string; name: string; entryNo: string }> {
  runners += 1;
  const phone = `1775${stamp}${String(runners).padStart(3, '0')}`;
  const name = '焦点跑者';
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create({ phone, passwordHash: await hashPassword(PASSWORD) }, now);
    const id = idCard(`1101081991030${stamp}`.slice(0, 17));
    const entry = await repos.entries.insertEntry({
      raceId: RACE_ID,
      itemCode: '10K',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name,
      gender: 1,
      birthday: '1991-03-03',
      certType: 1,
      certHash: `focus-e2e-${phone}`,
      certNumber: id,
      phone,
      values: {},
      feeFen: 8000,
      now: now - 10 * 3_600_000,
    });
    const order = await repos.orders.create({
      raceId: RACE_ID,
      userId,
      amountFen: 8000,
      deadlineAt: now - 9 * 3_600_000,
      createdAt: now - 10 * 3_600_000,
      lines: [{ entryId: entry.id, amountFen: 8000 }],
    });
    await repos.orders.markPaid(order.id, { paidFen: 8000, paidAt: now - 9 * 3_600_000, serialNo: `SB${phone}` });
    await repos.entries.setStatus(entry.id, [0], 1, 'won', now - 9 * 3_600_000);
    expect(await repos.entries.takePlace(RACE_ID, '10K', 'main', 1)).toBe(true);
    return { phone, password: PASSWORD, name, entryNo: entry.entryNo };
  } finally {
    await db.close();
  }
}

/** A page of the layout, logged in as the runner (the page needs login: the drawer opens on arrival). */
async function openLoggedIn(layout: Layout, hash: string, runner: { phone: string; password: string }, lang = 'zh') {
  const { base, options } = LAYOUTS[layout];
  const { context, page, errors } = await newPage(browser(), options);
  const origin = `http://localhost:${serverPort()}`;
  await context.addCookies([{ name: 'language', value: lang, url: origin }]);
  await page.goto(`${origin}${base}#${hash}`);
  await loginInDrawer(page, lang as 'zh' | 'en', runner);
  return { context, page, errors };
}

/** Waits until `target` has the focus (it may move a frame or two after the action), then checks it is not <body>. */
async function expectFocusOn(page: Page, target: Locator, what: string) {
  const handle = await target.elementHandle();
  try {
    await page.waitForFunction((el) => el === document.activeElement, handle);
  } catch {
    const active = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120) ?? 'none');
    throw new Error(`${what}: focus is on ${active}`);
  }
  expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
}

/** Tabs from the focused element until `target` has the focus (at most 40 presses). */
async function tabTo(page: Page, target: Locator) {
  const handle = await target.elementHandle();
  for (let i = 0; i < 40; i += 1) {
    if (await page.evaluate((el) => el === document.activeElement, handle)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the element');
}

describe.each(['desktop', 'phone'] as const)('focus and keyboard on the %s site', (layout) => {
  it('Shift+Tab onto a link under the sticky top bar brings it into view below the bar', async () => {
    const { base, options } = LAYOUTS[layout];
    const { context, page } = await newPage(browser(), options);
    await page.goto(`http://localhost:${serverPort()}${base}#/home`);
    const bar = page.locator(layout === 'phone' ? '[data-testid="mobile-top-bar"]' : '[data-testid="site-menu"]');
    await bar.waitFor();
    await page.getByTestId('site-footer').waitFor();
    // A link below the first screen with a screen of page below it: it is scrolled to lie under the bar, and
    // Shift+Tab comes back to it from the next element in the Tab order.
    // Asked again until there is one: the page's sections arrive one after another, and until they have, no
    // link lies a screen below the first with a screen below it.
    await expect
      .poll(() =>
        page.evaluate(() => {
          if (document.querySelector('[data-under-bar]')) return true;
          const link = [
            ...document.querySelectorAll<HTMLElement>('#main-content a[href], [data-testid="main"] a[href]'),
          ].find((el) => {
            const top = el.getBoundingClientRect().top + window.scrollY;
            return (
              el.offsetHeight > 0 && top > window.innerHeight && top + window.innerHeight < document.body.scrollHeight
            );
          });
          link?.setAttribute('data-under-bar', '');
          return link !== undefined;
        }),
      )
      .toBe(true);
    const first = page.locator('[data-under-bar]');
    await first.focus();
    await page.keyboard.press('Tab');
    const second = await page.evaluateHandle(() => document.activeElement as HTMLElement);
    const barBottom = (await bar.boundingBox())!.y + (await bar.boundingBox())!.height;
    await first.evaluate((el, under) => {
      window.scrollBy(0, el.getBoundingClientRect().top - under);
    }, barBottom - 20);
    const hidden = (await first.boundingBox())!;
    expect(hidden.y).toBeLessThan(barBottom);
    await second.evaluate((el) => el.focus({ preventScroll: true }));
    await page.keyboard.press('Shift+Tab');
    await expectFocusOn(page, first, 'Shift+Tab');
    const shown = (await first.boundingBox())!;
    const barNow = (await bar.boundingBox())!;
    expect(shown.y).toBeGreaterThanOrEqual(barNow.y + barNow.height);
    await context.close();
  });

  it('types a birthday with the keyboard alone, in a saved participant and in the sign-up form, by the same rules', async () => {
    const runner = await seedRunner();
    const { context, page, errors } = await openLoggedIn(layout, '/my/participants', runner);
    const centre = page.getByTestId('participants-page');
    await centre.getByTestId('participants-add').click();
    await page.mouse.move(0, 0);
    const form = centre.getByTestId('participant-form');
    const birthday = form.getByLabel('出生日期', { exact: true });
    // From the field before it, Tab reaches the birthday; a date typed there is taken, as on the desktop site.
    await form.getByLabel('证件号码', { exact: true }).focus();
    await tabTo(page, birthday);
    // A date after today is refused, as by the calendar: the field stays empty.
    await page.keyboard.type('2999-01-01');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    // The picker puts the refused text back to its value one animation frame after the field is left.
    await expect.poll(() => birthday.inputValue()).toBe('');
    await birthday.focus();
    await page.keyboard.type('1992-08-16');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(birthday.inputValue()).resolves.toBe('1992-08-16');
    await context.close();

    // The sign-up form's birthday (the demo race's public form, 10 km).
    const signUp = await openLoggedIn(layout, '/my/signup', runner);
    await signUp.page.getByTestId('entry-choose-10K').click();
    // The pointer leaves the form: a keyboard user's pointer is not over the calendar (its cells preview a date).
    await signUp.page.mouse.move(0, 0);
    const people = signUp.page.getByTestId('entry-people');
    const entryBirthday = people.getByLabel(publicFormLabel('birthday'), { exact: true });
    await people.getByLabel(publicFormLabel('certificateNumber'), { exact: true }).focus();
    await tabTo(signUp.page, entryBirthday);
    await signUp.page.keyboard.type('1990-06-15');
    await signUp.page.keyboard.press('Enter');
    await signUp.page.keyboard.press('Tab');
    await expect(entryBirthday.inputValue()).resolves.toBe('1990-06-15');
    expect([...errors, ...signUp.errors]).toEqual([]);
    await signUp.context.close();
  });

  it("ties the letter's refusals to their fields, says them in an alert, focuses the first; signed, focus is on the signature", async () => {
    const runner = await seedRunner();
    const { context, page, errors } = await openLoggedIn(layout, `/my/letter?entryNo=${runner.entryNo}`, runner);
    const form = page.getByTestId('letter-form');
    await form.waitFor();
    const firstStatement = form.locator('input[type="checkbox"]').first();
    const name = form.locator('#letter-signer-name');
    /** The text of the element a field's aria-describedby names. */
    const description = (field: Locator) =>
      field.evaluate((el) =>
        (el.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
          .trim(),
      );
    const alert = page.getByTestId('letter-failure');
    for (const lang of ['zh', 'en'] as const) {
      // The Chinese round's alert is still there when the click returns (the form submits once antd has
      // validated it, a moment later): the English round waits for that alert to go, then for its own.
      const previous = lang === 'en' ? await alert.elementHandle() : null;
      if (lang === 'en') await switchLanguage(page, 'en');
      await form.getByTestId('letter-sign').click();
      if (previous) await page.waitForFunction((element) => !element.isConnected, previous);
      await alert.waitFor();
      await expect(alert.getAttribute('role')).resolves.toBe('alert');
      const said = (await alert.textContent()) ?? '';
      expect(said.length).toBeGreaterThan(0);
      expect(/[\u4e00-\u9fff]/.test(said), `${lang}: ${said}`).toBe(lang === 'zh');
      // Focus on the first refused field, which names its message.
      await expectFocusOn(page, firstStatement, `${lang}: after a refused signing`);
      await expect(firstStatement.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(description(firstStatement)).resolves.toBe(
        await page.getByTestId('letter-error-accepted').textContent(),
      );
      await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(description(name)).resolves.toBe(await page.getByTestId('letter-error-signerName').textContent());
    }
    // Put right: the name's message goes with its error; then signed, focus moves to the signature.
    await name.fill(runner.name);
    await expect(name.getAttribute('aria-invalid')).resolves.toBeNull();
    for (const box of await form.locator('input[type="checkbox"]').all()) await box.check();
    await form.getByTestId('letter-sign').click();
    await expectFocusOn(page, page.getByTestId('letter-signed'), 'after signing');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('puts the pick-up confirmation right after the slot, focuses its button, and after booking focuses the pass', async () => {
    const runner = await seedRunner();
    const { context, page, errors } = await openLoggedIn(layout, `/my/pickup?entryNo=${runner.entryNo}`, runner);
    // The letter signed (the letter page's call), so the entry may book.
    const letter = seed.race.commitmentLetter as unknown as CommitmentLetterSettings;
    const answer = await page.evaluate(
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
          signerName: runner.name,
        },
      },
    );
    expect(answer.code, answer.msg).toBe(0);
    await page.reload();
    const pickup = page.getByTestId('pickup-page');
    await pickup.getByTestId('pickup-day-2027-04-16').click();
    const slot = pickup.getByTestId('pickup-slot-2027-04-16 11:00');
    const book = slot.getByTestId('pickup-book');
    await book.focus();
    await page.keyboard.press('Enter');
    const ok = slot.locator('.ant-popconfirm .ant-btn-primary');
    await expectFocusOn(page, ok, 'the confirmation opened');
    // In the page's order: inside the slot, before the footer.
    const beforeFooter = await ok.evaluate(
      (el) =>
        (el.compareDocumentPosition(document.querySelector('[data-testid="site-footer"]')!) &
          Node.DOCUMENT_POSITION_FOLLOWING) !==
        0,
    );
    expect(beforeFooter).toBe(true);
    // Escape closes it and gives focus back to the slot's button; opened again, focus is on its button again.
    await page.keyboard.press('Escape');
    await expectFocusOn(page, book, 'the confirmation closed');
    await page.keyboard.press('Enter');
    await expectFocusOn(page, ok, 'the confirmation opened again');
    await page.keyboard.press('Enter');
    await pickup.getByTestId('pickup-pass').waitFor();
    await expectFocusOn(page, page.locator('#pickup-pass-title'), 'after booking');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("after a refund request is confirmed, focus is on the entry's new state", async () => {
    const runner = await seedRunner();
    const { context, page, errors } = await openLoggedIn(layout, `/my/refund?entryNo=${runner.entryNo}`, runner);
    const entry = page.getByTestId(`refund-entry-${runner.entryNo}`);
    await entry.getByTestId('refund-reason').fill('行程有变，无法参赛');
    await entry.getByTestId('refund-request').click();
    await page.getByTestId('refund-confirm-ok').click();
    await expectFocusOn(page, entry.getByTestId('refund-blocked-inReview'), 'after the refund request');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('after saving a participant focus is on their card; after the delete dialog closes, on the add button', async () => {
    const runner = await seedRunner();
    const { context, page, errors } = await openLoggedIn(layout, '/my/participants', runner);
    const centre = page.getByTestId('participants-page');
    await centre.getByTestId('participants-add').click();
    const form = centre.getByTestId('participant-form');
    // A man born 1988-05-20 (the 17th digit odd), with its check digit.
    const id = idCard(`1101051988052${stamp.slice(0, 3)}1`);
    await form.getByLabel('姓名', { exact: true }).fill('焦点参赛人');
    await form.getByText('男', { exact: true }).click();
    await form.getByLabel('证件号码', { exact: true }).fill(id);
    const birthday = form.getByLabel('出生日期', { exact: true });
    await birthday.click();
    await birthday.fill('1988-05-20');
    await birthday.press('Enter');
    await form.getByLabel('手机号', { exact: true }).fill(`1362${stamp}004`);
    await form.getByLabel('紧急联系人姓名', { exact: true }).fill('赵六');
    await form.getByLabel('紧急联系人电话', { exact: true }).fill(`1352${stamp}005`);
    await form.getByTestId('participant-save').click();
    const card = centre.locator('[data-testid^="participant-"]').filter({ hasText: '焦点参赛人' }).first();
    await expectFocusOn(page, card.locator('h2'), 'after saving');

    await card.getByTestId('participant-delete').click();
    await page.getByTestId('participants-delete-ok').click();
    // The list empties; a refused delete keeps the card and says why in a toast, which the failure then names.
    const refused = page.locator('.ant-message-error');
    await centre.getByTestId('participants-empty').or(refused).first().waitFor();
    expect(await refused.count(), `the delete was refused: ${await refused.allTextContents()}`).toBe(0);
    await expectFocusOn(page, centre.getByTestId('participants-add'), 'after the delete dialog closed');
    expect(errors).toEqual([]);
    await context.close();
  });
});
