/**
 * The console's My account page (issue 30 §2), in Chinese and English, on a desktop and a tablet: a member
 * sees their sessions (this device marked), signs out the session of another browser, sets up an
 * authenticator with the QR code's key, and changes their password (a too-short one refused in their
 * language). No serious or critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import { totpAt, totpStep } from '../../server/src/lib/totp';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, openConsole, signIn, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';

const browser = useBrowser();

const TEXT = {
  zh: {
    title: '我的账号',
    current: '当前设备',
    signOutOthers: '退出其他所有会话',
    confirm: /^确\s?定$/,
    setUp: '设置身份验证器',
    code: '动态码',
    turnOn: '确认开启',
    on: /^已开启/,
    old: '当前密码',
    new: '新密码',
    repeat: '再次输入新密码',
    submit: '修改密码',
    tooShort: '新密码至少 12 位',
    changed: '密码已修改',
  },
  en: {
    title: 'My account',
    current: 'This device',
    signOutOthers: 'Sign out other sessions',
    confirm: 'Confirm',
    setUp: 'Set up authenticator',
    code: 'Code',
    turnOn: 'Turn on',
    on: /^On:/,
    old: 'Current password',
    new: 'New password',
    repeat: 'New password again',
    submit: 'Change password',
    tooShort: 'The new password needs at least 12 characters',
    changed: 'Password changed',
  },
} as const;

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('my account (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'sessions with sign-out of the others, the authenticator by QR code, a new password (%s)',
    async (lang) => {
      const text = TEXT[lang];
      const { context, page, errors } = await newPage(browser(), options);
      const member = await signInToConsole(page, { role: 'results', language: lang });
      // A second browser of the same member.
      const other = await newPage(browser(), options);
      await openConsole(other.page, lang);
      await signIn(other.page, lang, member.email, member.password);
      await other.page.getByTestId('console-main').waitFor();

      await page.goto(consoleUrl('/account'));
      const account = page.getByTestId('account-page');
      await account.getByRole('heading', { name: text.title, level: 1 }).waitFor();
      const rows = account.locator('.ant-table-row');
      await expect.poll(() => rows.count()).toBe(2);
      await rows.filter({ hasText: text.current }).waitFor();
      await expectAccessible(page, `console account ${lang} ${device}`);
      await screenshot(page, `console-account-${device}-${lang}`);

      // Sign out the other browser.
      await page.getByTestId('sign-out-others').click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: text.confirm }).click();
      await expect.poll(() => rows.count()).toBe(1);
      const ended = await other.page.evaluate(async () => (await fetch('/api/admin/me')).json());
      expect(ended).toMatchObject({ code: 401, msgCode: 'staffLoginExpired' });
      await other.context.close();

      // The authenticator: the key under the QR code gives the code.
      await page.getByTestId('second-factor-start').click();
      await account
        .getByRole('img', { name: lang === 'zh' ? '身份验证器二维码' : 'QR code for the authenticator app' })
        .waitFor();
      const secret = (await page.getByTestId('second-factor-secret').innerText()).trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expectAccessible(page, `console account authenticator ${lang} ${device}`);
      await screenshot(page, `console-account-authenticator-${device}-${lang}`);
      await page.getByTestId('second-factor-code').fill(totpAt(secret, totpStep(Date.now())));
      await account.getByRole('button', { name: text.turnOn }).click();
      await expect.poll(() => page.getByTestId('second-factor-state').innerText()).toMatch(text.on);

      // A new password: too short is refused in the language, a good one is taken.
      const form = page.getByTestId('password-form');
      await form.getByLabel(text.old).fill(member.password);
      await form.getByLabel(text.new, { exact: true }).fill('short1');
      await form.getByLabel(text.repeat).fill('short1');
      await form.getByRole('button', { name: text.submit }).click();
      await form.getByText(text.tooShort).waitFor();
      const next = `Account${randomBytes(3).toString('hex')}2027`;
      await form.getByLabel(text.new, { exact: true }).fill(next);
      await form.getByLabel(text.repeat).fill(next);
      await form.getByRole('button', { name: text.submit }).click();
      await page.getByText(text.changed).waitFor();
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
