/**
 * A site configuration never takes the site down: neither one that `site validate` accepts with warnings
 * (an extra key holding nested lists, keys in the wrong place, a 1,000-item news list) nor one stored
 * without the checks (an extra key holding 100,000 nested arrays, a 2,000-level menu, hundreds of broken
 * carousel items). The pages show, with their menus and documents, instead of the fatal screen.
 */
import type { SiteConfig } from '#contract/site-config/schema';
import { newPage, screenshot, useBrowser } from './browser';
import { fetchSiteConfig, publishForDomain, storeForDomainWithoutChecks } from './site-config';
import { serverPort } from './test-server';

const RACE = 'qc-marathon-2027';
const ACCEPTED = 'accepted.localhost';
const UNCHECKED = 'unchecked.localhost';

function nestedLists(depth: number): unknown {
  let value: unknown = ['bottom'];
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

/** Passes `site validate` (warnings only), yet is as awkward as a valid document gets. */
function acceptedConfig(base: SiteConfig): SiteConfig {
  const news = base.contentGroups!.newsNotice.raceNews;
  return {
    ...base,
    extra: nestedLists(20),
    hotline: '400-000-0000', // belongs in eventInfo: a warning
    contentGroups: {
      ...base.contentGroups,
      newsNotice: {
        ...base.contentGroups!.newsNotice,
        raceNews: Array.from({ length: 1000 }, (_, i) => ({ ...news[i % news.length], id: `news-${i}` })),
      },
    },
  } as SiteConfig;
}

/** What the checks refuse, written straight to storage: the SPA keeps every good part. */
function uncheckedText(base: SiteConfig): string {
  let menu = '{"path":"leaf","meta":{"title":"leaf"}}';
  for (let i = 0; i < 2000; i += 1) menu = `{"path":"p${i}","meta":{"title":"t"},"children":[${menu}]}`;
  const doc = {
    ...base,
    carouselList: [...Array.from({ length: 300 }, () => ({ surfacePlotUrl: 7 })), ...(base.carouselList ?? [])],
  };
  const text = JSON.stringify(doc);
  const groups = JSON.stringify(base.menuGroups).slice(1, -1);
  return `${text.slice(0, -1)},"menuGroups":[${groups},${menu}],"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
}

const browser = useBrowser();
beforeAll(async () => {
  const demo = await fetchSiteConfig();
  await publishForDomain(ACCEPTED, RACE, acceptedConfig(demo));
  await storeForDomainWithoutChecks(UNCHECKED, RACE, uncheckedText(demo));
});

describe('a hostile site configuration', () => {
  for (const domain of [ACCEPTED, UNCHECKED]) {
    it(`still shows the site on every page (${domain})`, async () => {
      const { context, page, errors } = await newPage(browser());
      const base = `http://${domain}:${serverPort()}/#`;
      for (const route of ['/home', '/race-information/race-rules', '/news-notice/race-news']) {
        await page.goto(`${base}${route}`);
        await page.getByTestId('site-menu').waitFor();
        await page.getByTestId('main').waitFor();
        expect(await page.locator('.fatal').count(), route).toBe(0);
      }
      await expect(page.getByTestId('site-menu').getByText('赛事信息').first().isVisible()).resolves.toBe(true);
      await page.goto(`${base}/race-information/race-rules`);
      await page.getByRole('heading', { name: '竞赛规程' }).first().waitFor();
      await screenshot(page, `hostile-config-${domain.split('.')[0]}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
