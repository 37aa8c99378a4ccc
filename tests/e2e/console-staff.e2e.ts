/**
 * The console's Staff page (issue 30 §2), in Chinese and English, on a desktop and a tablet: an owner adds a
 * customer-service member (the one-time password shown once), who then signs in with it and chooses their own
 * password; that member sees no Staff menu and is refused the page (and the server refuses the call). The
 * owner resets a password, looks at sessions and removes the member, each after a confirmation. No serious
 * or critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, openConsole, signIn, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';

const browser = useBrowser();

const TEXT = {
  zh: {
    staff: '工作人员',
    add: '添加工作人员',
    email: '邮箱',
    name: '姓名',
    role: '角色',
    service: /^客服/,
    mustChange: '待修改初始密码',
    reset: '重置密码',
    sessions: '登录会话',
    remove: /^删\s?除$/,
    notFound: '页面不存在',
    close: /^取\s?消$/,
    noSessions: '当前没有登录会话',
  },
  en: {
    staff: 'Staff',
    add: 'Add staff member',
    email: 'E-mail',
    name: 'Name',
    role: 'Role',
    service: /^Customer service/,
    mustChange: 'Must change password',
    reset: 'Reset password',
    sessions: 'Sessions',
    remove: 'Remove',
    notFound: 'No such page',
    close: 'Cancel',
    noSessions: 'No open sessions',
  },
} as const;

/** The one-time password in its dialog, then the dialog closed. */
async function takeOneTimePassword(page: Page): Promise<string> {
  const field = page.getByTestId('one-time-password');
  await field.waitFor();
  const password = await field.inputValue();
  expect(password).toMatch(/^[A-Za-z2-9]{16}$/);
  await page.getByTestId('one-time-done').click();
  await field.waitFor({ state: 'hidden' });
  return password;
}

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the staff page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'an owner adds a service member, who signs in with the one-time password and cannot open Staff (%s)',
    async (lang) => {
      const text = TEXT[lang];
      const { context, page, errors } = await newPage(browser(), options);
      await signInToConsole(page, { role: 'owner', language: lang });
      await page.getByRole('navigation').getByRole('link', { name: text.staff }).waitFor({ state: 'attached' });
      await page.goto(consoleUrl('/staff'));
      const staffPage = page.getByTestId('staff-page');
      await staffPage.getByRole('heading', { name: text.staff, level: 1 }).waitFor();
      await staffPage.locator('.ant-table-row').first().waitFor();
      await expectAccessible(page, `console staff ${lang} ${device}`);
      await screenshot(page, `console-staff-${device}-${lang}`);

      // Add a customer-service member.
      const email = `desk-${randomBytes(4).toString('hex')}@example.com`;
      await page.getByTestId('staff-add').click();
      const form = page.getByTestId('member-form');
      await form.getByLabel(text.email).fill(email);
      await form.getByLabel(text.name, { exact: true }).fill(lang === 'zh' ? '客服小李' : 'Desk Dana');
      await form.getByLabel(text.role).click();
      await page.locator('.ant-select-item-option').filter({ hasText: text.service }).click();
      await expectAccessible(page, `console staff add ${lang} ${device}`);
      await screenshot(page, `console-staff-add-${device}-${lang}`);
      await form.getByTestId('member-submit').click();
      await page.getByTestId('one-time-password').waitFor();
      await expectAccessible(page, `console staff one-time password ${lang} ${device}`);
      await screenshot(page, `console-staff-password-${device}-${lang}`);
      const oneTime = await takeOneTimePassword(page);
      const row = staffPage.locator('.ant-table-row').filter({ hasText: email });
      await row.getByText(text.mustChange).waitFor();

      // The new member signs in with it in a browser of their own.
      const desk = await newPage(browser(), options);
      await openConsole(desk.page, lang);
      await signIn(desk.page, lang, email, oneTime);
      const step = desk.page.getByTestId('console-setup-password');
      await step.waitFor();
      const own = `Desk${randomBytes(3).toString('hex')}2027`;
      const zh = lang === 'zh';
      await step.getByLabel(zh ? '初始密码' : 'One-time password').fill(oneTime);
      await step.getByLabel(zh ? '新密码' : 'New password', { exact: true }).fill(own);
      await step.getByLabel(zh ? '再次输入新密码' : 'New password again').fill(own);
      await step.getByRole('button', { name: zh ? '保存新密码' : 'Save the new password' }).click();
      await desk.page.getByTestId('console-main').waitFor();
      // No Staff in their menu; the page is refused, and so is the call.
      await desk.page.getByRole('navigation').waitFor();
      expect(await desk.page.getByRole('navigation').getByRole('link', { name: text.staff }).count()).toBe(0);
      await desk.page.goto(consoleUrl('/staff'));
      await desk.page.getByText(text.notFound).waitFor();
      expect(await desk.page.getByTestId('staff-page').count()).toBe(0);
      const refused = await desk.page.evaluate(async () => (await fetch('/api/admin/staff')).json());
      expect(refused).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
      await desk.context.close();
      expect(desk.errors).toEqual([]);

      // The owner sees the sign-in, resets the password (confirmed), looks at the sessions, removes the member.
      await page.reload();
      const signedRow = page.getByTestId('staff-page').locator('.ant-table-row').filter({ hasText: email });
      await signedRow.waitFor();
      await expect.poll(() => signedRow.innerText()).not.toContain(text.mustChange);
      await signedRow.getByRole('button', { name: text.reset }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: text.reset }).click();
      const again = await takeOneTimePassword(page);
      expect(again).not.toBe(oneTime);
      await signedRow.getByRole('button', { name: text.sessions }).click();
      // The reset ended their session.
      const sessions = page.getByRole('dialog').filter({ hasText: text.noSessions });
      await sessions.waitFor();
      // A click while the dialog still zooms in can be lost on a busy machine: close until it is gone.
      await expect
        .poll(async () => {
          if (await sessions.isVisible()) {
            await sessions
              .getByRole('button', { name: text.close })
              .click({ timeout: 2000 })
              .catch(() => undefined);
          }
          return sessions.isVisible();
        })
        .toBe(false);
      await signedRow.getByRole('button', { name: text.remove }).click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: text.remove }).click();
      await signedRow.waitFor({ state: 'detached' });
      await context.close();
      expect(errors).toEqual([]);
    },
  );
});
