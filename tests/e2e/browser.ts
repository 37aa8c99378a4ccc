/** Debian's Chromium driven by playwright-core; no browser is downloaded. Screenshots land in test-results/. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { launchBrowser } from './browser-launch';
import { serverPort } from './test-server';

export { launchBrowser } from './browser-launch';
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');
/**
 * Whether the browser tests take their pictures of each screen (SCREENSHOTS=1, `npm run screenshots`): for a
 * person to look at, never compared by a test. `npm test` takes none: drawing and encoding them was about a tenth
 * of a console file's CPU (console-site-parts alone: about 71 → 63 CPU-s).
 */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/** The demo account the server creates on first start (DEMO_ACCOUNT in server/src/plugins/accounts.ts). */
export const DEMO = { phone: '13800138000', email: 'runner@example.com', password: 'Runner2027' } as const;

/** The login form's placeholders per language (the auth texts of src/locales). */
const LOGIN_PLACEHOLDERS = {
  zh: { phone: '请输入手机号', password: '请输入密码' },
  en: { phone: 'Please enter phone number', password: 'Please enter password' },
} as const;

/**
 * Logs an account (the demo account unless another is given) in by password through the login drawer, which
 * the caller has opened: phone and password, the agreement ticked, submitted, and the drawer closed again.
 */
export async function loginInDrawer(
  page: Page,
  lang: 'zh' | 'en',
  account: { phone: string; password: string } = DEMO,
): Promise<void> {
  const drawer = page.getByTestId('login-drawer');
  await drawer.waitFor();
  const form = drawer.getByTestId('form-password');
  await form.getByPlaceholder(LOGIN_PLACEHOLDERS[lang].phone).fill(account.phone);
  await form.getByPlaceholder(LOGIN_PLACEHOLDERS[lang].password).fill(account.password);
  await drawer.getByRole('checkbox').check();
  await form.getByTestId('submit').click();
  await drawer.waitFor({ state: 'hidden' });
}

/**
 * The lane's Chromium: a lane's files run one after another in one worker that keeps its modules
 * (vitest.e2e.config.ts), so the first file launches it and the others use it (a launch is about half a
 * CPU-second and a second of waiting); Playwright ends it with the worker.
 */
let laneBrowser: Promise<Browser> | undefined;

/**
 * The browser for the test file's tests. Call it at the top of the file; the function it returns gives the
 * browser inside the tests. A file leaves the browser as it found it: a context a test left open (it failed
 * before closing it) is closed after the file.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await (laneBrowser ??= launchBrowser());
    if (!browser.isConnected()) browser = await (laneBrowser = launchBrowser());
  });
  afterAll(async () => {
    await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
  });
  return () => {
    if (!browser) throw new Error('The browser starts in beforeAll: call browser() inside a test.');
    return browser;
  };
}

/** http://localhost:PORT (bound to the demo race) or http://127.0.0.1:PORT (unbound). */
export function siteUrl(host: 'localhost' | '127.0.0.1' = 'localhost', hash = '/home'): string {
  return `http://${host}:${serverPort()}/#${hash}`;
}

/** How long a wait or an action in a page from newPage may take (the test itself may take 240 s). */
export const WAIT_LIMIT_MS = 120_000;

export async function newPage(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
  // Playwright gives up on a wait or an action after 30 s: with the machine busy (the unit suite beside this
  // one, or a second npm test) a page took longer. A time limit is for a page that never gets there.
  context.setDefaultTimeout(WAIT_LIMIT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A Content-Security-Policy violation (the server's headers, lib/security-headers.ts) is an error too.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  reportPageOnFailure(page, errors);
  return { context, page, errors };
}

/** Where a failed test's picture of its page goes. */
const FAILURE_DIR = path.resolve(import.meta.dirname, '../../test-results/failures');
/** The API calls a failure report names: the last ones that were refused, failed or slow. */
const REPORTED_CALLS = 6;
/** An API answer slower than this is named in a failure report. */
const SLOW_CALL_MS = 5_000;
/** An answer larger than this is no refusal ({code, msg, data: null}): its body is not read. */
const REFUSAL_BYTES = 4096;
/** How long a failure report waits for the page (to read it, to take its picture). */
const REPORT_MS = 10_000;
/** Failure pictures taken in this worker: numbered, so that two pages of one test keep both. */
let failurePictures = 0;

/**
 * When the test that opened `page` fails, its error is followed by what the page showed then: its address, the
 * messages and dialogs on it, the last calls to the server that were refused (HTTP error or a `code` other than 0),
 * failed or slow, and its errors; and a picture of it in test-results/failures/. A toast has gone long before a wait
 * gives up, and a failure on a busy machine may not come again: this is what is left to find its cause by.
 */
function reportPageOnFailure(page: Page, errors: string[]) {
  const calls: string[] = [];
  const note = (line: string) => {
    calls.push(line);
    if (calls.length > REPORTED_CALLS) calls.shift();
  };
  const started = Date.now();
  const since = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  // The app's calls: every one is an XHR (axios) or a fetch (the early fetches, the slider), and nothing else is.
  const isCall = (request: Request) => request.resourceType() === 'xhr' || request.resourceType() === 'fetch';
  page.on('requestfailed', (request) => {
    if (isCall(request))
      note(
        `${request.method()} ${new URL(request.url()).pathname} failed at ${since()}: ${request.failure()?.errorText}`,
      );
  });
  page.on('response', (response) => {
    const request = response.request();
    if (!isCall(request)) return;
    const ms = request.timing().responseEnd;
    const slow = ms > SLOW_CALL_MS;
    const line = (refusal = '') =>
      `${request.method()} ${new URL(request.url()).pathname} → ${response.status()}${refusal} at ${since()}` +
      (slow ? `, took ${(ms / 1000).toFixed(1)} s` : '');
    if (response.status() >= 400) return note(line());
    // A refusal's envelope is small: larger answers are not read back from the browser (most calls, at a cost).
    if (Number(response.headers()['content-length'] ?? Infinity) > REFUSAL_BYTES)
      return slow ? note(line()) : undefined;
    void response.json().then(
      (body: { code?: unknown; msg?: unknown }) => {
        if (body.code !== 0 && body.code !== undefined) note(line(` code ${body.code} "${body.msg}"`));
        else if (slow) note(line());
      },
      () => (slow ? note(line()) : undefined),
    );
  });
  try {
    onTestFailed(async ({ task }) => {
      if (page.isClosed()) return;
      const read = page
        .locator(
          '.ant-message-notice, .ant-notification-notice, .ant-modal-content, .ant-drawer-content, [role="alert"]',
        )
        .evaluateAll((elements) =>
          elements
            .filter((element) => element.getClientRects().length > 0)
            .map((element) => (element as HTMLElement).innerText.replace(/\s+/g, ' ').trim().slice(0, 160)),
        )
        .catch(() => ['(the page could not be read)']);
      const hung = new Promise<string[]>((resolve) =>
        setTimeout(() => resolve(['(the page did not answer)']), REPORT_MS),
      );
      const shown = await Promise.race([read, hung]);
      mkdirSync(FAILURE_DIR, { recursive: true });
      failurePictures += 1;
      const name = `${task.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 80)}-${failurePictures}.png`;
      const file = path.join(FAILURE_DIR, name);
      const picture = await page.screenshot({ path: file, timeout: REPORT_MS }).then(
        () => path.relative(process.cwd(), file),
        () => 'none',
      );
      throw new Error(
        [
          `the page then: ${page.url()}`,
          `shown: ${shown.join(' | ') || 'no message or dialog'}`,
          ...(calls.length ? calls.map((call) => `api: ${call}`) : ['api: no call refused, failed or slow']),
          ...errors.map((error) => `page error: ${error.slice(0, 200)}`),
          `picture: ${picture}`,
        ].join('\n'),
      );
    });
  } catch {
    // Opened outside a test (in a beforeAll): there is no test to report on.
  }
}

/**
 * Waits until the app has taken the page over from the home page the server drew (server/src/lib/first-screen.ts):
 * until then an element found on the page may be replaced by the app's own while a step uses it.
 */
export async function appDrawn(page: Page): Promise<void> {
  await page.locator('#root:not([data-first-screen])').waitFor({ state: 'attached' });
}

/** A full-page picture of `page` as test-results/screenshots/<name>.png, when pictures are taken (SCREENSHOTS). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Sections far down render when a visitor scrolls near them (content-visibility: auto); a full-page
  // picture shows them all, as a visitor who scrolled through would have seen them.
  await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/**
 * A picture of a page or one element as it is (no style added) into `file`, when pictures are taken
 * (SCREENSHOTS); `fullPage` for the whole of a page.
 */
export async function saveScreenshot(target: Page | Locator, file: string, options: { fullPage?: boolean } = {}) {
  if (!SCREENSHOTS) return;
  mkdirSync(path.dirname(file), { recursive: true });
  await target.screenshot({ path: file, ...options });
}

/** Drags the slider handle onto its target, slowly enough to pass the server's human check. */
export async function solveSlider(page: Page, scope: Locator) {
  const handle = scope.getByTestId('slider-handle');
  const target = scope.getByTestId('slider-target');
  await target.waitFor();
  const h = (await handle.boundingBox())!;
  const tg = (await target.boundingBox())!;
  const startX = h.x + h.width / 2;
  const y = h.y + h.height / 2;
  const dx = tg.x - h.x;
  await page.mouse.move(startX, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i += 1) {
    await page.mouse.move(startX + (dx * i) / 12, y);
    await page.waitForTimeout(30);
  }
  await page.mouse.up();
}

/** Passes the sign-up page's slider check (shown above its submit button), as a runner does before submitting. */
export async function passEntrySlider(page: Page) {
  const slider = page.getByTestId('entry-slider');
  await slider.locator('[data-testid="slider-captcha"][data-phase="ready"]').waitFor();
  // In the middle of the screen: the mouse drags what it sees, never under the sticky menu bar.
  await slider.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await solveSlider(page, slider);
  await slider.locator('[data-testid="slider-captcha"][data-phase="passed"]').waitFor();
}
