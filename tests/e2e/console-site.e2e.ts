/**
 * The console's Website page (issue 33 §2), in Chinese and English, on a desktop and a tablet: a fresh domain is
 * bound to the demo race through the CLI; an owner opens its draft (a starter document from the race's names),
 * makes an error in the JSON and sees it listed by its JSON path (and underlined in the editor), fixes it, saves,
 * previews the draft in the desktop frame (the site shows the draft's title under the 草稿预览 / Draft preview
 * ribbon), publishes it (the public API serves it), publishes a second version, compares the two and rolls back
 * to the first (the public API serves it again). No serious or critical axe finding.
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { API_PATHS } from '#contract/api';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { siteCli } from './site-config';
import { serverPort } from './test-server';

const RACE_ID = seed.race.raceId;
const browser = useBrowser();

const TEXT = {
  zh: {
    title: '网站内容',
    starter: /新草稿/,
    jsonTab: 'JSON',
    previewTab: '预览',
    versionsTab: '版本',
    save: /^保存草稿$/,
    publish: /^发 ?布$/,
    saved: '已保存',
    ribbon: '草稿预览',
    rollback: '回滚到此版本',
    compare: /^比 ?较$/,
    cli: '命令行',
  },
  en: {
    title: 'Website',
    starter: /New draft/,
    jsonTab: 'JSON',
    previewTab: 'Preview',
    versionsTab: 'Versions',
    save: /^Save draft$/,
    publish: /^Publish$/,
    saved: 'Saved',
    ribbon: 'Draft preview',
    rollback: 'Roll back to this version',
    compare: /^Compare$/,
    cli: 'Command line',
  },
} as const;

const DEVICES = [
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const;
const domainOf = (device: string, lang: string) => `e2e-site-${device}-${lang}.example.org`;

beforeAll(async () => {
  for (const [device] of DEVICES)
    for (const lang of ['zh', 'en']) await siteCli('bind', domainOf(device, lang), RACE_ID);
});
afterAll(async () => {
  for (const [device] of DEVICES) for (const lang of ['zh', 'en']) await siteCli('unbind', domainOf(device, lang));
});

/** The title of the document the public site serves for `domain`. */
async function publishedTitle(domain: string): Promise<string | undefined> {
  const origin = `http://localhost:${serverPort()}`;
  const lookup = (await (
    await fetch(`${origin}${API_PATHS.siteConfigLookup}?domainName=${encodeURIComponent(domain)}`)
  ).json()) as { code: number; data: { uri: string } | null };
  if (lookup.code !== 0 || !lookup.data) return undefined;
  const document = (await (await fetch(`${origin}${lookup.data.uri}`)).json()) as { websiteTitle: string };
  return document.websiteTitle;
}

/** Replaces the JSON editor's whole text (inserted as typed text, without the editor's bracket closing). */
async function replaceJson(page: Page, text: string) {
  const editor = page.getByTestId('site-json-editor');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

/** A site configuration whose title (both languages) is `title`. */
const doc = (title: string | number) =>
  JSON.stringify({ version: '1', websiteTitle: title, websiteTitleEn: title, logo: '' }, null, 2);

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Confirms the open confirmation dialog with its button `name`. */
async function confirm(page: Page, name: RegExp | string) {
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.getByRole('button', { name }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe.each(DEVICES)('the website page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'drafts a new domain’s site, finds an error by path, previews, publishes, compares and rolls back (%s)',
    async (lang) => {
      const text = TEXT[lang];
      const domain = domainOf(device, lang);
      const first = `E2E ${device} ${lang} 第一版`;
      const second = `E2E ${device} ${lang} 第二版`;
      const { page, context, errors } = await newPage(browser(), options);
      await signInToConsole(page, { role: 'owner', language: lang });
      await page.goto(consoleUrl(`/races/${RACE_ID}/site`));
      const main = page.getByTestId('site-page');
      await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
      await main.getByTestId('site-domain').click();
      await page.locator('.ant-select-item-option').filter({ hasText: domain }).click();
      await expect.poll(async () => main.getByTestId('site-origin').innerText()).toMatch(text.starter);
      await expectAccessible(page, `console site ${lang} ${device}`);
      await shot(page, `console-site-${device}-${lang}`);
      await main.getByRole('tab', { name: text.jsonTab, exact: true }).click();
      await page.getByTestId('site-json-editor').waitFor();

      // An error in the JSON: listed by its path, underlined in the editor; a click goes to its place.
      await replaceJson(page, doc(123));
      const problem = main.getByTestId('site-problem').filter({ hasText: '$.websiteTitle' });
      await problem.first().waitFor();
      await expect.poll(() => page.locator('.cm-lintRange-error').count()).toBeGreaterThan(0);
      await problem.first().click();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.classList.contains('cm-content') ?? false))
        .toBe(true);
      await expectAccessible(page, `console site error ${lang} ${device}`);
      await shot(page, `console-site-error-${device}-${lang}`);

      // Fixed and saved.
      await replaceJson(page, doc(first));
      await expect.poll(() => main.getByTestId('site-problem').count()).toBe(0);
      await main.getByTestId('site-save').click();
      await expect.poll(async () => main.getByTestId('site-state').innerText()).toContain(text.saved);
      await expect(main.getByTestId('site-unsaved').count()).resolves.toBe(0);

      // The preview: the desktop frame shows the draft's title under the ribbon.
      await main.getByRole('tab', { name: text.previewTab }).click();
      const frame = page.frameLocator('[data-testid="site-preview-desktop"]');
      await frame.getByText(first).first().waitFor({ timeout: 30_000 });
      await frame.getByRole('note', { name: text.ribbon }).waitFor();
      const phone = page.frameLocator('[data-testid="site-preview-phone"]');
      await phone.getByRole('note', { name: text.ribbon }).waitFor({ timeout: 30_000 });
      await expectAccessible(page, `console site preview ${lang} ${device}`);
      await shot(page, `console-site-preview-${device}-${lang}`);

      // Publish: the public site serves the draft.
      await main.getByTestId('site-publish').click();
      await confirm(page, text.publish);
      await expect.poll(() => publishedTitle(domain)).toBe(first);

      // A second version (saved on the way), then the two compared.
      await main.getByRole('tab', { name: text.jsonTab, exact: true }).click();
      await replaceJson(page, doc(second));
      await main.getByTestId('site-publish').click();
      await confirm(page, text.publish);
      await expect.poll(() => publishedTitle(domain)).toBe(second);
      await main.getByRole('tab', { name: text.versionsTab }).click();
      const rows = main.getByTestId('site-versions-table').locator('.ant-table-row');
      await expect.poll(() => rows.count()).toBe(2);
      await main.getByTestId('site-compare').click();
      const diff = main.getByTestId('site-diff');
      // The title in both languages: two lines each.
      await diff.locator('.site-diff__line--added').filter({ hasText: second }).first().waitFor();
      await expect(diff.locator('.site-diff__line--added').filter({ hasText: second }).count()).resolves.toBe(2);
      await expect(diff.locator('.site-diff__line--removed').filter({ hasText: first }).count()).resolves.toBe(2);
      await expectAccessible(page, `console site versions ${lang} ${device}`);
      await shot(page, `console-site-versions-${device}-${lang}`);

      // Roll back to the first: published again as a new version.
      await rows.nth(1).getByRole('button', { name: text.rollback }).click();
      await confirm(page, text.rollback);
      await expect.poll(() => publishedTitle(domain)).toBe(first);
      await expect.poll(() => rows.count()).toBe(3);

      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
