/**
 * The console's Registration forms page (issue 33 §3), in Chinese and English, on a desktop and a tablet: an
 * owner adds a custom drop-down field "T-shirt fit" (zh/en labels and options) to the demo race's public form,
 * saves the draft and sees it in the preview (the SPA's `?preview=form`, desktop and phone frames, with the
 * "nothing is sent" notice); an invalid key is listed by its JSON path and the publication is refused; fixed,
 * the form is published as the next version, listed with who published it, and a runner's sign-up form shows
 * the new field. On the tablet the field is removed again (with its confirmation) after the preview. The demo form is published back before each run and at the end. No serious or
 * critical axe finding.
 */
import type { Page } from 'playwright-core';
import seed from '../../server/seed/race.json';
import { loginInDrawer, newPage, screenshot, siteUrl, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { siteCli } from './site-config';
import { serverPort } from './test-server';

const RACE_ID = seed.race.raceId;
const SEED_FORM = 'server/seed/registration-forms/qc-marathon-2027.json';
const KEY = 'shirtFit';
const browser = useBrowser();

const TEXT = {
  zh: {
    title: '报名表',
    label: 'T恤版型',
    confirmPublish: /^发 ?布$/,
    refused: '报名表有 1 个问题，请修改后再发布',
    published: /^已发布第 \d+ 版$/,
    notice: '预览：不会提交任何内容',
    preview: '预览',
    versions: '版本',
    owner: 'E2E owner',
    remove: /^删 ?除$/,
    leaveTitle: '离开此页？',
    stay: '留在此页',
  },
  en: {
    title: 'Registration forms',
    label: 'T-shirt fit',
    confirmPublish: /^Publish$/,
    refused: 'The form has 1 problem(s): fix them before publishing',
    published: /^Version \d+ published$/,
    notice: 'Preview: nothing is sent',
    preview: 'Preview',
    versions: 'Versions',
    owner: 'E2E owner',
    remove: /^Remove$/,
    leaveTitle: 'Leave this page?',
    stay: 'Stay',
  },
} as const;

// The test files share one server: the demo race's public form goes back to the seeded one.
const restoreForm = () => siteCli('form-publish', RACE_ID, SEED_FORM);
afterAll(restoreForm);

/** A screenshot from the top of the page. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

/** Opens the field drawer of `key` and gives it `newKey`. */
async function rekey(page: Page, key: string, newKey: string) {
  await page.getByTestId(`edit-field-${key}`).click();
  const drawer = page.getByTestId('field-editor');
  await drawer.getByTestId('field-key').fill(newKey);
  await page.getByTestId('field-apply').click();
  await drawer.waitFor({ state: 'detached' });
}

/** Publishes: the button, then the confirmation. */
async function publish(page: Page, lang: 'zh' | 'en') {
  await page.getByTestId('forms-publish').click();
  const dialog = page.locator('.ant-modal-confirm');
  await dialog.getByRole('button', { name: TEXT[lang].confirmPublish }).click();
  await dialog.waitFor({ state: 'hidden' });
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the registration forms page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'an owner adds a field and previews it; on the desktop, refused on a problem, published, on the sign-up form (%s)',
    async (lang) => {
      await restoreForm();
      const text = TEXT[lang];
      const { page, context, errors } = await newPage(browser(), options);
      await signInToConsole(page, { role: 'owner', language: lang });
      await page.goto(consoleUrl(`/races/${RACE_ID}/forms`));
      const main = page.getByTestId('forms-page');
      await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
      await page.getByTestId('forms-channel-public').waitFor();
      await page.getByTestId('edit-field-name').waitFor();
      await expectAccessible(page, `console forms ${lang} ${device}`);
      await shot(page, `console-forms-${device}-${lang}`);

      // A drop-down field, named in both languages, with two options.
      await page.getByTestId('add-field').click();
      const drawer = page.getByTestId('field-editor');
      await drawer.getByTestId('field-key').fill(KEY);
      await drawer.getByTestId('field-label-zh').fill(TEXT.zh.label);
      await drawer.getByTestId('field-label-en').fill(TEXT.en.label);
      for (const [i, [value, zh, en]] of [
        ['slim', '修身', 'Slim'],
        ['regular', '常规', 'Regular'],
      ].entries()) {
        await drawer.getByTestId(`option-${i}-value`).fill(value!);
        await drawer.getByTestId(`option-${i}-zh`).fill(zh!);
        await drawer.getByTestId(`option-${i}-en`).fill(en!);
      }
      await expectAccessible(page, `console forms field drawer ${lang} ${device}`);
      await shot(page, `console-forms-field-${device}-${lang}`);
      await page.getByTestId('field-apply').click();
      await drawer.waitFor({ state: 'detached' });
      await page.getByTestId(`edit-field-${KEY}`).waitFor();
      await page.getByTestId('forms-no-problems').waitFor();

      if (device === 'desktop') {
        // Unsaved: leaving by the side menu asks first, and staying keeps the page and its changes.
        await page.locator('.console-sider a[href*="/entries"]').click();
        const dialog = page.locator('.ant-modal-confirm');
        await dialog.locator('.ant-modal-confirm-title').filter({ hasText: text.leaveTitle }).waitFor();
        await dialog.getByRole('button', { name: text.stay }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(page.url()).toContain(`/races/${RACE_ID}/forms`);
        await page.getByTestId(`edit-field-${KEY}`).waitFor();
      }

      // Saved, the draft shows in the preview, desktop and phone, with the notice that nothing is sent.
      await page.getByTestId('forms-save').click();
      await expect.poll(() => page.getByTestId('forms-save').isDisabled()).toBe(true);
      await page.getByRole('tab', { name: text.preview }).click();
      for (const frame of ['forms-preview-desktop', 'forms-preview-phone']) {
        const preview = page.frameLocator(`[data-testid="${frame}"]`);
        await preview.getByTestId('preview-notice').getByText(text.notice).waitFor();
        await preview.getByText(text.label, { exact: true }).waitFor();
      }
      await expectAccessible(page, `console forms preview ${lang} ${device}`);
      await shot(page, `console-forms-preview-${device}-${lang}`);

      await page.getByRole('tab', { name: lang === 'zh' ? '字段' : 'Fields' }).click();
      if (device === 'tablet') {
        // On the tablet the field is removed again (after its confirmation) and the draft saved.
        await page.getByTestId(`remove-field-${KEY}`).click();
        await page.locator('.ant-popconfirm').getByRole('button', { name: text.remove }).click();
        await page.getByTestId(`edit-field-${KEY}`).waitFor({ state: 'detached' });
        await page.getByTestId('forms-save').click();
        await expect.poll(() => page.getByTestId('forms-save').isDisabled()).toBe(true);
        await context.close();
        expect(errors).toEqual([]);
        return;
      }

      // A key that is not a key: listed by its JSON path; publishing is refused.
      await rekey(page, KEY, 'shirt fit');
      const problems = page.getByTestId('forms-problems');
      await problems.getByText(/\$\.fields\[\d+\]\.key/).waitFor();
      await publish(page, lang);
      await problems.getByText(text.refused).waitFor();
      await expectAccessible(page, `console forms refused ${lang} ${device}`);
      await shot(page, `console-forms-refused-${device}-${lang}`);

      // Fixed and published: the next version, by this owner.
      await rekey(page, 'shirt fit', KEY);
      await page.getByTestId('forms-no-problems').waitFor();
      await publish(page, lang);
      await page.locator('.ant-message').getByText(text.published).waitFor();
      await page.getByRole('tab', { name: text.versions }).click();
      const versions = page.getByTestId('forms-versions');
      await versions.getByText(text.owner).first().waitFor();
      await expectAccessible(page, `console forms versions ${lang} ${device}`);
      await shot(page, `console-forms-versions-${device}-${lang}`);

      {
        // A runner's sign-up form shows the new field.
        const runner = await newPage(browser(), { viewport: { width: 1280, height: 900 } });
        const origin = `http://localhost:${serverPort()}`;
        await runner.context.addCookies([{ name: 'language', value: lang, url: origin }]);
        await runner.page.goto(siteUrl('localhost', '/my/signup'));
        await loginInDrawer(runner.page, lang);
        await runner.page.getByTestId('entry-choose-10K').click();
        const people = runner.page.getByTestId('entry-people');
        const field = people.getByLabel(text.label, { exact: true });
        await field.waitFor();
        await field.scrollIntoViewIfNeeded();
        await screenshot(runner.page, `console-forms-site-${lang}`);
        await runner.context.close();
        expect(runner.errors).toEqual([]);
      }
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
