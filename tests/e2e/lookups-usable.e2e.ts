/**
 * Lookups a visitor can use, and demo content that works (issue 10, §3 and §4), on the real seeded demo:
 * the 2027 site's score page finds a 2026 result through its race picker; a click right after fixing a
 * field lands on every search form; PB and history are linked; transport failures give the §8 toasts in
 * the visitor's language; the demo videos play; English is set in Latin fonts, no word breaks mid-word and
 * both carousel arrows stand out.
 */
import type { Page } from 'playwright-core';
import { newPage, screenshot, siteUrl, useBrowser } from './browser';
import { fetchSiteConfig, publishForDomain } from './site-config';
import { serverPort } from './test-server';

// DEMO_RUNNERS in server/src/db/seed-runners.ts; the 2026 race has results, the bound 2027 race none yet.
const RUNNER = { name: '张伟', id: '320102199001011232', bib: 'A00001' };
const PAST_RACE = 'qc-marathon-2026';

const browser = useBrowser();

async function open(language: 'zh' | 'en', hash: string) {
  const opened = await newPage(browser());
  await opened.context.addCookies([{ name: 'language', value: language, url: siteUrl() }]);
  await opened.page.goto(siteUrl('localhost', hash));
  return opened;
}

/** A screenshot named lookups-<name>. */
async function keep(page: Page, name: string): Promise<void> {
  await screenshot(page, `lookups-${name}`);
}

/** Words (Latin words of 3+ letters, and the demo's item names) whose letters sit on two lines. */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[A-Za-z]{3,}|半程马拉松|马拉松|10公里|公里/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) found.push(`${match[0]} in "${text.slice(0, 50)}"`);
      }
    }
    return found;
  });
}

describe('score lookups on the 2027 site', () => {
  it("offers the organiser's races with results (2026 first) and finds a 2026 result by bib, in both languages", async () => {
    for (const language of ['zh', 'en'] as const) {
      const { context, page, errors } = await open(language, '/score-search');
      const picker = page.getByTestId('score-race');
      await picker.waitFor();
      await page.waitForFunction(
        () => document.querySelector<HTMLSelectElement>('[data-testid="score-race"]')?.value !== '',
      );
      await expect(picker.inputValue()).resolves.toBe(PAST_RACE);
      const options = await picker.locator('option').allTextContents();
      expect(options[0]).toBe(language === 'zh' ? '2026 青川运河马拉松' : '2026 Qingchuan Grand Canal Marathon');
      expect(options.join()).not.toContain('2027');
      if (language === 'zh') await keep(page, 'race-picker-zh');

      await page.getByPlaceholder(language === 'zh' ? '请输入参赛号码' : 'Enter your bib number').fill(RUNNER.bib);
      await page.locator('form button[type="submit"]').click();
      const card = page.getByTestId('score-result');
      await card.waitFor();
      await expect(card.getByTestId('chip-time').textContent()).resolves.toMatch(/^\d:\d\d:\d\d$/);
      // Each segment's own split, then the cumulative time: the splits add up to the cumulative times.
      const rows = await card
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
      expect(rows.length).toBeGreaterThanOrEqual(8);
      const seconds = (t: string) => t.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
      let previous = 0;
      for (const [, split, cumulative] of rows) {
        expect(seconds(split!)).toBe(seconds(cumulative!) - previous);
        previous = seconds(cumulative!);
      }
      const headers = await card.locator('thead th').allTextContents();
      expect(headers).toContain(language === 'zh' ? '累计用时' : 'Cumulative time');
      await expect(brokenWords(page)).resolves.toEqual([]);
      await keep(page, `score-${language}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('links personal bests and historical scores from the score page and the home search module', async () => {
    const { context, page, errors } = await open('zh', '/home');
    const more = page.getByTestId('search-modules-more');
    await more.getByRole('link', { name: '个人最好成绩' }).click();
    await page.getByRole('heading', { name: '个人最好成绩' }).waitFor();
    await page.goto(siteUrl('localhost', '/score-search'));
    const links = page.getByTestId('score-more');
    await links.getByRole('link', { name: '历史成绩查询' }).click();
    await page.getByRole('heading', { name: '历史成绩查询' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('search forms', () => {
  type Language = 'zh' | 'en';
  const PLACEHOLDERS = {
    zh: { bib: '请输入参赛号码', name: '请输入姓名', id: '请输入证件号码' },
    en: { bib: 'Enter your bib number', name: 'Enter your name', id: 'Enter your certificate number' },
  };
  const identity = async (page: Page, language: Language) => {
    const p = PLACEHOLDERS[language];
    // A wrong number first, its message shown on leaving the field; then the right one, still in the field.
    await page.getByPlaceholder(p.id).fill('12345');
    await page.getByPlaceholder(p.name).fill(RUNNER.name);
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    await page.getByPlaceholder(p.id).fill(RUNNER.id);
  };
  /** Each form: its page, how to fill it validly, and what shows when its search succeeded. */
  const forms: { path: string; fill: (page: Page, language: Language) => Promise<void>; found: string }[] = [
    {
      path: '/score-search',
      fill: (page, language) => page.getByPlaceholder(PLACEHOLDERS[language].bib).fill(RUNNER.bib),
      found: '[data-testid="score-result"]',
    },
    { path: '/registration-search', fill: identity, found: '[data-testid="registration-result"]' },
    { path: '/pb-search', fill: identity, found: '[data-testid="pb-table"]' },
    { path: '/multiple-score-search', fill: identity, found: '[data-testid="score-result"]' },
  ];

  it('submits on the first click right after a field error is fixed and the field left (the button does not move)', async () => {
    for (const language of ['zh', 'en'] as const) {
      for (const form of forms) {
        const { context, page, errors } = await open(language, form.path);
        const submit = page.locator('form button[type="submit"]');
        await submit.click();
        await page.locator('.ant-form-item-explain-error').first().waitFor();
        await form.fill(page, language);
        // The fixed field's message goes as its value changes, before the field is left.
        await page.locator('.ant-form-item-explain-error').first().waitFor({ state: 'detached' });
        // The click's mousedown leaves the field (blur) before the button is released.
        const before = await submit.boundingBox();
        await page.mouse.click(before!.x + before!.width / 2, before!.y + before!.height / 2);
        await page.locator(form.found).first().waitFor();
        await expect(page.locator('.ant-form-item-explain-error').count()).resolves.toBe(0);
        const after = await submit.boundingBox();
        expect(after?.y, `${language} ${form.path}`).toBe(before!.y);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  });

  it('submits the photo search on the first click after its bib error is fixed (a site of the 2026 race)', async () => {
    // The photo search is closed on the demo site: a domain bound to the 2026 race publishes it open.
    const domain = 'photos-click.localhost';
    const config = structuredClone(await fetchSiteConfig());
    config.pictureSearch = { ...config.pictureSearch, openStatus: 1 };
    await publishForDomain(domain, PAST_RACE, config);
    const { page, context, errors } = await newPage(browser());
    await page.goto(`http://${domain}:${serverPort()}/#/image-search`);
    const submit = page.locator('form button[type="submit"]');
    await submit.click();
    await page.locator('.ant-form-item-explain-error').waitFor();
    // The inline form's button stays level with the input, above the reserved message line.
    const input = page.getByPlaceholder('请输入参赛号码');
    const [inputBox, buttonBox] = [await input.boundingBox(), await submit.boundingBox()];
    expect(Math.abs(inputBox!.y + inputBox!.height - (buttonBox!.y + buttonBox!.height))).toBeLessThanOrEqual(1);
    await input.fill(RUNNER.bib);
    await page.mouse.click(buttonBox!.x + buttonBox!.width / 2, buttonBox!.y + buttonBox!.height / 2);
    await page.getByTestId('photo-tile').first().waitFor();
    await keep(page, 'photo-search-zh');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the red 网络连接失败，请刷新 toast for 5 s when the network fails, and a 5xx in the visitor's language", async () => {
    const { context, page } = await open('zh', '/score-search');
    await page.route('**/race-center/api/search/score', (route) => route.abort('failed'));
    await page.getByPlaceholder('请输入参赛号码').fill(RUNNER.bib);
    // How long the toast stays is timed by the page's own clock, from when it is added to when it is taken away:
    // the test's clock runs late on a busy machine, the page's timer never runs early.
    await page.evaluate(() => {
      const times: { shown?: number; gone?: number } = {};
      (window as unknown as { toastTimes: typeof times }).toastTimes = times;
      const find = () =>
        [...document.querySelectorAll('.toast-error')].some((el) => el.textContent?.includes('网络连接失败，请刷新'));
      new MutationObserver(() => {
        const there = find();
        if (there && times.shown === undefined) times.shown = performance.now();
        if (!there && times.shown !== undefined && times.gone === undefined) times.gone = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.locator('form button[type="submit"]').click();
    const toast = page.locator('.toast-error', { hasText: '网络连接失败，请刷新' });
    await toast.waitFor();
    // Red: the error icon's colour.
    const [r, g, b] = (await toast.evaluate((el) => getComputedStyle(el.querySelector('.anticon') ?? el).color))
      .match(/\d+/g)!
      .map(Number);
    expect(r).toBeGreaterThan(150);
    expect(Math.max(g!, b!)).toBeLessThan(100);
    // It goes on its own, after its 5 s (less the moment the observer runs after the toast is added).
    await toast.waitFor({ state: 'detached' });
    const { shown, gone } = await page.evaluate(
      () => (window as unknown as { toastTimes: { shown?: number; gone?: number } }).toastTimes,
    );
    expect(gone! - shown!).toBeGreaterThanOrEqual(4_900);
    await context.close();

    const english = await open('en', '/score-search');
    await english.page.route('**/race-center/api/search/score', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream exploded' }),
    );
    await english.page.getByPlaceholder('Enter your bib number').fill(RUNNER.bib);
    await english.page.locator('form button[type="submit"]').click();
    const message = 'The service is temporarily unavailable, please try again later';
    await english.page.locator('.toast-error', { hasText: message }).waitFor();
    const text = (await english.page.textContent('body')) ?? '';
    expect(text).not.toContain('Request failed');
    expect(text).not.toContain('status code');
    await keep(english.page, 'server-error-en');
    await english.context.close();
  });
});

describe('demo content', () => {
  it('plays every demo video (a real file: metadata read, duration over 0, time advancing)', async () => {
    const { context, page, errors } = await open('en', '/video-collection');
    const cards = page.getByTestId('video-card');
    await cards.first().waitFor();
    const count = await cards.count();
    expect(count).toBe(4);
    for (let i = 0; i < count; i++) {
      await cards.nth(i).locator('button').click();
      const video = page.locator('[data-testid="video-player"] video');
      await video.waitFor();
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('[data-testid="video-player"] video');
        return !!v && v.readyState >= 2 && v.duration > 0 && v.currentTime > 0.2;
      }, null);
      const facts = await video.evaluate((v: HTMLVideoElement) => ({
        duration: v.duration,
        width: v.videoWidth,
        src: v.currentSrc,
      }));
      expect(facts.duration).toBeGreaterThanOrEqual(5);
      expect(facts.duration).toBeLessThanOrEqual(8);
      expect(facts.width).toBeGreaterThan(0);
      expect(new URL(facts.src).pathname).toMatch(/^\/files\/demo\/video\/[\w-]+\.mp4$/);
      await expect(page.getByTestId('video-failed').count()).resolves.toBe(0);
      if (i === 0) await keep(page, 'video-en');
      await page.keyboard.press('Escape');
      await video.waitFor({ state: 'detached' });
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sets English in Latin fonts (’ is not full-width), breaks no word mid-word and shows both carousel arrows', async () => {
    for (const language of ['en', 'zh'] as const) {
      const { context, page, errors } = await open(language, '/home');
      await page.getByTestId('search-modules').waitFor();
      await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
      await page.waitForTimeout(500);
      await expect(brokenWords(page)).resolves.toEqual([]);

      // Both arrows: an opaque disc with a light ring, on any slide.
      for (const arrow of ['.hero__nav--prev', '.hero__nav--next']) {
        const style = await page.locator(arrow).evaluate((el) => {
          const s = getComputedStyle(el);
          return { background: s.backgroundColor, border: s.borderTopColor, borderWidth: s.borderTopWidth };
        });
        const alpha = /rgba?\(\d+, \d+, \d+(?:, ([\d.]+))?\)/.exec(style.background)?.[1];
        expect(Number(alpha ?? 1), arrow).toBeGreaterThanOrEqual(0.8);
        expect(style.border).toBe('rgb(255, 255, 255)');
        expect(parseFloat(style.borderWidth)).toBeGreaterThanOrEqual(2);
      }

      if (language === 'en') {
        // The fonts Chromium really used for a title with a curly apostrophe: no CJK font among them.
        const marked = await page.evaluate(() => {
          const all = [...document.querySelectorAll<HTMLElement>('body *')].filter(
            (el) => el.children.length === 0 && (el.textContent ?? '').includes('’'),
          );
          all[0]?.setAttribute('data-apostrophe', '');
          return all[0]?.textContent ?? null;
        });
        expect(marked, 'an English text with ’ on the home page').not.toBeNull();
        const cdp = await context.newCDPSession(page);
        await cdp.send('DOM.enable');
        await cdp.send('CSS.enable');
        const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
        const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-apostrophe]' });
        const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
        expect(fonts.length).toBeGreaterThan(0);
        expect(fonts.map((f) => f.familyName).join(', ')).not.toMatch(/CJK|PingFang|YaHei|Hiragino/i);
      }
      await keep(page, `home-${language}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
