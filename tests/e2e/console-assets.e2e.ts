/**
 * The console's asset library (issue 33 §1), in Chinese and English, on a desktop and a tablet: a service member
 * opens an empty library (its explanation), uploads an image and a PDF at once, sees a bad file refused with its
 * reason, replaces the image and gets the new one from the public /files address, cannot delete the image the
 * race information uses, and deletes the unused PDF after confirming. Each case has a race of its own (added
 * through the CLI, its imgDetail naming the route map). No serious or critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import { imageDimensions } from '#contract/image-dimensions';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { pngOf } from '../../server/test/png';
import { addRace } from './site-config';
import { serverPort } from './test-server';

const browser = useBrowser();

const TEXT = {
  zh: {
    title: '素材库',
    empty: '还没有素材',
    added: (name: string) => `已添加 ${name}`,
    refused: '未添加 fake.png',
    reason: 'fake.png：文件内容不是 .png 格式',
    replaceOf: (name: string) => `用新的 .png 文件替换 ${name}`,
    replaced: '已替换 route-map.png',
    usedBy: '赛事信息',
    deleteOf: (name: string) => `删除 ${name}`,
    confirm: /^删 ?除$/,
    deleted: '已删除 rules.pdf',
  },
  en: {
    title: 'Asset library',
    empty: 'No asset yet',
    added: (name: string) => `${name} added`,
    refused: 'fake.png not added',
    reason: 'fake.png: the content is not a .png file',
    replaceOf: (name: string) => `Replace ${name} with a new .png file`,
    replaced: 'route-map.png replaced',
    usedBy: 'Race information',
    deleteOf: (name: string) => `Delete ${name}`,
    confirm: /^Delete$/,
    deleted: 'rules.pdf deleted',
  },
} as const;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the assets page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('uploads, refuses, replaces, keeps a used asset, deletes (%s)', async (lang) => {
    const text = TEXT[lang];
    const raceId = `e2e-assets-${randomBytes(3).toString('hex')}`;
    await addRace({
      raceId,
      raceName: '2019 素材测试马拉松',
      raceNameEn: '2019 Assets Test Marathon',
      startTime: '2019-11-10 07:30:00',
      imgDetail: `assets/${raceId}/route-map.png`,
    });
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'service', language: lang });
    await page.goto(consoleUrl(`/races/${raceId}/assets`));
    const main = page.getByTestId('assets-page');
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
    await main.getByTestId('assets-empty').getByText(text.empty).waitFor();
    await expectAccessible(page, `console assets empty ${lang} ${device}`);
    await screenshot(page, `console-assets-empty-${device}-${lang}`);

    // An image and a PDF at once: both added and listed.
    const upload = main.locator('.ant-upload-drag input[type=file]');
    await upload.setInputFiles([
      { name: 'Route Map.png', mimeType: 'image/png', buffer: pngOf(60, 30, [200, 40, 40]) },
      { name: 'rules.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    const outcomes = main.getByTestId('asset-upload-outcomes');
    await outcomes.getByText(text.added('route-map.png')).waitFor();
    await outcomes.getByText(text.added('rules.pdf')).waitFor();
    const table = main.locator('.ant-table');
    const imageRow = table.locator('.ant-table-row').filter({ hasText: 'route-map.png' });
    await imageRow.getByText('60 × 30 px').waitFor();
    await imageRow.getByText(text.usedBy).waitFor();
    await table.locator('.ant-table-row').filter({ hasText: 'rules.pdf' }).waitFor();

    // A file that is not what its name says: refused with the reason.
    await upload.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
    await outcomes.getByText(text.refused).waitFor();
    await outcomes.getByText(text.reason).waitFor();
    await expectAccessible(page, `console assets listed ${lang} ${device}`);
    await screenshot(page, `console-assets-listed-${device}-${lang}`);

    // Replace the image: the table and the public address show the new one.
    await imageRow
      .getByLabel(text.replaceOf('route-map.png'), { exact: true })
      .and(page.locator('input[type=file]'))
      .setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: pngOf(120, 40, [30, 90, 200]) });
    await page.getByText(text.replaced).first().waitFor();
    await imageRow.getByText('120 × 40 px').waitFor();
    const served = await fetch(`http://localhost:${serverPort()}/files/assets/${raceId}/route-map.png`);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, no-cache');
    expect(imageDimensions(new Uint8Array(await served.arrayBuffer()))).toEqual({ width: 120, height: 40 });
    const thumb = imageRow.locator('img');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);

    // The race information uses the image: it cannot be deleted. The PDF is unused: deleted after confirming.
    await expect(
      imageRow.getByRole('button', { name: new RegExp(`^${text.deleteOf('route-map.png')}`) }).isDisabled(),
    ).resolves.toBe(true);
    await table
      .locator('.ant-table-row')
      .filter({ hasText: 'rules.pdf' })
      .getByRole('button', { name: text.deleteOf('rules.pdf') })
      .click();
    const confirm = page.locator('.ant-popconfirm');
    await expectAccessible(page, `console assets delete ${lang} ${device}`);
    await confirm.getByRole('button', { name: text.confirm }).click();
    await page.getByText(text.deleted).first().waitFor();
    await table.locator('.ant-table-row').filter({ hasText: 'rules.pdf' }).waitFor({ state: 'detached' });
    await screenshot(page, `console-assets-done-${device}-${lang}`);
    await context.close();
    expect(errors).toEqual([]);
  });
});
