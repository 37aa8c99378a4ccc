/**
 * The Website page's "Pages and news" editor (issue 33 §2) in Chinese and English, on a desktop and a tablet: a
 * service member writes a news item through the rich-text editor's toolbar (bold text, a link checked by the
 * site's link rule, an image with its alt text), pastes text from Word (its styling and a script are dropped),
 * saves the draft, publishes it, and sees the item on the public site's news page as written. Each case works on
 * a domain of its own (a *.localhost name bound to the demo race, published from the demo's configuration), so
 * the demo's own site stays as the other browser tests expect it. No serious or critical axe finding.
 */
import type { Page } from 'playwright-core';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible, switchLanguage } from './demo-form';
import { fetchSiteConfig, publishForDomain } from './site-config';
import { serverPort } from './test-server';

const RACE = 'qc-marathon-2027';
const browser = useBrowser();

const TEXT = {
  zh: {
    tab: '信息页与新闻',
    add: /添加文档/,
    title: '标题（中文）',
    titleEn: '标题（英文）',
    contentTab: '中文',
    content: '正文（中文）',
    toolbar: '格式',
    bold: '加粗',
    link: '链接',
    image: '图片',
    address: '链接地址',
    linkText: '链接文字',
    blocked: /不能使用 javascript:/,
    ok: /^确 ?定$/,
    imageFile: '图片（素材库）',
    alt: '替代文字',
    insert: /^插 ?入$/,
    save: '保存草稿',
    publish: /^发 ?布$/,
    published: /^已发布：/,
  },
  en: {
    tab: 'Pages and news',
    add: /Add document/,
    title: 'Title (Chinese)',
    titleEn: 'Title (English)',
    contentTab: 'English',
    content: 'Content (English)',
    toolbar: 'Formatting',
    bold: 'Bold',
    link: 'Link',
    image: 'Image',
    address: 'Address',
    linkText: 'Link text',
    blocked: /javascript:, data:, vbscript: and file: links/,
    ok: /^OK$/,
    imageFile: 'Image (asset library)',
    alt: 'Alt text',
    insert: /^Insert$/,
    save: 'Save draft',
    publish: /^Publish$/,
    published: /^Published: /,
  },
} as const;

const domainOf = (lang: string, device: string) => `docs-${lang}-${device}.localhost`;

beforeAll(async () => {
  const demo = await fetchSiteConfig();
  for (const lang of ['zh', 'en']) {
    for (const device of ['desktop', 'tablet']) await publishForDomain(domainOf(lang, device), RACE, demo);
  }
});

/** Pastes `html` into the focused editing area as the browser would from Word (a real paste event). */
async function pasteHtml(page: Page, html: string) {
  await page.evaluate((pasted) => {
    const data = new DataTransfer();
    data.setData('text/html', pasted);
    data.setData('text/plain', pasted.replace(/<[^>]*>/g, ''));
    document.activeElement?.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, html);
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the Website page: pages and news (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('writes, publishes and shows a news item (%s)', async (lang) => {
    const text = TEXT[lang];
    const domain = domainOf(lang, device);
    const stamp = `${lang}-${device}-${Date.now().toString(36)}`;
    const title = `新闻 ${stamp}`;
    const titleEn = `News ${stamp}`;
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'service', language: lang });
    await page.goto(consoleUrl(`/races/${RACE}/site`));

    // The case's own domain.
    await page.getByTestId('site-domain').click();
    await page.locator(`.ant-select-item-option[title="${domain}"]`).click();
    await page.getByRole('tab', { name: text.tab }).click();
    await page.getByRole('button', { name: /^raceNews/ }).click();

    // A new news item: titles, then the content through the toolbar.
    await page.getByRole('button', { name: text.add }).click();
    // Other editors' fields stay in the page (hidden tabs): the documents editor's own are meant.
    const documents = page.getByTestId('site-documents');
    await documents.getByLabel(text.title, { exact: true }).fill(title);
    await documents.getByLabel(text.titleEn, { exact: true }).fill(titleEn);
    await page.getByRole('tab', { name: text.contentTab, exact: true }).click();
    const area = page.getByRole('textbox', { name: text.content, exact: true });
    await area.click();
    const toolbar = page.getByRole('toolbar', { name: `${text.content}: ${text.toolbar}`, exact: true });
    await page.keyboard.type('Start 07:30. Bring your bib and read the ');
    // "Bring your bib" selected with the keyboard, made bold with the toolbar.
    for (let i = 0; i < ' and read the '.length; i += 1) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'Bring your bib'.length; i += 1) await page.keyboard.press('Shift+ArrowLeft');
    const bold = toolbar.getByRole('button', { name: text.bold, exact: true });
    await bold.click();
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('End');
    await expect.poll(() => bold.getAttribute('aria-pressed')).toBe('false');

    // A link: a script address is refused in the dialog, a page of the site is taken.
    await toolbar.getByRole('button', { name: text.link, exact: true }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel(text.address).fill('javascript:alert(1)');
    await dialog.getByLabel(text.linkText).fill('rules');
    await dialog.getByRole('button', { name: text.ok }).click();
    await dialog.getByText(text.blocked).waitFor();
    await dialog.getByLabel(text.address).fill('/race-information/race-rules');
    await expectAccessible(page, `console site documents link ${lang} ${device}`);
    await dialog.getByRole('button', { name: text.ok }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Pasted from Word: the text stays, its styling and a script do not.
    await area.press('End');
    await area.press('Enter');
    await pasteHtml(
      page,
      '<p class="MsoNormal" style="color:red"><span lang="ZH-CN">Pasted <i>line</i></span><o:p></o:p></p><script>window.pasted = 1</script>',
    );

    // An image from the asset library, with its alt text.
    await area.press('End');
    await area.press('Enter');
    await toolbar.getByRole('button', { name: text.image, exact: true }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: text.imageFile, exact: true }).fill('demo/route-map.svg');
    await dialog.getByLabel(text.alt).fill('Course map');
    await dialog.getByRole('button', { name: text.insert }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => area.locator('img[alt="Course map"]').count()).toBe(1);
    await expect(area.locator('script').count()).resolves.toBe(0);
    await expect(area.locator('[class], [style]').count()).resolves.toBe(0);
    await expectAccessible(page, `console site documents ${lang} ${device}`);
    await screenshot(page, `console-site-documents-${device}-${lang}`);

    // Save, then publish.
    await page.getByTestId('site-save').click();
    await page.getByTestId('site-unsaved').waitFor({ state: 'detached' });
    await page.getByTestId('site-publish').click();
    dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: text.publish }).click();
    await page.getByText(text.published).first().waitFor();
    await expect
      .poll(async () => JSON.stringify((await fetchSiteConfig(domain)).contentGroups?.newsNotice?.raceNews))
      .toContain(titleEn);

    // The public site's news page (a visitor on a desktop): the new item first (the latest), opened in place.
    const visitor = await newPage(browser());
    const site = visitor.page;
    await site.goto(`http://${domain}:${serverPort()}/#/news-notice/race-news`);
    await site.getByTestId('main').waitFor();
    if (lang === 'en') await switchLanguage(site, 'en');
    const shown = lang === 'en' ? titleEn : title;
    await site.getByText(shown).first().click();
    const main = site.getByTestId('main');
    // The article's own title (h1): the list's row is a heading with the same name (h2), there before the click.
    await main.getByTestId('document-view').getByRole('heading', { name: shown, level: 1 }).waitFor();
    await expect(main.locator('b, strong').filter({ hasText: 'Bring your bib' }).count()).resolves.toBe(1);
    await expect(main.getByRole('link', { name: 'rules' }).getAttribute('href')).resolves.toBe(
      '/race-information/race-rules',
    );
    await expect(main.getByText('Pasted line').count()).resolves.toBe(1);
    const image = main.locator('img[alt="Course map"]');
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect(site.evaluate(() => 'pasted' in window)).resolves.toBe(false);
    await screenshot(site, `console-site-documents-public-${device}-${lang}`);

    await visitor.context.close();
    await context.close();
    expect(errors).toEqual([]);
    expect(visitor.errors).toEqual([]);
  });
});
