/**
 * The site page's form editors (issue 33 §2), in Chinese and English, on a desktop and a tablet: a service
 * member adds a carousel slide and moves it to the front with the keyboard (the focus follows the slide), adds
 * a partner to the event partners, saves the draft and publishes it; the public home page of that domain then
 * shows the slide first and the partner's logo (checked on the desktop runs). The demo's configuration is
 * published first for a domain of this file's own (parts.localhost, bound to the demo race), so the other files'
 * localhost is never touched.
 * No serious or critical axe finding on either form.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import type { SiteConfig } from '#contract/site-config/schema';
import { appDrawn, newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { publishForDomain } from './site-config';
import { serverPort } from './test-server';

const RACE_ID = seed.race.raceId;
const DOMAIN = 'parts.localhost';
const browser = useBrowser();

const TEXT = {
  zh: {
    carouselTab: '轮播图',
    partnersTab: '合作伙伴',
    addSlide: '添加一张',
    image: '图片',
    titleZh: '标题（中文）',
    titleEn: '标题（英文）',
    link: '点击后打开',
    addPartner: '添加合作伙伴',
    logo: 'Logo',
    href: '合作伙伴网站',
    nameZh: '名称（中文）',
    nameEn: '名称（英文）',
    moveUp: (n: number) => `上移第 ${n} 项`,
    save: /^保存草稿$/,
    publish: /^发 ?布$/,
    matches: '与已发布版本一致',
  },
  en: {
    carouselTab: 'Carousel',
    partnersTab: 'Partners',
    addSlide: 'Add a slide',
    image: 'Image',
    titleZh: 'Title (Chinese)',
    titleEn: 'Title (English)',
    link: 'Link when clicked',
    addPartner: 'Add a partner',
    logo: 'Logo',
    href: "Partner's website",
    nameZh: 'Name (Chinese)',
    nameEn: 'Name (English)',
    moveUp: (n: number) => `Move item ${n} up`,
    save: /^Save draft$/,
    publish: /^Publish$/,
    matches: 'Same as the published version',
  },
} as const;

beforeAll(async () => {
  const demo = JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../server/seed/site-configs/localhost.json'), 'utf8'),
  ) as SiteConfig;
  await publishForDomain(DOMAIN, RACE_ID, demo);
});

/** A screenshot from the top of the page (the console's bar stays at the top of the picture). */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Chooses `option` in the antd Select `select`. */
async function choose(page: Page, select: ReturnType<Page['getByTestId']>, option: string) {
  await select.click();
  await page.locator(`.ant-select-item-option[title="${option}"]`).click();
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the site form editors (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'a slide and a partner edited in the forms, saved and published, show on the home page (%s)',
    async (lang) => {
      const text = TEXT[lang];
      const mark = `${lang}-${device}`;
      const slide = { zh: `幻灯片 ${mark}`, en: `Slide ${mark}` };
      const partner = { zh: `伙伴 ${mark}`, en: `Partner ${mark}` };
      const { page, errors } = await newPage(browser(), options);
      await signInToConsole(page, { role: 'service', language: lang });
      await page.goto(consoleUrl(`/races/${RACE_ID}/site`));
      await page.getByTestId('site-page').waitFor();
      await choose(page, page.getByTestId('site-domain'), DOMAIN);
      await page.getByTestId('site-state').waitFor();

      // The carousel: a new slide, moved from last to first with the keyboard.
      await page.getByRole('tab', { name: text.carouselTab }).click();
      const slides = page.getByTestId('site-carousel-slides');
      await slides.waitFor();
      const before = await slides.locator('[data-testid^="site-carousel-slides-"]:not([data-testid$="-add"])').count();
      await slides.getByRole('button', { name: text.addSlide }).click();
      const count = before + 1;
      const added = slides.getByTestId(`site-carousel-slides-${before}`);
      await added.waitFor();
      await added.getByLabel(text.image, { exact: true }).fill('demo/carousel-2.svg');
      await added.getByLabel(text.titleZh).fill(slide.zh);
      await added.getByLabel(text.titleEn).fill(slide.en);
      await added.getByLabel(text.link).fill('/race-information/race-rules');
      await slides.getByRole('button', { name: text.moveUp(count) }).focus();
      for (let i = 0; i < count - 1; i += 1) await page.keyboard.press('Enter');
      const first = slides.getByTestId('site-carousel-slides-0');
      await expect.poll(() => first.getByLabel(text.titleZh).inputValue()).toBe(slide.zh);
      await expectAccessible(page, `console site carousel ${lang} ${device}`);
      await shot(page, `console-site-parts-carousel-${device}-${lang}`);

      // A partner among the event partners.
      await page.getByRole('tab', { name: text.partnersTab }).click();
      const category = page.getByTestId('site-partners-eventPartner');
      await category.waitFor();
      await category.getByRole('button', { name: text.addPartner }).click();
      const partners = category.locator('[data-testid$="-partners"]');
      const last = partners.locator('.site-parts-card').last();
      await last.getByLabel(text.logo, { exact: true }).fill('demo/partners/canal-dairy.svg');
      await last.getByLabel(text.href).fill('https://partner.example/');
      await last.getByLabel(text.nameZh).fill(partner.zh);
      await last.getByLabel(text.nameEn).fill(partner.en);
      await expectAccessible(page, `console site partners ${lang} ${device}`);
      await shot(page, `console-site-parts-partners-${device}-${lang}`);

      // Save, then publish (with its confirmation).
      await page.getByTestId('site-save').click();
      await page.getByTestId('site-unsaved').waitFor({ state: 'detached' });
      await page.getByTestId('site-publish').click();
      const dialog = page.locator('.ant-modal-confirm');
      await dialog.getByRole('button', { name: text.publish }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => page.getByTestId('site-published-state').innerText()).toBe(text.matches);

      // The public home page of the domain (seen on a desktop): the slide first, the partner's logo among the
      // event partners.
      if (device === 'desktop') {
        const visitor = await newPage(browser(), { viewport: { width: 1280, height: 900 } });
        const origin = `http://${DOMAIN}:${serverPort()}`;
        await visitor.context.addCookies([{ name: 'language', value: lang, url: origin }]);
        await visitor.page.goto(`${origin}/#/home`);
        await appDrawn(visitor.page);
        const carousel = visitor.page.getByTestId('home-carousel');
        await expect.poll(() => carousel.locator('.hero__slide img').first().getAttribute('alt')).toBe(slide[lang]);
        const group = visitor.page.locator('[data-testid="partner-group"][data-code="eventPartner"]');
        await expect.poll(() => group.locator(`img[alt="${partner[lang]}"]`).count()).toBe(1);
        await group.scrollIntoViewIfNeeded();
        await screenshot(visitor.page, `console-site-parts-home-${device}-${lang}`);
        await visitor.context.close();
        expect(visitor.errors).toEqual([]);
      }

      await page.context().close();
      expect(errors).toEqual([]);
    },
  );
});
