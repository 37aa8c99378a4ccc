/**
 * One server, two events: a second race bound and published beside the demo shows only its own names,
 * organisers and numbers, on every page and in both languages; a bound domain without a published
 * configuration says so and names the command that publishes one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { SiteConfig } from '#contract/site-config/schema';
import { newPage, screenshot, useBrowser } from './browser';
import { addRace, bindDomain, DEMO_RACE_MARKS, publishForDomain } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const DOMAIN = 'lakeside.localhost';
const UNPUBLISHED = 'unpublished.localhost';
const RACE_ID = 'lakeside-half-2027';

const LAKESIDE_RACE = {
  raceId: RACE_ID,
  raceName: '2027 白鹭湖半程马拉松',
  raceNameEn: '2027 Egret Lake Half Marathon',
  contactName: '白鹭湖半马组委会',
  contactPhone: '0571-5550-1234',
  detailAddress: '白鹭湖公园东门',
  raceItemTypeName: '半程马拉松,5公里',
  startTime: '2027-10-10 08:00:00',
  endTime: '2027-10-10 12:00:00',
  signUpStartTime: '2027-06-01 10:00:00',
  signUpEndTime: '2027-06-15 18:00:00',
  signUpOpenStatus: 0,
};

function svg(label: string, width: number, height: number, fill: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="${fill}"/><text x="50%" y="55%" font-size="${Math.round(height / 3)}" text-anchor="middle" fill="#fff" font-family="sans-serif">${label}</text></svg>`;
}

const lakesideConfig: SiteConfig = {
  version: 'lakeside-1',
  websiteTitle: '白鹭湖半程马拉松',
  websiteTitleEn: 'Egret Lake Half Marathon',
  logo: 'lakeside/logo.svg',
  copyright: 'lakeside/copyright.svg',
  eventInfo: {
    slogan: '湖光为伴，白鹭同行',
    sloganEn: 'Run the lake with the egrets',
    organizers: [
      {
        role: '主办单位：',
        roleEn: 'Hosted by ',
        names: '白鹭湖区人民政府',
        namesEn: 'Egret Lake District Government',
      },
      {
        role: '承办单位：',
        roleEn: 'Organised by ',
        names: '白鹭湖半马组委会',
        namesEn: 'Egret Lake Half Marathon Committee',
      },
    ],
    hotline: '0571-5550-1234',
    hotlineHours: '每天 8:00-20:00',
    hotlineHoursEn: 'daily 8:00-20:00',
    email: 'hello@egretlake.example',
  },
  qrCodeList: [{ id: 1, label: '白鹭湖公众号', labelEn: 'Egret Lake on WeChat', src: 'lakeside/qr.svg' }],
  websiteRegInfo: [
    {
      id: 1,
      label: '湖ICP备2027000001号',
      labelEn: 'ICP Filing 湖ICP备2027000001号',
      link: 'https://beian.miit.gov.cn/',
    },
  ],
  // Two menu groups only: the bar keeps the spacing of a long menu instead of spreading them out.
  menuGroups: [
    {
      path: '/race-information',
      redirect: '/race-information/race-rules',
      meta: { title: '赛事信息', titleEn: 'Race Info' },
      children: [
        {
          path: 'race-rules',
          name: 'raceRules',
          component: 'DocumentPage',
          meta: { title: '竞赛规程', titleEn: 'Rules', dataPath: 'raceInformation.raceRules' },
        },
      ],
    },
    {
      path: '/about-us',
      redirect: '/about-us/contact-us',
      meta: { title: '关于我们', titleEn: 'About Us' },
      children: [
        {
          path: 'contact-us',
          name: 'contactUs',
          component: 'DocumentPage',
          meta: { title: '联系我们', titleEn: 'Contact', dataPath: 'aboutUs.contactUs' },
        },
      ],
    },
  ],
  contentGroups: {
    raceInformation: {
      raceRules: [
        {
          id: 'rules',
          time: Date.UTC(2027, 4, 1),
          title: '2027白鹭湖半程马拉松竞赛规程',
          titleEn: '2027 Egret Lake Half Marathon rules',
          content: '<p>比赛于2027年10月10日08:00在白鹭湖公园东门鸣枪。</p>',
          contentEn: '<p>The race starts at 08:00 on 10 October 2027 at the east gate of Egret Lake Park.</p>',
        },
      ],
    },
    aboutUs: {
      contactUs: [
        {
          id: 'contact',
          title: '联系我们',
          titleEn: 'Contact us',
          content: '<p>组委会电话：0571-5550-1234</p>',
          contentEn: '<p>Committee phone: 0571-5550-1234</p>',
        },
      ],
    },
  },
};

const browser = useBrowser();
beforeAll(async () => {
  // The second race's images, served from the data folder's files like any organiser's upload.
  const dir = path.join(serverDataDir(), 'uploads', 'lakeside');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'logo.svg'), svg('Egret Lake', 240, 64, '#2f6f5e'));
  writeFileSync(path.join(dir, 'copyright.svg'), svg('© Egret Lake Half Marathon', 1200, 90, '#1d3b34'));
  writeFileSync(path.join(dir, 'qr.svg'), svg('QR', 120, 120, '#333'));
  await addRace(LAKESIDE_RACE);
  await publishForDomain(DOMAIN, RACE_ID, lakesideConfig);
});

const origin = (domain: string) => `http://${domain}:${serverPort()}`;

/** Text a visitor can read on the page, with the footer drawn (it renders when scrolled near). */
async function visibleText(page: Page): Promise<string> {
  await page.getByTestId('site-footer').scrollIntoViewIfNeeded();
  await page.getByTestId('footer-event-lines').waitFor({ state: 'visible' });
  return page.evaluate(() => `${document.title}\n${document.body.innerText}`);
}

function expectNoneOfTheFirstRace(text: string, where: string) {
  for (const mark of DEMO_RACE_MARKS) expect([where, mark, text.includes(mark)]).toEqual([where, mark, false]);
}

describe('a second race on the same server', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`shows only its own names, organisers and numbers (${lang})`, async () => {
      const { context, page, errors } = await newPage(browser());
      await context.addCookies([{ name: 'language', value: lang, url: origin(DOMAIN) }]);
      for (const hash of ['/home', '/race-information/race-rules', '/about-us/contact-us']) {
        await page.goto(`${origin(DOMAIN)}/#${hash}`);
        await page.getByTestId('site-menu').waitFor();
        const text = await visibleText(page);
        expectNoneOfTheFirstRace(text, `${lang} ${hash}`);
        expect(text).toContain('0571-5550-1234');
        expect(text).toContain(lang === 'en' ? 'Egret Lake District Government' : '白鹭湖区人民政府');
        expect(text).toContain(lang === 'en' ? 'daily 8:00-20:00' : '每天 8:00-20:00');
      }
      await page.goto(`${origin(DOMAIN)}/#/home`);
      const footer = page.getByTestId('site-footer');
      await footer.scrollIntoViewIfNeeded();
      const qrName = lang === 'en' ? 'Egret Lake on WeChat QR code' : '白鹭湖公众号二维码';
      await footer.getByRole('img', { name: qrName }).waitFor({ state: 'visible' });
      expect(
        await footer.getByRole('img', { name: qrName }).evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBeGreaterThan(0);
      expect(await page.title()).toBe(lang === 'en' ? '2027 Egret Lake Half Marathon' : '2027白鹭湖半程马拉松');
      await screenshot(page, `second-race-${lang}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('lays a short menu out like a long one: items sit side by side from the left, not spread apart', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${origin(DOMAIN)}/#/home`);
    const items = page.getByTestId('site-menu').locator('li.site-menu__item');
    await items.first().waitFor();
    expect(await items.count()).toBe(3);
    const boxes = await items.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    const bar = await page
      .getByTestId('site-menu')
      .locator('ul')
      .first()
      .evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    expect(boxes[0].left).toBeCloseTo(bar.left, 0);
    for (let i = 1; i < boxes.length; i += 1) {
      // Adjacent, with no spreading gap between them.
      expect(boxes[i].left - boxes[i - 1].right).toBeLessThan(2);
      expect(boxes[i].width).toBeLessThanOrEqual(200);
    }
    // The demo's long menu fills the same bar with items of the same kind of width.
    await page.goto(`http://localhost:${serverPort()}/#/home`);
    const demoItems = page.getByTestId('site-menu').locator('li.site-menu__item');
    await demoItems.first().waitFor();
    const demo = await demoItems.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().width));
    expect(Math.max(...demo)).toBeLessThanOrEqual(200);
    await context.close();
  });

  it('says a bound domain has no published configuration yet, with the command that publishes one', async () => {
    const { context, page } = await newPage(browser());
    await addRace({ ...LAKESIDE_RACE, raceId: 'lakeside-unpublished' });
    // Bound through the CLI, never published.
    await bindDomain(UNPUBLISHED, 'lakeside-unpublished');
    await page.goto(`${origin(UNPUBLISHED)}/#/home`);
    const screen = page.getByTestId('preview-screen');
    await screen.waitFor();
    expect(await screen.getAttribute('data-reason')).toBe('unpublished');
    const text = (await screen.textContent()) ?? '';
    expect(text).toContain('未发布站点配置');
    expect(text).toContain(`npm run site -- publish ${UNPUBLISHED} site-config.json`);
    expect(text).not.toContain('npm run site -- bind');
    expect(text).not.toContain('尚未绑定赛事');
    await screenshot(page, 'unpublished-zh');
    await context.close();
  });
});
