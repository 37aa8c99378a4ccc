/**
 * The organiser console in browser tests: its address on the test server, and a staff member made through
 * the CLI (as an organiser makes the first owner) who signs in and completes the first sign-in's steps.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Envelope } from '#contract/api';
import { ADMIN_API_PREFIX, CSRF_HEADER, roleNeedsSecondFactor, type StaffRole } from '#contract/staff';
import { totpAt, totpStep } from '../../server/src/lib/totp';
import { siteCli } from './site-config';
import { serverPort } from './test-server';

/*
 * The console's pages in browser tests ask for reduced motion, which the console honours (no antd animations):
 * on a busy machine a click on a dialog's button while it was still opening, or on a button a closing list
 * still covered, was lost.
 */
export const TABLET = { viewport: { width: 1024, height: 768 }, hasTouch: true, reducedMotion: 'reduce' } as const;
export const DESKTOP = { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' } as const;

/** The console's page on the test server, at `hash` (its hash route). */
export function consoleUrl(hash = '/'): string {
  return `http://localhost:${serverPort()}/admin/#${hash}`;
}

export interface ConsoleMember {
  email: string;
  password: string;
  /** The second factor's key, when the role has one. */
  secret?: string;
}

/** Makes a staff member with `role` through the CLI; answers their e-mail and one-time password. */
export async function addStaffMember(
  role: StaffRole,
  name = `E2E ${role}`,
): Promise<{ email: string; password: string }> {
  const email = `e2e-${role.toLowerCase()}-${randomBytes(4).toString('hex')}@example.com`;
  const printed = await siteCli('staff-add', email, '--role', role, '--name', name);
  const password = /One-time password: (\S+)/.exec(printed)?.[1];
  if (!password) throw new Error(`staff-add printed no password:\n${printed}`);
  return { email, password };
}

/** Opens the console in `language` (kept in the browser as the console keeps it). */
export async function openConsole(page: Page, language: 'zh' | 'en', hash = '/') {
  await page.addInitScript((lang) => window.localStorage.setItem('race-site-console-language', lang), language);
  await page.goto(consoleUrl(hash));
}

/** Signs in on the sign-in page (the code from the authenticator when `secret` is given). */
export async function signIn(page: Page, language: 'zh' | 'en', email: string, password: string) {
  const form = page.getByTestId('console-sign-in');
  await form.getByLabel(language === 'zh' ? '邮箱' : 'E-mail').fill(email);
  await form.getByLabel(language === 'zh' ? '密码' : 'Password', { exact: true }).fill(password);
  await form.getByTestId('console-sign-in-submit').click();
}

/** A new member's password of their own. */
const ownPassword = () => `Console${randomBytes(3).toString('hex')}9`;

/**
 * A new staff member with `role` signs in with their one-time password, chooses a password and, for owners
 * and finance, sets up the authenticator, on the console's own pages; the page is then on the console's start.
 * The pages' test (console-shell.e2e.ts) takes this way; the other files sign in with signInToConsole.
 */
export async function firstSignInOnPages(
  page: Page,
  { role, language = 'zh', hash = '/' }: { role: StaffRole; language?: 'zh' | 'en'; hash?: string },
): Promise<ConsoleMember> {
  const made = await addStaffMember(role);
  await openConsole(page, language, hash);
  await signIn(page, language, made.email, made.password);
  const password = ownPassword();
  const step = page.getByTestId('console-setup-password');
  const zh = language === 'zh';
  await step.getByLabel(zh ? '初始密码' : 'One-time password').fill(made.password);
  await step.getByLabel(zh ? '新密码' : 'New password', { exact: true }).fill(password);
  await step.getByLabel(zh ? '再次输入新密码' : 'New password again').fill(password);
  await step.getByRole('button', { name: zh ? '保存新密码' : 'Save the new password' }).click();
  let secret: string | undefined;
  if (roleNeedsSecondFactor(role)) {
    const totp = page.getByTestId('console-setup-totp');
    secret = (await totp.getByTestId('console-totp-secret').innerText()).trim();
    await totp.getByLabel(zh ? '动态码' : 'Code').fill(totpAt(secret, totpStep(Date.now())));
    await totp.getByRole('button', { name: zh ? '确认并完成' : 'Confirm and finish' }).click();
  }
  await page.getByTestId('console-main').waitFor();
  return { email: made.email, password, secret };
}

/**
 * A new staff member with `role`, signed in on the page's browser context with the first sign-in's steps done
 * through the console's calls (sign in with the one-time password, a password of their own, for owners and
 * finance the authenticator), the way the console's pages make them (firstSignInOnPages, checked in
 * console-shell.e2e.ts); the page is then on the console at `hash` in `language`. Drawing the three sign-in pages
 * for every test was a third of a console test's time.
 */
export async function signInToConsole(
  page: Page,
  { role, language = 'zh', hash = '/' }: { role: StaffRole; language?: 'zh' | 'en'; hash?: string },
): Promise<ConsoleMember> {
  const made = await addStaffMember(role);
  const api = page.context().request;
  const call = async <T>(path: string, data: object, csrf?: string): Promise<T> => {
    const response = await api.post(`http://localhost:${serverPort()}${ADMIN_API_PREFIX}${path}`, {
      data,
      headers: csrf ? { [CSRF_HEADER]: csrf } : {},
    });
    const body = (await response.json()) as Envelope<T>;
    if (body.code !== 0) throw new Error(`${path}: ${body.code} ${body.msg}`);
    return body.data;
  };
  const { csrf } = await call<{ csrf: string }>('/login', { email: made.email, password: made.password });
  const password = ownPassword();
  await call('/password', { oldPassword: made.password, newPassword: password }, csrf);
  let secret: string | undefined;
  if (roleNeedsSecondFactor(role)) {
    ({ secret } = await call<{ secret: string }>('/totp/propose', {}, csrf));
    await call('/totp/confirm', { secret, code: totpAt(secret, totpStep(Date.now())) }, csrf);
  }
  await openConsole(page, language, hash);
  await page.getByTestId('console-main').waitFor();
  return { email: made.email, password, secret };
}
