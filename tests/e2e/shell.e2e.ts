import { API_PATHS } from '#contract/api';
import { newPage, screenshot, siteUrl, useBrowser } from './browser';

const browser = useBrowser();

describe('the demo event site', () => {
  it('shows the home shell: title, banner, menu and footer', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl());
    await page.getByTestId('site-menu').waitFor();
    expect(await page.title()).toBe('2027青川运河马拉松');
    const menu = page.getByTestId('site-menu');
    for (const label of ['首页', '赛事信息', '新闻公告', '城市魅力', '关于我们']) {
      await expect(menu.getByText(label, { exact: true }).isVisible()).resolves.toBe(true);
    }
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('请登录');
    await expect(page.getByTestId('language-toggle').textContent()).resolves.toBe('En');
    const footer = page.getByTestId('site-footer');
    // The footer is drawn when it comes near the screen (content-visibility): scroll to it as a visitor does.
    await footer.scrollIntoViewIfNeeded();
    await expect(footer.getByRole('link').count()).resolves.toBeGreaterThanOrEqual(2);
    // Drawn on the frame after the scroll: wait for it to be visible.
    await footer.getByText('ICP').first().waitFor({ state: 'visible' });
    await page.getByTestId('home-carousel').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'home-zh');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks for each start-up answer once: index.html starts them, the app takes them over', async () => {
    const { context, page, errors } = await newPage(browser());
    const asked = new Map<string, number>();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      const name = pathname.startsWith(API_PATHS.siteConfigFilesPrefix) ? 'document' : pathname;
      asked.set(name, (asked.get(name) ?? 0) + 1);
    });
    await page.goto(siteUrl());
    await page.getByTestId('home-page').waitFor();
    await page.waitForLoadState('networkidle');
    for (const name of [
      API_PATHS.raceByDomain,
      API_PATHS.siteConfigLookup,
      'document',
      API_PATHS.raceBaseInfo,
      API_PATHS.cloudConfigIndex,
      `${API_PATHS.translationsPrefix}common.json`,
      `${API_PATHS.translationsPrefix}website.json`,
    ]) {
      expect([name, asked.get(name)]).toEqual([name, 1]);
    }
    // The first screen's images were asked for once too (preloaded, then shown).
    const images = [...asked.entries()].filter(([path]) => path.startsWith('/files/demo/'));
    expect(images.length).toBeGreaterThan(0);
    for (const [path, count] of images) expect([path, count]).toEqual([path, 1]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches to English: labels, toggle and cookie change and survive a reload', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(siteUrl());
    await page.getByTestId('language-toggle').click();
    await page.getByText('Switched to English').waitFor();
    const menu = page.getByTestId('site-menu');
    await menu.getByText('Race Info', { exact: true }).waitFor();
    await expect(page.getByTestId('language-toggle').textContent()).resolves.toBe('中');
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('Please log in');
    const cookie = (await context.cookies()).find((c) => c.name === 'language');
    expect(cookie?.value).toBe('en');
    // The layout sets the document's title in an effect, after the render that shows the English labels.
    await expect.poll(() => page.title()).toBe('2027 Qingchuan Grand Canal Marathon');

    await page.reload();
    await page.getByTestId('site-menu').getByText('Race Info', { exact: true }).waitFor();
    await expect(page.getByTestId('language-toggle').textContent()).resolves.toBe('中');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'home-en');
    await context.close();
  });

  it('opens a submenu on hover and navigates to a page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(siteUrl());
    await page.getByTestId('site-menu').getByText('新闻公告', { exact: true }).hover();
    // The home page's news column links to the same page: take the menu's entry.
    await page.getByTestId('site-menu').getByRole('link', { name: '赛事新闻' }).click();
    await page.waitForURL(/#\/news-notice\/race-news$/);
    await page.locator('[data-testid="main"][data-grey="true"]').waitFor();
    await context.close();
  });

  it("shows the preview screen titled 'Unbound race' on 127.0.0.1", async () => {
    const { context, page } = await newPage(browser());
    await page.goto(siteUrl('127.0.0.1'));
    await page.getByTestId('preview-screen').waitFor();
    await expect(page.getByTestId('preview-screen').textContent()).resolves.toContain('Unbound race');
    // The server's page is titled for any race; the layout's effect titles it after the screen is drawn.
    await expect.poll(() => page.title()).toContain('Unbound race');
    await page.getByText('未绑定赛事，当前为预览模式').waitFor();
    await screenshot(page, 'preview-zh');
    await context.addCookies([{ name: 'language', value: 'en', url: siteUrl('127.0.0.1') }]);
    await page.reload();
    await page.getByTestId('preview-screen').waitFor();
    await expect.poll(() => page.title()).toBe('Unbound race');
    await screenshot(page, 'preview-en');
    await context.close();
  });

  it('recovers from corrupt stored user data with one reload', async () => {
    const { context, page, errors } = await newPage(browser());
    await page.goto(siteUrl());
    await page.getByTestId('site-menu').waitFor();
    await page.evaluate(() => localStorage.setItem('userData', '{"token": broken'));
    let documents = 0;
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents += 1;
    });
    await page.reload();
    await page.getByTestId('site-menu').waitFor();
    await page.waitForLoadState('networkidle');
    expect(documents).toBe(2); // the reload we asked for, and exactly one recovery reload
    await expect(page.evaluate(() => localStorage.getItem('userData'))).resolves.toBeNull();
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('请登录');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a not-found page inside the layout for an unknown path', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(siteUrl('localhost', '/no-such-page'));
    await page.getByTestId('not-found').waitFor();
    await expect(page.getByTestId('site-menu').isVisible()).resolves.toBe(true);
    await context.close();
  });
});
