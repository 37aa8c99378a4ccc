/**
 * An organiser's config is content we do not control: publish one whose rich text and links carry
 * script payloads (through the real CLI, to a *.localhost domain that Chromium resolves to this
 * machine) and check that nothing runs, in pages, menus, ads, carousel and footer.
 */
import type { SiteConfig } from '#contract/site-config/schema';
import { newPage, screenshot, useBrowser } from './browser';
import { fetchSiteConfig, storeForDomainWithoutChecks } from './site-config';
import { serverPort } from './test-server';

const DOMAIN = 'xss.localhost';
const PAYLOAD_HTML = [
  '<p id="xss-marker">恶意内容测试 Hostile content test</p>',
  '<script>window.__xss = "script"</script>',
  '<img src="x" onerror="window.__xss = \'img-onerror\'">',
  '<svg><g onload="window.__xss = \'svg-onload\'"></g></svg>',
  '<a id="xss-js-link" href="javascript:window.__xss=\'href\'">点我 click me</a>',
  '<a id="xss-js-link2" href="JaVaScRiPt:window.__xss=\'href2\'">再点 again</a>',
  '<a id="xss-ext" href="https://example.com/article" target="_self">外链 external</a>',
  '<iframe src="javascript:window.top.__xss=\'iframe\'"></iframe>',
  '<img id="xss-data" src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIj48L3N2Zz4=">',
  '<form action="javascript:window.__xss=\'form\'"><button id="xss-form">提交</button></form>',
  '<div style="background:url(javascript:window.__xss=\'style\')">styled</div>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'mxss\'"></style></mglyph></table></mtext></math>',
].join('\n');

function hostileConfig(base: SiteConfig): SiteConfig {
  const js = (tag: string) => `javascript:window.__xss='${tag}'`;
  const config = structuredClone(base);
  for (const group of Object.values(config.contentGroups ?? {})) {
    for (const docs of Object.values(group)) {
      for (const doc of docs) {
        doc.content = `${PAYLOAD_HTML}\n${doc.content ?? ''}`;
        doc.contentEn = `${PAYLOAD_HTML}\n${doc.contentEn ?? ''}`;
      }
    }
  }
  const news = config.contentGroups?.newsNotice?.raceNews;
  if (news?.[0]) news[0].jumpUrl = js('news-jump');
  config.carouselList = (config.carouselList ?? []).map((item) => ({ ...item, jumpUrl: js('carousel') }));
  config.bannerAdList = (config.bannerAdList ?? []).map((ad) => ({ ...ad, jumpUrl: js('ad'), jumpUrlEn: js('ad-en') }));
  config.websiteRegInfo = (config.websiteRegInfo ?? []).map((item) => ({ ...item, link: js('filing') }));
  config.menuGroups = [
    ...(config.menuGroups ?? []),
    { path: '/evil', name: 'evil', meta: { title: '恶意链接', titleEn: 'Evil link', link: js('menu') } },
  ];
  return config;
}

const browser = useBrowser();
beforeAll(async () => {
  // `site publish` refuses these links now; the SPA must stay safe with a document that skipped the checks.
  await storeForDomainWithoutChecks(DOMAIN, 'qc-marathon-2027', hostileConfig(await fetchSiteConfig()));
});

describe('a site config carrying script payloads', () => {
  it('runs none of them: rich text, links, ads, carousel, menu and footer are all defused', async () => {
    const { context, page, errors } = await newPage(browser());
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const base = `http://${DOMAIN}:${serverPort()}/#`;
    for (const route of ['/home', '/race-information/race-rules', '/news-notice/race-news', '/about-us/contact-us']) {
      await page.goto(`${base}${route}`);
      await page.getByTestId('site-menu').waitFor();
      await page.waitForLoadState('networkidle');
    }
    await page.goto(`${base}/race-information/race-rules`);
    await page.locator('#xss-marker').waitFor();
    await screenshot(page, 'xss-race-rules');

    // Nothing in the DOM can run script: no script elements from content, no handlers, no javascript: URLs.
    const report = await page.evaluate(() => {
      const main = document.querySelector('[data-testid="main"]')!;
      const all = [...document.querySelectorAll('*')];
      return {
        scriptsInMain: main.querySelectorAll('script, iframe, object, embed, form').length,
        handlers: all.filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
        jsUrls: all.filter((el) =>
          ['href', 'src', 'action', 'xlink:href', 'formaction'].some((name) =>
            /^\s*(javascript|data|vbscript):/i.test(el.getAttribute(name) ?? ''),
          ),
        ).length,
        styled: main.querySelectorAll('[style*="url("]').length,
        externalTarget: document.querySelector('#xss-ext')?.getAttribute('target'),
        externalRel: document.querySelector('#xss-ext')?.getAttribute('rel'),
      };
    });
    expect(report).toEqual({
      scriptsInMain: 0,
      handlers: 0,
      jsUrls: 0,
      styled: 0,
      externalTarget: '_blank',
      externalRel: 'noopener noreferrer',
    });

    // Clicking what is left of the hostile links runs nothing either. The footer's filings are left out here
    // (their javascript: links fail the config's checks): looked for, not waited for (30 s).
    const footerFiling = page.getByTestId('site-footer').getByText('ICP', { exact: false }).first();
    for (const link of [page.locator('#xss-js-link'), page.locator('#xss-js-link2'), footerFiling]) {
      if (await link.count()) await link.click();
    }
    await page.waitForTimeout(300);
    await expect(page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).resolves.toBeUndefined();
    expect(dialogs).toEqual([]);
    // Chromium reports a CSP violation for each event-handler attribute it merely parses, even in the inert
    // document the sanitiser parses into (checked: DOMParser alone reports one); the handler never runs
    // ("The action has been blocked", and __xss above stays unset). Every other error still fails.
    const parsedHandlers = /^Executing inline event handler violates .*The action has been blocked\.$/s;
    expect(errors.filter((error) => !parsedHandlers.test(error))).toEqual([]);
    await context.close();
  });
});
