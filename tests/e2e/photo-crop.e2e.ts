/**
 * The ID photo's crop (issue 28): the built SPA in Chromium against the real server. The demo race's public
 * sign-up form asks for an ID photo of exactly 358 × 441 px; a runner chooses a 1200 × 900 picture (drawn by the
 * test in the page's canvas, as a phone's JPEG). Instead of a refusal the crop dialog opens; the runner drags the
 * picture (mouse on the desktop, a finger on the phone), zooms it (the + button, the slider's keys), and uses
 * it: the server keeps exactly 358 × 441 px and the card shows it; on the desktop, where the test fills the
 * whole form, the entry is accepted by the server (which checks the stored photo's px again). Cancel keeps the
 * field empty with the size message. In Chinese and English, on a desktop and on a 360 px phone (the mobile
 * site), with screenshots of the dialog.
 */
import type { Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import { imageDimensions } from '#contract/image-dimensions';
import { PRIVATE_UPLOAD_DIR } from '#contract/upload-value';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { uploadKey } from '../../server/src/lib/file-store';
import { hashPassword } from '../../server/src/lib/password-hash';
import { axeFindings, blocking } from './axe';
import path from 'node:path';
import {
  loginInDrawer,
  newPage,
  passEntrySlider,
  screenshot,
  SCREENSHOT_DIR,
  siteUrl,
  useBrowser,
  saveScreenshot,
} from './browser';
import { fillDemoPerson, fromNow, personItem, switchLanguage, type UploadFile } from './demo-form';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 10_000).padStart(4, '0');

const TEXT = {
  zh: {
    title: '裁剪照片',
    hint: '拖动和缩放，使照片符合 358 × 441 像素',
    problem: '图片尺寸不符合标准：要求 358 × 441 px，当前为 1200 × 900 px',
    use: /^使用此照片$/,
    cancel: /^取 ?消$/,
    zoomIn: '放大',
    yes: /^是 ?$/,
    authenticity: '您上传的文件是否保证真实有效？',
  },
  en: {
    title: 'Crop photo',
    hint: 'Drag and zoom to fit 358 × 441 px',
    problem: 'The image size does not meet the standard: 358 × 441 px required, 1200 × 900 px given',
    use: /^Use this photo$/,
    cancel: /^Cancel$/,
    zoomIn: 'Zoom in',
    yes: /^Yes$/,
    authenticity: 'Do you guarantee that the uploaded file is genuine and valid?',
  },
} as const;

const PHONE = {
  viewport: { width: 360, height: 740 },
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
};

/** The check digit of a mainland ID number (GB 11643). */
function idNumber(body17: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body17].reduce((s, d, i) => s + Number(d) * weights[i]!, 0);
  return body17 + '10X98765432'[sum % 11];
}

const CASES = [
  { lang: 'zh', device: 'desktop', n: 1 },
  { lang: 'en', device: 'desktop', n: 2 },
  { lang: 'zh', device: 'phone', n: 3 },
  { lang: 'en', device: 'phone', n: 4 },
] as const;
const runnerPhone = (n: number) => `1775${stamp}${String(n).padStart(3, '0')}`;

beforeAll(async () => {
  // The demo race open for sign-up (the test files share one server: restored afterwards).
  await addRace({ ...seed.race, signUpStartTime: fromNow(-2), signUpEndTime: fromNow(30), signUpOpenStatus: 1 });
  const { db, repos } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  const passwordHash = await hashPassword(PASSWORD);
  for (const { n } of CASES) await repos.users.create({ phone: runnerPhone(n), passwordHash }, Date.now());
  await db.close();
});
afterAll(() => addRace(seed.race));

/**
 * A 1200 × 900 JPEG as a phone takes it, drawn in the page: a sky, a track, a runner in the middle (so the
 * screenshots show what is being framed).
 */
async function landscapePicture(page: Page): Promise<UploadFile> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 1200;
    canvas.height = 900;
    const c = canvas.getContext('2d')!;
    const sky = c.createLinearGradient(0, 0, 0, 900);
    sky.addColorStop(0, '#7fb8e6');
    sky.addColorStop(0.62, '#d9ecf7');
    sky.addColorStop(0.62, '#b5533c');
    sky.addColorStop(1, '#8e3b2a');
    c.fillStyle = sky;
    c.fillRect(0, 0, 1200, 900);
    c.strokeStyle = 'rgba(255,255,255,0.8)';
    c.lineWidth = 6;
    for (const x of [-400, 0, 400, 800, 1200, 1600]) {
      c.beginPath();
      c.moveTo(600, 558);
      c.lineTo(x, 900);
      c.stroke();
    }
    c.fillStyle = '#0b5fa5';
    c.fillRect(470, 430, 260, 470); // the shirt
    c.fillStyle = '#f2c7a5';
    c.beginPath();
    c.arc(600, 330, 110, 0, Math.PI * 2); // the face
    c.fill();
    c.fillStyle = '#2b2b2b';
    c.beginPath();
    c.arc(600, 290, 112, Math.PI, 0); // the hair
    c.fill();
    c.fillStyle = '#fff';
    c.fillRect(525, 560, 150, 90); // the bib
    c.fillStyle = '#a61d24';
    c.font = 'bold 56px sans-serif';
    c.textAlign = 'center';
    c.fillText('A0001', 600, 625);
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/jpeg', 0.9));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return btoa(text);
  });
  return { name: 'IMG_2027.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(base64, 'base64') };
}

/** The width and height of an upload as the server keeps it ('uploads/<name>'), read from its stored bytes. */
async function storedSize(url: string) {
  const { db, files } = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: `${repoRoot}/server/seed`,
    now: Date.now(),
  });
  try {
    expect(url).toMatch(new RegExp(`^${PRIVATE_UPLOAD_DIR}/[\\w.-]+$`));
    const bytes = await files.get(uploadKey(url));
    return bytes ? imageDimensions(bytes) : null;
  } finally {
    await db.close();
  }
}

/**
 * No serious or critical axe finding inside the crop dialog (the page behind it is the sign-up page's own
 * browser tests' business).
 */
async function expectDialogAccessible(page: Page, state: string) {
  await page.waitForTimeout(350);
  const findings = blocking(await axeFindings(page, state));
  const inDialog = [];
  for (const finding of findings) {
    const targets = await page.evaluate(
      (selectors) => selectors.filter((s) => document.querySelector(s)?.closest('.crop-photo')),
      finding.targets,
    );
    if (targets.length > 0) inDialog.push({ ...finding, targets });
  }
  expect(inDialog).toEqual([]);
}

/** Drags the picture on the stage by (dx, dy): the mouse on a desktop, one finger on a phone. */
async function drag(
  page: Page,
  stage: { x: number; y: number; width: number; height: number },
  dx: number,
  dy: number,
  touch: boolean,
) {
  const x = stage.x + stage.width / 2;
  const y = stage.y + stage.height / 2;
  if (!touch) {
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i += 1) await page.mouse.move(x + (dx * i) / 8, y + (dy * i) / 8);
    await page.mouse.up();
    return;
  }
  const cdp = await page.context().newCDPSession(page);
  const point = (i: number) => [{ x: x + (dx * i) / 8, y: y + (dy * i) / 8, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(0) });
  for (let i = 1; i <= 8; i += 1)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(i) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** The screen as the runner sees it with the dialog open (the viewport, without the toasts above it). */
async function dialogShot(page: Page, name: string) {
  const style = await page.addStyleTag({ content: '.ant-message { visibility: hidden !important; }' });
  await saveScreenshot(page, path.join(SCREENSHOT_DIR, `${name}.png`));
  await style.evaluate((node) => (node as HTMLElement).remove());
}

const cropOf = async (page: Page) =>
  ((await page.getByTestId('crop-stage').getAttribute('data-crop')) ?? '').split(',').map(Number);

describe('the ID photo crop', () => {
  for (const { lang, device, n } of CASES) {
    it(`crops a 1200 × 900 picture to 358 × 441 px and the server accepts the entry (${lang}, ${device})`, async () => {
      const t = TEXT[lang];
      const phone = device === 'phone';
      const { context, page, errors } = await newPage(
        browser(),
        phone ? PHONE : { viewport: { width: 1280, height: 900 } },
      );
      const picture = await landscapePicture(page);
      // The URLs the server answered for the photos uploaded.
      const uploads: string[] = [];
      page.on('response', (response) => {
        if (response.request().method() === 'POST' && response.url().includes(API_PATHS.uploadImageUserCentre))
          void response.json().then((answer: { data: { url: string } }) => uploads.push(answer.data.url));
      });

      await page.goto(phone ? `http://localhost:${serverPort()}/m/#/my/signup` : siteUrl('localhost', '/my/signup'));
      await loginInDrawer(page, 'zh', { phone: runnerPhone(n), password: PASSWORD });
      await page.getByTestId('entry-choose-10K').click();
      await page.getByTestId('entry-people').waitFor();
      if (lang === 'en') await switchLanguage(page, 'en');
      const photo = personItem(page, 'photo');
      const input = photo.locator('input[type="file"]');

      // Cancel: nothing uploads, the field stays empty, and the size message says why.
      await input.setInputFiles(picture);
      const dialog = page.getByRole('dialog').filter({ hasText: t.title });
      await dialog.getByText(t.hint).waitFor();
      await dialog.getByRole('button', { name: t.cancel }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('.ant-message').getByText(t.problem).waitFor();
      expect(await photo.locator('.ant-upload-list-item').count()).toBe(0);
      expect(uploads).toEqual([]);

      // Again, and crop: the dialog fits the screen, the frame starts as large as the picture allows.
      await input.setInputFiles(picture);
      await dialog.getByText(t.hint).waitFor();
      await expect(dialog.getByText(t.problem).count()).resolves.toBe(1);
      const stage = page.getByTestId('crop-stage');
      const frame = page.locator('.crop-photo__frame');
      await page.locator('.crop-photo__picture').evaluate((img: HTMLImageElement) => img.decode());
      const box = (await page
        .locator('.crop-photo .ant-modal-container, .crop-photo .ant-modal-content')
        .first()
        .boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(phone ? 360 : 1280);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(phone ? 740 : 900);
      const frameBox = (await frame.boundingBox())!;
      expect(frameBox.width / frameBox.height).toBeCloseTo(358 / 441, 2);
      const start = await cropOf(page);
      expect(start).toEqual([235, 0, 731, 900]);
      expect(await rawKeysOn(page)).toEqual([]);
      await dialogShot(page, `photo-crop-dialog-${lang}-${device}`);
      await expectDialogAccessible(page, `crop dialog (${lang}, ${device})`);

      // Zoom in (the button, then the slider's arrow key), drag the picture left: the frame moves right.
      await dialog.getByRole('button', { name: t.zoomIn }).click();
      await dialog.getByRole('slider').focus();
      await page.keyboard.press('ArrowRight');
      const zoomed = await cropOf(page);
      expect(zoomed[2]).toBeLessThan(731);
      await drag(page, (await stage.boundingBox())!, -40, 0, phone);
      const dragged = await cropOf(page);
      expect(dragged[0]).toBeGreaterThan(zoomed[0]!);
      expect(dragged[2]).toBe(zoomed[2]);
      // The keyboard moves it too.
      await stage.focus();
      await page.keyboard.press('ArrowDown');
      expect((await cropOf(page))[1]).toBeLessThan(dragged[1]!);
      await dialogShot(page, `photo-crop-dialog-moved-${lang}-${device}`);

      await dialog.getByRole('button', { name: t.use }).click();
      const question = page.getByRole('dialog').filter({ hasText: t.authenticity });
      await question.getByRole('button', { name: t.yes }).click();
      await photo.locator('.ant-upload-list-item-done').waitFor();
      await expect.poll(() => uploads.length).toBe(1);
      await expect(storedSize(uploads[0]!)).resolves.toEqual({ width: 358, height: 441 });
      const shown = await photo
        .locator('.ant-upload-list-item img')
        .evaluate(async (img: HTMLImageElement) => (await img.decode(), [img.naturalWidth, img.naturalHeight]));
      expect(shown).toEqual([358, 441]);
      await screenshot(page, `photo-crop-uploaded-${lang}-${device}`);

      // On the desktop, the rest of the form (in Chinese), then the entry: the server checks the stored photo's
      // px again. (The phone's birthday picker takes no typing: issue 28 §3, another item's test.)
      if (phone) {
        expect(errors).toEqual([]);
        await context.close();
        return;
      }
      if (lang === 'en') await switchLanguage(page, 'zh');
      await fillDemoPerson(
        page,
        {
          name: `裁剪${'一二三四'[n - 1]}`,
          gender: '男',
          // Born 1990-01-01, a man (the 17th digit odd).
          id: idNumber(`11010819900101${50 + n}${(n * 2 + 1) % 10}`),
          birthday: '1990-01-01',
          phone: runnerPhone(n),
          emergencyName: '李娜',
          emergencyPhone: `1391${stamp}${String(n).padStart(3, '0')}`,
          address: '中关村大街1号',
          bloodType: 'O型',
        },
        '10K',
        { photo: false },
      );
      await passEntrySlider(page);
      await page.getByTestId('entry-submit').click();
      await page.waitForURL(/#\/my\/order\//);
      await page.getByTestId('order-status').first().waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
