/**
 * The browser the tests launch (browser-launch.ts): it keeps every feature Playwright turns off, and a new
 * context opens no page of Chromium's own beside ours (the address bar's pop-ups, half a CPU-second each).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PLAYWRIGHT_DISABLED_FEATURES } from './browser-launch';
import { useBrowser } from './browser';

const browser = useBrowser();

describe('the browser the tests launch', () => {
  it("turns off every feature Playwright's own launch turns off", () => {
    const bundle = readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
    const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(bundle)?.[1];
    expect(list, "playwright-core's list of features it turns off").toBeDefined();
    const theirs = [...list!.matchAll(/^\s*"([A-Za-z]+)"/gm)].map((m) => m[1]);
    expect(theirs.length).toBeGreaterThan(5);
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(expect.arrayContaining(theirs));
  });

  it("opens no page of Chromium's own beside a context's page", async () => {
    const context = await browser().newContext();
    const page = await context.newPage();
    await page.goto('about:blank');
    const session = await browser().newBrowserCDPSession();
    const { targetInfos } = await session.send('Target.getTargets');
    expect(targetInfos.filter((t) => t.type !== 'page' && t.type !== 'tab').map((t) => t.url)).toEqual([]);
    await context.close();
  });
});
