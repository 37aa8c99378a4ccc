/**
 * Accounts end to end: the built SPA in Chromium against the real server. Codes are read from the
 * server's development outbox, as a tester would. English UI, so the spec's texts are asserted verbatim.
 */
import type { Locator, Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import { DEMO, newPage, screenshot, siteUrl, solveSlider, useBrowser } from './browser';
import { serverPort } from './test-server';

const api = (path: string) => `http://127.0.0.1:${serverPort()}${path}`;

const browser = useBrowser();

async function latestCode(destination: string, after: number): Promise<string> {
  for (let i = 0; i < 40; i += 1) {
    const body = (await (await fetch(api(`${API_PATHS.devOutbox}?format=json`))).json()) as {
      data: { destination: string; body: string; createdAt: number | string }[];
    };
    const message = body.data.find((m) => m.destination === destination && new Date(m.createdAt).getTime() >= after);
    const code = message && /\b(\d{6})\b/.exec(message.body)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no code in the outbox for ${destination}`);
}

async function tokenIsValid(token: string): Promise<boolean> {
  const res = await fetch(api(API_PATHS.commonInfo), {
    method: 'POST',
    headers: { token, 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await res.json()) as { code: number }).code === 0;
}

async function openDrawer(page: Page) {
  await page.goto(siteUrl());
  await page.getByTestId('login-entry').click();
  const drawer = page.getByTestId('login-drawer');
  await drawer.waitFor();
  return drawer;
}

/** Clicks 'get verification code', passes the slider, and returns the code from the outbox. */
async function requestCode(page: Page, form: Locator, destination: string): Promise<string> {
  const since = Date.now() - 1000;
  await form.getByTestId('send-code').click();
  await solveSlider(page, page.getByTestId('login-drawer'));
  await form.getByText(/Retrieve in \d+ seconds/).waitFor();
  return latestCode(destination, since);
}

/** Ticks the agreement (below the login tabs, or inside the registration form) and submits. */
async function agreeAndSubmit(form: Locator) {
  await form.page().getByTestId('login-drawer').getByRole('checkbox').check();
  await form.getByTestId('submit').click();
}

async function expectLoggedIn(page: Page): Promise<string> {
  await page.getByTestId('login-drawer').waitFor({ state: 'hidden' });
  await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('Personal Centre');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  return token!;
}

async function englishPage() {
  const opened = await newPage(browser());
  await opened.context.addCookies([{ name: 'language', value: 'en', url: siteUrl() }]);
  return opened;
}

describe('accounts', () => {
  it('keeps login behind the agreement, logs in by password, and logout revokes the token', async () => {
    const { context, page, errors } = await englishPage();
    const drawer = await openDrawer(page);
    const form = drawer.getByTestId('form-password');
    await form.getByPlaceholder('Please enter phone number').fill(DEMO.phone);
    await form.getByPlaceholder('Please enter password').fill(DEMO.password);
    await expect(form.getByTestId('submit').isDisabled()).resolves.toBe(true);
    await form.getByTestId('submit-gate').click();
    await page.getByText('Please agree to the user agreement and privacy policy first').waitFor();
    await screenshot(page, 'auth-password-en');
    await agreeAndSubmit(form);
    const token = await expectLoggedIn(page);
    expect(await tokenIsValid(token)).toBe(true);
    await page.getByTestId('logout').click();
    await page.getByTestId('login-entry').getByText('Please log in').waitFor();
    expect(await tokenIsValid(token)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the user agreement and the privacy policy in a new tab, as real pages', async () => {
    const { context, page } = await englishPage();
    const drawer = await openDrawer(page);
    for (const [label, heading] of [
      ['User Agreement', '1. Acceptance'],
      ['Privacy Policy', '1. What we collect'],
    ]) {
      const link = drawer.getByRole('link', { name: label }).first();
      await expect(link.getAttribute('target')).resolves.toBe('_blank');
      const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await tab.getByTestId('document-view').getByText(heading).waitFor();
      await tab.close();
    }
    await context.close();
  });

  it('asks for the slider before sending a code, then logs in with the SMS code', async () => {
    const { context, page } = await englishPage();
    const drawer = await openDrawer(page);
    await drawer.getByRole('tab', { name: 'Verification code login' }).click();
    const form = drawer.getByTestId('form-code');
    await form.getByPlaceholder('Please enter phone number').fill(DEMO.phone);
    await form.getByTestId('send-code').click();
    await drawer.getByTestId('slider-captcha').waitFor();
    await form.getByTestId('send-code').click();
    await page.getByText('Please slide the slider to verify first').first().waitFor();
    const since = Date.now() - 1000;
    await solveSlider(page, drawer);
    await form.getByText(/Retrieve in \d+ seconds/).waitFor();
    const code = await latestCode(DEMO.phone, since);
    await form.getByPlaceholder('Please enter verification code').fill(code);
    await screenshot(page, 'auth-code-en');
    await agreeAndSubmit(form);
    await expectLoggedIn(page);
    await context.close();
  });

  it('registers by email with the code from the outbox, then logs in by email', async () => {
    const { context, page } = await englishPage();
    const email = `new-runner-${Date.now()}@example.com`;
    const drawer = await openDrawer(page);
    await drawer.getByRole('tab', { name: 'Email login' }).click();
    await drawer.getByText('Register now').click();
    const form = drawer.getByTestId('form-register');
    await form.getByPlaceholder('Please enter email address').fill(email);
    const code = await requestCode(page, form, email);
    await form.getByPlaceholder('Please enter verification code').fill(code);
    await form.getByPlaceholder('6-20 characters, digits and letters').fill('Canal2027run');
    await form.getByPlaceholder('Please enter the password again').fill('Canal2027run');
    await agreeAndSubmit(form);
    await page.getByText('Registration successful, please log in').waitFor();
    const login = drawer.getByTestId('form-email');
    await login.waitFor();
    await login.getByPlaceholder('Please enter email address').fill(email);
    await login.getByPlaceholder('Please enter password').fill('Canal2027run');
    await agreeAndSubmit(login);
    await expectLoggedIn(page);
    await context.close();
  });

  it('resets the password by email and by phone; the old login stops working', async () => {
    // A login whose token must die with the reset.
    const first = await englishPage();
    const firstForm = (await openDrawer(first.page)).getByTestId('form-password');
    await firstForm.getByPlaceholder('Please enter phone number').fill(DEMO.phone);
    await firstForm.getByPlaceholder('Please enter password').fill(DEMO.password);
    await agreeAndSubmit(firstForm);
    const oldToken = await expectLoggedIn(first.page);
    await first.context.close();

    const { context, page } = await englishPage();
    const drawer = await openDrawer(page);
    await drawer.getByText('Forgot password?').first().click();
    await drawer.getByText('Reset by email').click();
    const byEmail = drawer.getByTestId('form-reset-email');
    await byEmail.getByPlaceholder('Please enter email address').fill(DEMO.email);
    const emailCode = await requestCode(page, byEmail, DEMO.email);
    await byEmail.getByPlaceholder('Please enter verification code').fill(emailCode);
    await byEmail.getByPlaceholder('6-20 characters, digits and letters').fill('Lantern2027');
    await byEmail.getByPlaceholder('Please enter the password again').fill('Lantern2027');
    await byEmail.getByTestId('submit').click();
    await page.getByText('Password changed, please log in again').first().waitFor();
    expect(await tokenIsValid(oldToken)).toBe(false);

    await drawer.getByText('Forgot password?').first().click();
    await drawer.getByText('Reset by phone').click();
    const byPhone = drawer.getByTestId('form-reset-phone');
    await byPhone.getByPlaceholder('Please enter phone number').fill(DEMO.phone);
    // The server refuses a second code to the same person within 60 s only per destination: phone is new here.
    const phoneCode = await requestCode(page, byPhone, DEMO.phone);
    await byPhone.getByPlaceholder('Please enter verification code').fill(phoneCode);
    await byPhone.getByPlaceholder('6-20 characters, digits and letters').fill(DEMO.password);
    await byPhone.getByPlaceholder('Please enter the password again').fill(DEMO.password);
    await byPhone.getByTestId('submit').click();
    await page.getByText('Password changed, please log in again').first().waitFor();

    const login = drawer.getByTestId('form-password');
    await login.waitFor();
    await login.getByPlaceholder('Please enter phone number').fill(DEMO.phone);
    await login.getByPlaceholder('Please enter password').fill(DEMO.password);
    await agreeAndSubmit(login);
    await expectLoggedIn(page);
    await context.close();
  });
});
