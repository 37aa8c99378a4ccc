import type { SiteConfig } from '#contract/site-config/schema';
import { newPage, screenshot, siteUrl, useBrowser } from './browser';
import { rawKeysOn } from './raw-keys';
import { fetchSiteConfig, inLang, menuPages, menuPageText } from './site-config';

const browser = useBrowser();
let config: SiteConfig;
beforeAll(async () => {
  config = await fetchSiteConfig();
});

describe.each(['zh', 'en'] as const)('walking every menu item (%s)', (lang) => {
  it('opens a complete page for each menu item, reached through the hover menu', async () => {
    const { context, page, errors } = await newPage(browser());
    await context.addCookies([{ name: 'language', value: lang, url: siteUrl() }]);
    await page.goto(siteUrl());
    const menu = page.getByTestId('site-menu');
    await menu.waitFor();
    const pages = menuPages(config);
    expect(pages.length).toBeGreaterThan(15);
    for (const target of pages) {
      const label = inLang(lang, target.item.meta?.title, target.item.meta?.titleEn);
      if (target.group) {
        await menu
          .getByText(inLang(lang, target.group.meta?.title, target.group.meta?.titleEn), { exact: true })
          .first()
          .hover();
      }
      await menu.getByRole('link', { name: label, exact: true }).first().click();
      await page.waitForURL(new RegExp(`#${target.path}$`));
      const main = page.getByTestId('main');
      const text = menuPageText(config, target, lang);
      expect(text, `${target.path} has content to show`).not.toBe('');
      await main.getByText(text, { exact: false }).first().waitFor();
      await expect(main.getByTestId('not-found').count()).resolves.toBe(0);
      await expect(main.getByTestId('route-error').count()).resolves.toBe(0);
      // Texts load with the pages that use them: none shows before its texts arrived.
      expect(await rawKeysOn(page), `${target.path} shows no raw translation key`).toEqual([]);
      if (lang === 'en') {
        // English mode shows no Chinese in the page chrome (menu, banner buttons, footer labels).
        await expect(page.getByTestId('login-entry').textContent()).resolves.toBe('Please log in');
      }
      await page.mouse.move(5, 400); // leave the menu so its pop-ups close
    }
    await screenshot(page, `walk-last-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
