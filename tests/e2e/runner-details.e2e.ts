/**
 * Details a runner meets (issue 28 §4), on a 360 px phone (the mobile site) and the desktop, in Chinese and
 * English: the account registration form names its password "密码 / Password" (a reset names the new one
 * "新密码 / New password"); the video cards show each video's own running time, read from the file; an
 * approved direct-pass application links straight to the sign-up with the direct channel chosen; a race pack
 * is mailed OR collected (the pick-up page of a runner who chose mailing says so and links to /post, /post of
 * a runner with a pick-up booking says so and links to the booking, and choosing mailing then is refused with
 * the reason); a restored sign-up draft marks the person whose certificate number must be typed again and
 * focuses them.
 */
import type { Page } from 'playwright-core';
import { pickupSlotId } from '../../contract/after-entry';
import type { PackPickupSettings } from '../../contract/after-entry';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { hashPassword } from '../../server/src/lib/password-hash';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { fillDemoPerson, fromNow } from './demo-form';
import { rawKeysOn } from './raw-keys';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const PASSWORD = 'Runner2027';
const stamp = String(Date.now() % 10_000).padStart(4, '0');
const origin = () => `http://localhost:${serverPort()}`;
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DEVICES = ['phone', 'desktop'] as const;
type Device = (typeof DEVICES)[number];
const at = (device: Device, hash: string) => `${origin()}${device === 'phone' ? '/m/' : '/'}#${hash}`;
const SLOT = pickupSlotId('2027-04-15', '09:00');

/** Accounts made for this file: a direct-pass applicant approved, one who chose mailing, one with a booking. */
const RUNNERS = {
  direct: `1774${stamp}001`,
  mailer: `1774${stamp}002`,
  booker: `1774${stamp}003`,
  drafter: `1774${stamp}004`,
};

beforeAll(async () => {
  await addRace({ ...seed.race, signUpStartTime: fromNow(-2), signUpEndTime: fromNow(30), signUpOpenStatus: 1 });
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const ids: Record<string, number> = {};
    for (const [who, phone] of Object.entries(RUNNERS)) {
      ids[who] = await repos.users.create({ phone, passwordHash: await hashPassword(PASSWORD) }, now);
    }
    // An approved direct-pass application.
    const application = await repos.directApplications.save({
      raceId: RACE_ID,
      userId: ids.direct!,
      status: 1,
      name: '直通跑者',
      certHash: `runner-details-direct-${now}`,
      values: {},
      sizes: {},
      submittedAt: now,
      now,
    });
    expect(await repos.directApplications.review(application, { status: 2 }, now)).toBe(true);
    // Won entries for the mailer and the booker; the mailer chose mailing, the booker booked a slot.
    const won = async (userId: number, n: number) => {
      const entry = await repos.entries.insertEntry({
        raceId: RACE_ID,
        itemCode: '10K',
        channel: 'public',
        userId,
        status: 0,
        holdsPlace: true,
        name: n === 1 ? '邮寄跑者' : '领物跑者',
        gender: 1,
        birthday: '1990-01-01',
        certType: 1,
        certHash: `runner-details-${now}-${n}`,
        certNumber: `11010119900101${String(2000 + n)}`,
        phone: '',
        values: {},
        feeFen: 0,
        now,
      });
      await repos.entries.setStatus(entry.id, [0], 1, 'won', now);
      return entry;
    };
    await won(ids.mailer!, 1);
    await repos.runnerChoices.saveMailing({
      raceId: RACE_ID,
      userId: ids.mailer!,
      method: 'mail',
      name: '邮寄跑者',
      phone: '13612342222',
      region: ['320000', '320100', '320102'],
      address: '中山路1号',
      updatedAt: now,
    });
    const booked = await won(ids.booker!, 2);
    await repos.pickup.ensureSlots(RACE_ID, seed.race.packPickup as unknown as PackPickupSettings);
    expect(await repos.pickup.takeSlot(RACE_ID, SLOT)).toBe(true);
    expect(
      await repos.pickup.insertBooking({
        raceId: RACE_ID,
        entryId: booked.id,
        slotId: SLOT,
        passCode: `RD${stamp}2345`.replace(/[01IOL]/g, '7'),
        now,
      }),
    ).toBeTruthy();
  } finally {
    await db.close();
  }
});
// The test files share one server: the demo race goes back to its seeded settings for the files after this one.
afterAll(() => addRace(seed.race));

function open(device: Device, lang: 'zh' | 'en') {
  return newPage(
    browser(),
    device === 'phone'
      ? {
          viewport: { width: 360, height: 740 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          userAgent: PHONE_UA,
        }
      : { viewport: { width: 1440, height: 900 } },
  ).then(async (opened) => {
    await opened.context.addCookies([{ name: 'language', value: lang, url: origin() }]);
    return opened;
  });
}

/** Logs in on the home page (a page behind login would open the sheet by itself), then opens `hash`. */
async function logIn(page: Page, device: Device, lang: 'zh' | 'en', phone: string, hash: string) {
  await page.goto(at(device, '/home'));
  await page.getByTestId('login-entry').click();
  await loginInDrawer(page, lang, { phone, password: PASSWORD });
  await page.goto(at(device, hash));
}

const CASES = DEVICES.flatMap((device) => (['zh', 'en'] as const).map((lang) => ({ device, lang })));

describe('the registration form', () => {
  it.each(CASES)(
    'names the password "Password", a reset the new one "New password" ($device, $lang)',
    async ({ device, lang }) => {
      const { context, page, errors } = await open(device, lang);
      await page.goto(at(device, '/home'));
      await page.getByTestId('login-entry').click();
      const drawer = page.getByTestId('login-drawer');
      await drawer.getByRole('tab', { name: lang === 'zh' ? '邮箱登录' : 'Email login', exact: true }).click();
      await drawer.getByRole('button', { name: lang === 'zh' ? '立即注册' : 'Register now' }).click();
      const register = drawer.getByTestId('form-register');
      const password = register.getByLabel(lang === 'zh' ? '密码' : 'Password', { exact: true });
      await expect(password.getAttribute('autocomplete')).resolves.toBe('new-password');
      await expect(
        register.getByLabel(lang === 'zh' ? '新密码' : 'New password', { exact: true }).count(),
      ).resolves.toBe(0);
      await screenshot(page, `details-register-${device}-${lang}`);
      await drawer.getByRole('button', { name: `‹ ${lang === 'zh' ? '返回登录' : 'Back to login'}` }).click();
      await drawer
        .getByRole('button', { name: lang === 'zh' ? '忘记密码？' : 'Forgot password?' })
        .first()
        .click();
      await drawer.getByRole('button', { name: lang === 'zh' ? '通过邮箱找回' : 'Reset by email' }).click();
      const reset = drawer.getByTestId('form-reset-email');
      await reset.getByLabel(lang === 'zh' ? '新密码' : 'New password', { exact: true }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the video cards', () => {
  it.each(CASES)('show each video’s running time read from its file ($device, $lang)', async ({ device, lang }) => {
    const { context, page, errors } = await open(device, lang);
    const videos = new Set<string>();
    page.on('request', (request) => {
      if (request.url().endsWith('.mp4')) videos.add(request.url());
    });
    await page.goto(at(device, '/video-collection'));
    const cards = page.getByTestId('video-card');
    await cards.first().waitFor();
    const count = await cards.count();
    await expect.poll(() => page.getByTestId('video-duration').count()).toBe(count);
    const shown = (await page.getByTestId('video-duration').allTextContents()).sort();
    // The files' own lengths, read afresh.
    const lengths = await page.evaluate(
      (urls) =>
        Promise.all(
          urls.map(
            (url) =>
              new Promise<string>((resolve) => {
                const video = document.createElement('video');
                video.preload = 'metadata';
                video.onloadedmetadata = () => {
                  const s = Math.round(video.duration);
                  resolve(`${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`);
                };
                video.src = url;
              }),
          ),
        ),
      [...videos],
    );
    expect(videos.size).toBe(count);
    expect(shown).toEqual(lengths.sort());
    expect(shown).not.toContain('04:36');
    // The posters carry no running time of their own.
    const poster = await cards.first().locator('img').getAttribute('src');
    const svg = await (await page.request.get(new URL(poster!, origin()).href)).text();
    expect(svg).not.toMatch(/>\d\d:\d\d</);
    await expect(cards.first().getByRole('button').getAttribute('aria-label')).resolves.toContain(
      lang === 'zh' ? '时长' : 'length',
    );
    await screenshot(page, `details-videos-${device}-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('an approved direct pass', () => {
  it.each(CASES)(
    'links straight to the sign-up with the direct channel chosen ($device, $lang)',
    async ({ device, lang }) => {
      const { context, page, errors } = await open(device, lang);
      await logIn(page, device, lang, RUNNERS.direct, '/direct');
      const link = page.getByTestId('direct-sign-up');
      await link.getByText(lang === 'zh' ? '去报名（直通）' : 'Sign up with your direct pass').waitFor();
      await screenshot(page, `details-direct-${device}-${lang}`);
      await link.click();
      await page.getByTestId('sign-up-page').waitFor();
      const channels = page.getByTestId('entry-channels');
      await expect.poll(() => channels.locator('input[value="direct"]').isChecked()).toBe(true);
      expect(await rawKeysOn(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('a race pack is mailed or collected', () => {
  it.each(CASES)(
    'each page says so and links to the other; mailing is refused beside a booking ($device, $lang)',
    async ({ device, lang }) => {
      const zh = lang === 'zh';
      // Chose mailing: the pick-up page says so and links to /post.
      const mailer = await open(device, lang);
      await logIn(mailer.page, device, lang, RUNNERS.mailer, '/my/pickup');
      const blocked = mailer.page.getByTestId('pickup-blocked');
      await blocked
        .getByText(zh ? '您已选择邮寄参赛包' : 'You chose to have your race pack mailed', { exact: false })
        .waitFor();
      await expect(blocked.getByTestId('pickup-unblock').getAttribute('href')).resolves.toBe('#/post');
      await expect(mailer.page.getByTestId('pickup-book').first().isDisabled()).resolves.toBe(true);
      await screenshot(mailer.page, `details-pickup-mailing-${device}-${lang}`);
      expect(mailer.errors).toEqual([]);
      await mailer.context.close();

      // Booked a slot: /post says so with the slot and links to the booking; mailing is refused with the reason.
      const booker = await open(device, lang);
      await logIn(booker.page, device, lang, RUNNERS.booker, '/post');
      const notice = booker.page.getByTestId('post-pickup-booked');
      await notice.getByText('2027-04-15 09:00–11:00', { exact: false }).waitFor();
      await expect(notice.getByTestId('post-pickup-link').getAttribute('href')).resolves.toBe('#/my/pickup');
      await screenshot(booker.page, `details-post-booked-${device}-${lang}`);
      const refused = await booker.page.evaluate(async (raceId) => {
        const response = await fetch('/race-center/api/registration/mailing', {
          method: 'POST',
          headers: { 'content-type': 'application/json', token: localStorage.getItem('token') ?? '' },
          body: JSON.stringify({
            raceId,
            method: 'mail',
            name: '领物跑者',
            phone: '13612343333',
            region: ['320000', '320100', '320102'],
            address: '中山路2号',
          }),
        });
        return (await response.json()) as { code: number; msgCode: string };
      }, RACE_ID);
      expect(refused).toMatchObject({ code: 409, msgCode: 'mailingPickupBooked' });
      expect(await rawKeysOn(booker.page)).toEqual([]);
      expect(booker.errors).toEqual([]);
      await booker.context.close();
    },
  );
});

describe('a restored sign-up draft', () => {
  it('marks the saved person whose certificate number must be typed again and focuses them', async () => {
    const { context, page, errors } = await open('desktop', 'zh');
    await logIn(page, 'desktop', 'zh', RUNNERS.drafter, '/my/signup');
    await page.getByTestId('entry-choose-10K').click();
    await fillDemoPerson(
      page,
      {
        name: '草稿跑者',
        gender: '女',
        id: '11010519491231002X',
        birthday: '1990-05-01',
        phone: `1390${stamp}004`,
        emergencyName: '李四',
        emergencyPhone: `1391${stamp}004`,
        address: '中关村大街1号',
        bloodType: 'O',
      },
      '10K',
    );
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    const mark = page.getByTestId('entry-person-retype-0');
    await mark.getByText('需重新填写证件号码').waitFor();
    await expect
      .poll(() => page.getByTestId('entry-person-edit-0').evaluate((el) => el === document.activeElement))
      .toBe(true);
    await screenshot(page, 'details-draft-retype-zh');
    expect(errors).toEqual([]);
    await context.close();
  });
});
