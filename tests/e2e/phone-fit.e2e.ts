/**
 * What a runner sees on a 360 px phone in English and Chinese (issue 28 §4): on the mobile site, no text of the
 * header, the menu, the personal centre (the entry card's masked ID number), the sign-up form (the health-notes
 * counter beside its help) or the login sheet is clipped (scrollWidth <= clientWidth) or broken inside a number,
 * nothing overlaps the counter, and every control a finger taps there is at least 24 px high (WCAG 2.5.8;
 * inline links inside a sentence are exempt, as the criterion says), primary buttons at least 40 px.
 */
import type { Locator, Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { fromNow } from './demo-form';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 10_000).padStart(4, '0');
const PHONE = `1773${stamp}003`;
const ID = '110105199208081226';
const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';
const mobile = (hash: string) => `http://localhost:${serverPort()}/m/#${hash}`;

beforeAll(async () => {
  await addRace({ ...seed.race, signUpStartTime: fromNow(-2), signUpEndTime: fromNow(30), signUpOpenStatus: 1 });
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
      name: 'Alexandra Konstantinopoulou',
      gender: 2,
      birthday: '1992-08-08',
      certType: 1,
      certHash: `phone-fit-e2e-${now}`,
      certNumber: ID,
      phone: PHONE,
      values: {},
      feeFen: 8000,
      now,
    });
    await repos.entries.setStatus(entry.id, [0], 1, 'won', now);
  } finally {
    await db.close();
  }
});
// The test files share one server: the demo race goes back to its seeded settings for the files after this one.
afterAll(() => addRace(seed.race));

function phonePage() {
  return newPage(browser(), {
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent: PHONE_UA,
  });
}

/** Elements under `scope` whose own text is cut: wider content than their box, with the overflow hidden. */
function clippedIn(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const found: string[] = [];
    for (const el of [root, ...root.querySelectorAll('*')] as HTMLElement[]) {
      const text = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      if (!text || el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || el.closest('[aria-hidden="true"]')) continue;
      const hides = style.overflowX !== 'visible' || style.textOverflow === 'ellipsis';
      if (hides && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${el.tagName.toLowerCase()}.${el.className}: "${text}" ${el.scrollWidth}>${el.clientWidth}`);
      }
    }
    return found;
  });
}

/**
 * Controls under `scope` a finger taps that are under 24 px high (WCAG 2.5.8): links, buttons, inputs, tabs,
 * checkbox and radio labels, selects. A link inside a sentence (inline, with other text in its block) is exempt.
 */
function smallTargetsIn(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const selector = [
      'a[href]',
      'button',
      'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]):not([type="file"])',
      'textarea',
      '[role="tab"]',
      '[role="button"]',
      '.ant-checkbox-wrapper',
      '.ant-radio-wrapper',
      '.ant-radio-button-wrapper',
      '.ant-select-selector',
      '.ant-picker',
    ].join(',');
    const found: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>(selector)) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || el.closest('[aria-hidden="true"], [inert]')) continue;
      // Inputs inside antd wrappers: the wrapper is the target.
      if (
        el.matches('input, textarea') &&
        el.closest('.ant-input-affix-wrapper, .ant-select, .ant-picker, .ant-input-number')
      ) {
        continue;
      }
      if (el.matches('a') && style.display === 'inline') {
        const block = el.parentElement?.closest('p, li, div, span, label');
        const text = (block?.textContent ?? '').replace(el.textContent ?? '', '').trim();
        if (text.length > 0) continue;
      }
      // A tab's target is the whole tab (antd puts its role on the label inside); an input's, its wrapper.
      const target = el.matches('[role="tab"]')
        ? (el.closest('.ant-tabs-tab') ?? el)
        : el.matches('input, textarea')
          ? (el.closest('.ant-input-affix-wrapper') ?? el)
          : el;
      const height = target.getBoundingClientRect().height;
      if (height < 24) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? el.getAttribute('placeholder') ?? '').trim();
        found.push(
          `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} "${name.slice(0, 40)}" ${height.toFixed(1)} px`,
        );
      }
    }
    return found;
  });
}

/** The number of lines an element's text takes. */
const linesOf = (locator: Locator) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const boxes = [...range.getClientRects()].filter((r) => r.width > 0).sort((x, y) => x.top - y.top);
    let lines = 0;
    let bottom = -Infinity;
    for (const box of boxes) {
      if (box.top >= bottom - 1) lines += 1;
      bottom = Math.max(bottom, box.bottom);
    }
    return lines;
  });

/** What does not fit, by the state it was found in (all states are looked at before the test fails). */
async function misfits(page: Page, scope: Locator, what: string): Promise<string[]> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  return [
    ...(await clippedIn(scope)).map((x) => `${what}: clipped ${x}`),
    ...(await smallTargetsIn(scope)).map((x) => `${what}: under 24 px ${x}`),
    ...(width > 360 ? [`${what}: the page is ${width} px wide`] : []),
  ];
}

describe('a 360 px phone', () => {
  for (const lang of ['en', 'zh'] as const) {
    it(`fits the header, menu, login sheet, personal centre and sign-up form (${lang})`, async () => {
      const { context, page, errors } = await phonePage();
      const found: string[] = [];
      await context.addCookies([{ name: 'language', value: lang, url: `http://localhost:${serverPort()}` }]);

      // The login sheet.
      await page.goto(mobile('/home'));
      await page.getByTestId('login-entry').click();
      const drawer = page.getByTestId('login-drawer');
      await drawer.getByRole('tab').first().waitFor();
      found.push(...(await misfits(page, drawer, `${lang} login sheet`)));
      await screenshot(page, `phone-fit-login-${lang}`);
      await loginInDrawer(page, lang, { phone: PHONE, password: PASSWORD });

      // The header and the menu, logged in ("Personal Centre").
      const header = page.getByTestId('mobile-top-bar');
      found.push(...(await misfits(page, header, `${lang} header`)));
      await page.getByTestId('mobile-menu-button').click();
      const menu = page.getByTestId('mobile-menu-sheet');
      await menu.waitFor();
      found.push(...(await misfits(page, menu, `${lang} menu`)));
      await screenshot(page, `phone-fit-menu-${lang}`);
      await menu.getByTestId('mobile-menu-close').click();

      // The personal centre: the entry card with its masked ID number on one line.
      await page.goto(mobile('/my/my-index'));
      const centre = page.getByTestId('my-index-page');
      await centre.waitFor();
      const masked = centre.getByText('1101**********1226', { exact: true });
      await masked.waitFor();
      if ((await linesOf(masked)) !== 1) found.push(`${lang}: the masked ID number takes two lines`);
      found.push(...(await misfits(page, centre, `${lang} personal centre`)));
      await screenshot(page, `phone-fit-centre-${lang}`);

      // The sign-up form of the marathon: the health-notes counter beside its help, nothing overlapping.
      await page.goto(mobile('/my/signup'));
      await page.getByTestId('entry-choose-M').click();
      const people = page.getByTestId('entry-people');
      await people.waitFor();
      const notes = page.locator('.ant-form-item').filter({ has: page.locator('#entry-person-0_medicalNotes_label') });
      await notes.scrollIntoViewIfNeeded();
      const overlap = await notes.evaluate((item) => {
        const count = item.querySelector('.ant-input-data-count');
        const help = item.querySelector('.ant-form-item-extra, .ant-form-item-explain, .rs-field-help, [id$="_help"]');
        if (!count || !help) return `counter ${!!count}, help ${!!help}`;
        const a = count.getBoundingClientRect();
        const b = help.getBoundingClientRect();
        const apart = a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5 || a.right <= b.left || b.right <= a.left;
        return apart ? null : `counter ${JSON.stringify(a)} over help ${JSON.stringify(b)}`;
      });
      if (overlap) found.push(`${lang} health-notes counter: ${overlap}`);
      found.push(...(await misfits(page, people, `${lang} sign-up form`)));
      await screenshot(page, `phone-fit-sign-up-${lang}`);
      expect(found).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
