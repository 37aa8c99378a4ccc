/**
 * The console's direct-pass review (issue 32 §1), in Chinese and English, on a desktop and a tablet: a runner's
 * submitted application with an uploaded photo and a PDF (made in the test server's database as /direct saves
 * one); a service member opens it from the queue, sees the photo inline (served by the console's staff-only
 * route) and the PDF as a link, and approves it (zh) or rejects it with a reason (en), which the runner's
 * application then carries. No serious or critical axe finding.
 */
import { randomBytes, randomInt } from 'node:crypto';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { storeRunnerUpload } from '../../server/src/services/uploads/runner-uploads';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { serverDataDir } from './test-server';
import { pngOf } from '../../server/test/png';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;

let seq = randomInt(1000);

/** A runner's submitted direct-pass application with a photo and a PDF of their own; answers its id. */
async function submittedApplication(name: string): Promise<number> {
  seq += 1;
  const now = Date.now();
  const opened = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const { repos, files } = opened;
    const userId = await repos.users.create({ phone: `1377${String(now % 10_000_000).padStart(7, '0')}` }, now);
    const stored = async (ext: string, content: Buffer) => {
      const storedName = `${randomBytes(12).toString('hex')}.${ext}`;
      const kind = ext === 'pdf' ? 'file' : 'image';
      const refused = await storeRunnerUpload(
        { repos, files },
        { userId, storedName, originalName: `x.${ext}`, kind, ip: '127.0.0.1', now },
        content,
      );
      expect(refused).toBeNull();
      return `uploads/${storedName}`;
    };
    const certNo = `11010119880808${String(1000 + (seq % 9000))}`;
    return await repos.directApplications.save({
      raceId: RACE_ID,
      userId,
      status: 1,
      name,
      certHash: repos.raceCenter.certHash(certNo),
      values: {
        item: 'M',
        name,
        certificateNumber: certNo,
        phone: '13811112222',
        photo: await stored('png', pngOf(240, 160, [30, 110, 200])),
        healthCertificate: await stored('pdf', Buffer.from('%PDF-1.4\n% health report\n', 'latin1')),
      },
      sizes: {},
      submittedAt: now,
      now,
    });
  } finally {
    await opened.db.close();
  }
}

/** The application's status and reason as the runner's /direct reads them. */
async function stored(id: number) {
  const opened = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now: Date.now() });
  try {
    return await opened.repos.directApplications.findById(id);
  } finally {
    await opened.db.close();
  }
}

const TEXT = {
  zh: {
    title: '直通资格审核',
    open: (id: number) => `打开 ${id}`,
    photo: /跑者上传的/,
    pdf: /打开 PDF/,
    approve: /^通 ?过$/,
    reject: /^驳 ?回$/,
    reason: '驳回原因',
    done: '已通过',
  },
  en: {
    title: 'Direct-pass review',
    open: (id: number) => `Open ${id}`,
    photo: /uploaded by the runner/,
    pdf: /Open the PDF/,
    approve: /^Approve$/,
    reject: /^Reject$/,
    reason: 'Reason',
    done: 'Rejected',
  },
} as const;

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the direct-pass review page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('a reviewer sees the uploaded photo and decides (%s)', async (lang) => {
    const text = TEXT[lang];
    const id = await submittedApplication(lang === 'zh' ? '审核跑者' : 'Review Runner');
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'service', language: lang });
    await page.goto(consoleUrl(`/races/${RACE_ID}/review`));
    const main = page.getByTestId('review-page');
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
    await main.getByRole('button', { name: text.open(id), exact: true }).waitFor();
    await expectAccessible(page, `console review ${lang} ${device}`);
    await screenshot(page, `console-review-${device}-${lang}`);

    await main.getByRole('button', { name: text.open(id), exact: true }).click();
    const drawer = page.locator('.ant-drawer');
    const photo = drawer.getByRole('img', { name: text.photo });
    await photo.waitFor();
    // The photo really arrived through the staff-only route (the browser decoded it).
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
    await expect(drawer.getByRole('link', { name: text.pdf }).count()).resolves.toBe(1);
    await expectAccessible(page, `console review detail ${lang} ${device}`);
    await screenshot(page, `console-review-detail-${device}-${lang}`);

    if (lang === 'zh') {
      await drawer.getByRole('button', { name: text.approve }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: text.approve }).click();
      await expect.poll(async () => (await stored(id))?.status).toBe(2);
    } else {
      await drawer.getByRole('button', { name: text.reject }).click();
      const dialog = page.getByRole('dialog', { name: 'Reject the application' });
      await dialog.getByLabel(text.reason).fill('The certificate is unreadable: upload a clearer scan');
      await expectAccessible(page, `console review reject ${lang} ${device}`);
      await dialog.getByRole('button', { name: text.reject }).click();
      await expect
        .poll(async () => (await stored(id))?.rejectReason)
        .toBe('The certificate is unreadable: upload a clearer scan');
      expect((await stored(id))?.status).toBe(3);
    }
    await expect.poll(async () => drawer.innerText()).toContain(text.done);
    await screenshot(page, `console-review-decided-${device}-${lang}`);
    await context.close();
    expect(errors).toEqual([]);
  });
});
