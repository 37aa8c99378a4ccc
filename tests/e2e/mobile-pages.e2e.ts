/**
 * The public pages on the mobile site (#16): home and every page of the demo menu, opened at /m/#/… on a
 * phone (360×740 and 430×932, touch, a phone's user agent) in both languages. No page scrolls sideways and
 * no element is wider than the screen; axe finds nothing serious or critical on the home page and on one
 * page of each kind (document, news, partners, photos, videos). Then a runner's pages after entry at 360 px,
 * in both languages: the order, the pick-up pass with its QR code, the refund request, my participants and
 * their form, /post telling of the pick-up booked, and the public ballot page; paying an order in the sandbox
 * cashier comes back to the order on the mobile site.
 */
import type { Page } from 'playwright-core';
import { letterVersionHash, type CommitmentLetterSettings } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import type { SiteConfig } from '#contract/site-config/schema';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { axeFindings, blocking, type AxeFinding } from './axe';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { repoRoot } from './server-process';
import { fetchSiteConfig, menuPages, menuPageText, type MenuPage } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const PHONES = [
  {
    name: '360',
    viewport: { width: 360, height: 740 },
    userAgent:
      'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
  },
  {
    name: '430',
    viewport: { width: 430, height: 932 },
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  },
] as const;

const browser = useBrowser();
let config: SiteConfig;
beforeAll(async () => {
  config = await fetchSiteConfig();
});

/**
 * How the page is wider than the screen: the page's own scroll width, and the visible elements that reach
 * past either edge without a scrolling box of their own that holds them (a sideways bar, a wide table).
 * Also the visible text fields typing under 16 px (iOS Safari zooms the page into such a field).
 */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const wide: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || (box.right <= width + 1 && box.left >= -1)) continue;
      let held = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX !== 'visible' || style.position === 'fixed') {
          const upBox = up.getBoundingClientRect();
          held = upBox.right <= width + 1 && upBox.left >= -1;
          if (held) break;
        }
      }
      if (!held && getComputedStyle(el).visibility !== 'hidden') {
        wide.push(`${el.tagName.toLowerCase()}.${el.className} [${Math.round(box.left)}, ${Math.round(box.right)}]`);
      }
    }
    const smallFields = [...document.querySelectorAll<HTMLElement>('input, textarea, select')]
      .filter((f) => !['checkbox', 'radio', 'hidden', 'file'].includes(f.getAttribute('type') ?? ''))
      .filter((f) => f.getBoundingClientRect().width > 0 && parseFloat(getComputedStyle(f).fontSize) < 16)
      .map((f) => `${f.tagName.toLowerCase()}.${f.className} ${getComputedStyle(f).fontSize}`);
    return { scrollWidth: document.scrollingElement!.scrollWidth, width, wide: wide.slice(0, 8), smallFields };
  });
}

/** One page of each kind gets an axe run (a run takes a second or two; every page gets the width checks). */
function axePages(pages: MenuPage[]): Set<string> {
  const picked = new Map<string, string>();
  for (const p of pages) if (!picked.has(p.item.component!)) picked.set(p.item.component!, p.path);
  return new Set(picked.values());
}

describe.each(['zh', 'en'] as const)('the public pages on the mobile site (%s)', (lang) => {
  it.each(PHONES)('fit a $name px phone: home and every menu page', async (phone) => {
    const { context, page, errors } = await newPage(browser(), {
      viewport: phone.viewport,
      userAgent: phone.userAgent,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const origin = `http://localhost:${serverPort()}`;
    await context.addCookies([{ name: 'language', value: lang, url: origin }]);
    const pages = menuPages(config);
    expect(pages.length).toBeGreaterThan(15);
    const withAxe = axePages(pages);
    const findings: AxeFinding[] = [];

    await page.goto(`${origin}/m/#/home`);
    await page.getByTestId('main').locator('.search-modules').waitFor();
    await expect(page.evaluate(() => document.documentElement.dataset.site)).resolves.toBe('mobile');
    // The home page's modules lower down render as they come near the screen: scroll through it once.
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
    await page.waitForTimeout(300);
    expect(await overflow(page), '/home').toMatchObject({
      scrollWidth: phone.viewport.width,
      wide: [],
      smallFields: [],
    });
    if (phone.name === '360') {
      // Back at the top: a target scrolled under the sticky top bar would count as too small a target.
      await page.evaluate(() => window.scrollTo(0, 0));
      findings.push(...(await axeFindings(page, `${lang} /home`)));
      await screenshot(page, `mobile-home-${lang}`);
    }

    for (const target of pages) {
      await page.evaluate((hash) => {
        window.location.hash = hash;
        window.scrollTo(0, 0);
      }, target.path);
      const text = menuPageText(config, target, lang);
      await page.getByTestId('main').getByText(text, { exact: false }).first().waitFor();
      expect(await overflow(page), target.path).toMatchObject({
        scrollWidth: phone.viewport.width,
        wide: [],
        smallFields: [],
      });
      if (phone.name === '360' && withAxe.has(target.path)) {
        findings.push(...(await axeFindings(page, `${lang} ${target.path}`)));
        if (['DocumentPage', 'NewsPage'].includes(target.item.component!)) {
          await screenshot(page, `mobile-${target.item.component!.replace('Page', '').toLowerCase()}-${lang}`);
        }
      }
    }
    expect(blocking(findings)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the preview screen on the mobile site', () => {
  it('fits a 360 px phone (a host with no race bound)', async () => {
    const phone = PHONES[0];
    const { context, page, errors } = await newPage(browser(), {
      viewport: phone.viewport,
      userAgent: phone.userAgent,
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(`http://127.0.0.1:${serverPort()}/m/#/home`);
    await page.locator('.preview').waitFor();
    expect(await overflow(page)).toMatchObject({ scrollWidth: phone.viewport.width, wide: [], smallFields: [] });
    expect(blocking(await axeFindings(page, 'preview'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

// A runner of this file's own (a paid 10 km entry of the demo race), so no other test's account changes.
const RUNNER = {
  phone: `1776${String(Date.now() % 10_000).padStart(4, '0')}016`,
  password: 'Runner2027',
  name: '欧阳领物',
};

/**
 * The runner's account, its won 10 km entry and the paid order, put into the database as payment leaves them,
 * and a second 10 km entry (for another person) whose order awaits payment.
 */
async function seedRunner(): Promise<{ entryNo: string; orderNo: string; unpaidOrderNo: string }> {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create(
      { phone: RUNNER.phone, passwordHash: await hashPassword(RUNNER.password) },
      now,
    );
    const entry = await repos.entries.insertEntry({
      raceId: seed.race.raceId,
      itemCode: '10K',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name: RUNNER.name,
      gender: 1,
      birthday: '1991-03-03',
      certType: 1,
      certHash: `mobile-pages-e2e-${now}`,
      certNumber: '110105199103031237',
      phone: RUNNER.phone,
      values: {},
      feeFen: 8000,
      now: now - 10 * 3_600_000,
    });
    const order = await repos.orders.create({
      raceId: seed.race.raceId,
      userId,
      amountFen: 8000,
      deadlineAt: now - 9 * 3_600_000,
      createdAt: now - 10 * 3_600_000,
      lines: [{ entryId: entry.id, amountFen: 8000 }],
    });
    await repos.orders.markPaid(order.id, { paidFen: 8000, paidAt: now - 9 * 3_600_000, serialNo: `SB${now}` });
    await repos.entries.setStatus(entry.id, [0], 1, 'won', now - 9 * 3_600_000);
    expect(await repos.entries.takePlace(seed.race.raceId, '10K', 'main', 1)).toBe(true);
    const unpaid = await repos.entries.insertEntry({
      raceId: seed.race.raceId,
      itemCode: '10K',
      channel: 'public',
      userId,
      status: 0,
      holdsPlace: true,
      name: '林待付',
      gender: 2,
      birthday: '1992-08-08',
      certType: 1,
      certHash: `mobile-pages-e2e-unpaid-${now}`,
      certNumber: '110105199208081226',
      phone: RUNNER.phone,
      values: {},
      feeFen: 8000,
      now,
    });
    const unpaidOrder = await repos.orders.create({
      raceId: seed.race.raceId,
      userId,
      amountFen: 8000,
      deadlineAt: now + 30 * 60_000,
      createdAt: now,
      lines: [{ entryId: unpaid.id, amountFen: 8000 }],
    });
    return { entryNo: entry.entryNo, orderNo: order.orderNo, unpaidOrderNo: unpaidOrder.orderNo };
  } finally {
    await db.close();
  }
}

/** A call of the SPA's API with the logged-in runner's token; it must succeed. */
async function call(page: Page, url: string, body: unknown): Promise<void> {
  const answer = await page.evaluate(
    async ({ url, body }) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token: localStorage.getItem('token') ?? '' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { code: number; msg: string };
    },
    { url, body },
  );
  expect(answer.code, `${url}: ${answer.msg}`).toBe(0);
}

describe("a runner's pages after entry on the mobile site", () => {
  it('fit a 360 px phone and pass axe in both languages: order, pick-up pass, refund, participants, /post, ballot; paying comes back to the mobile site', async () => {
    const runner = await seedRunner();
    const phone = PHONES[0];
    const { context, page, errors } = await newPage(browser(), {
      viewport: phone.viewport,
      userAgent: phone.userAgent,
      isMobile: true,
      hasTouch: true,
    });
    const origin = `http://localhost:${serverPort()}`;
    await context.addCookies([{ name: 'language', value: 'zh', url: origin }]);
    await page.goto(`${origin}/m/#/my/order/${runner.orderNo}`);
    await loginInDrawer(page, 'zh', RUNNER);
    // What the runner does on the other pages, through the API: the letter signed, a pick-up slot booked.
    const letter = seed.race.commitmentLetter as unknown as CommitmentLetterSettings;
    const raceId = seed.race.raceId;
    await call(page, API_PATHS.letterSign, {
      raceId,
      entryNo: runner.entryNo,
      versionHash: letterVersionHash(letter),
      accepted: letter.statements.map((_, i) => i),
      signerName: RUNNER.name,
    });
    // A pack is mailed OR collected: with the slot booked, /post says so and links to the booking.
    await call(page, API_PATHS.pickupBook, { raceId, entryNo: runner.entryNo, slotId: '2027-04-16 11:00' });

    const pages: [hash: string, ready: () => Promise<unknown>][] = [
      [`/my/order/${runner.orderNo}`, () => page.getByTestId('order-lines').waitFor()],
      [`/my/pickup?entryNo=${runner.entryNo}`, () => page.getByTestId('pickup-qr').waitFor()],
      [`/my/refund?entryNo=${runner.entryNo}`, () => page.getByTestId(`refund-entry-${runner.entryNo}`).waitFor()],
      ['/my/participants', () => page.getByTestId('participants-add').click()],
      ['/post', () => page.getByTestId('post-pickup-booked').waitFor()],
      [
        '/ballot',
        async () => {
          await page.getByTestId('ballot-am-i-in').waitFor();
          await page.getByTestId('screen-loading').waitFor({ state: 'detached' });
        },
      ],
    ];
    const findings: AxeFinding[] = [];
    for (const lang of ['zh', 'en'] as const) {
      if (lang === 'en') {
        await page.getByTestId('language-toggle').click();
        await page.getByTestId('language-toggle').getByText('中').waitFor();
      }
      for (const [hash, ready] of pages) {
        await page.evaluate((h) => {
          window.location.hash = h;
          window.scrollTo(0, 0);
        }, hash);
        await ready();
        if (hash === '/my/participants') await page.getByTestId('participant-form').waitFor();
        // The order's lines: no value broken over two rows (a sub-order number's "-1" once was, in English).
        if (hash.startsWith('/my/order/')) {
          const broken = await page.evaluate(() =>
            [...document.querySelectorAll('[data-testid="order-lines"] td > span')]
              .filter((value) => {
                // The rows the value's text takes (a flex item's own box is one rectangle however it wraps).
                const text = document.createRange();
                text.selectNodeContents(value);
                return new Set([...text.getClientRects()].map((row) => Math.round(row.top))).size > 1;
              })
              .map((value) => value.textContent),
          );
          expect(broken, `${lang} ${hash}`).toEqual([]);
        }
        expect(await overflow(page), `${lang} ${hash}`).toMatchObject({
          scrollWidth: phone.viewport.width,
          wide: [],
          smallFields: [],
        });
        findings.push(...(await axeFindings(page, `${lang} ${hash}`)));
      }
    }
    expect(blocking(findings)).toEqual([]);

    // Paying on the phone: the sandbox cashier returns straight to the order on the mobile site
    // (/m/#/my/order/…?paid=1), never through the desktop registration area's page.
    await page.evaluate((h) => (window.location.hash = h), `/my/order/${runner.unpaidOrderNo}`);
    await page.getByTestId('order-pay').first().click();
    await page.waitForURL(/\/pay\/sandbox\/cashier/);
    expect(page.url()).toContain('site=mobile');
    expect(await overflow(page)).toMatchObject({ scrollWidth: phone.viewport.width, wide: [], smallFields: [] });
    const pagesLoaded: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) pagesLoaded.push(new URL(frame.url()).pathname);
    });
    await page.locator('button.pay').click();
    await page.waitForURL((url) => url.pathname === '/m/' && url.hash.includes('?paid=1'));
    expect(new URL(page.url()).hash).toBe(`#/my/order/${runner.unpaidOrderNo}?paid=1`);
    expect(pagesLoaded).not.toContain('/reg/');
    await page.getByTestId('payment-success').waitFor();
    expect(await overflow(page)).toMatchObject({ scrollWidth: phone.viewport.width, wide: [], smallFields: [] });
    expect(errors).toEqual([]);
    await context.close();
  });
});
