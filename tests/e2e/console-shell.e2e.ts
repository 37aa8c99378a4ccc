/**
 * The organiser console's frame (issue 30 §1, §2): its own page at /admin/, the sign-in in Chinese and
 * English, the first sign-in's steps (one-time password, then the authenticator for owners), the frame with
 * the member's role and sign-out, on a desktop and a tablet, with no serious or critical axe finding. The
 * public site's page carries none of the console's code.
 */
import { newPage, screenshot, useBrowser } from './browser';
import { addStaffMember, consoleUrl, DESKTOP, firstSignInOnPages, openConsole, signIn, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { serverPort } from './test-server';
import { totpAt, totpStep } from '../../server/src/lib/totp';

const browser = useBrowser();

/** A code the authenticator would not show around now. */
function wrongCode(secret: string): string {
  const step = totpStep(Date.now());
  const near = new Set([-1, 0, 1, 2].map((d) => totpAt(secret, step + d)));
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}
const origin = () => `http://localhost:${serverPort()}`;

describe('the console page', () => {
  it('is its own page: /admin redirects to /admin/, which frames nowhere, and the public page loads none of it', async () => {
    const bare = await fetch(`${origin()}/admin`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/admin/']);
    const page = await fetch(`${origin()}/admin/`);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(html).toContain('/admin/assets/');
    const publicHtml = await (await fetch(`${origin()}/`)).text();
    expect(publicHtml).not.toContain('/admin/');
    const { context, page: site } = await newPage(browser(), DESKTOP);
    const scripts: string[] = [];
    site.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await site.goto(`${origin()}/#/home`);
    await site.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => url.includes('/admin/'))).toEqual([]);
    await context.close();
  });
});

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the console frame (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)(
    'refuses a wrong password in the language, then opens the first sign-in steps (%s)',
    async (lang) => {
      const { context, page, errors } = await newPage(browser(), options);
      await openConsole(page, lang);
      await page.getByTestId('console-sign-in').waitFor();
      await expectAccessible(page, `console sign-in ${lang} ${device}`);
      await screenshot(page, `console-sign-in-${device}-${lang}`);
      const { email, password } = await addStaffMember('service', lang === 'zh' ? '客服小王' : 'Service Sam');
      await signIn(page, lang, email, `${password}x`);
      await page
        .getByRole('alert')
        .filter({ hasText: lang === 'zh' ? '邮箱或密码错误' : 'E-mail or password is incorrect' })
        .waitFor();
      await signIn(page, lang, email, password);
      await page.getByTestId('console-setup-password').waitFor();
      await expectAccessible(page, `console set-up ${lang} ${device}`);
      await screenshot(page, `console-set-up-${device}-${lang}`);
      await context.close();
      expect(errors).toEqual([]);
    },
  );

  it.each(['zh', 'en'] as const)('takes a new owner through the password and the authenticator (%s)', async (lang) => {
    const { context, page, errors } = await newPage(browser(), options);
    const member = await firstSignInOnPages(page, { role: 'owner', language: lang });
    expect(member.secret).toMatch(/^[A-Z2-7]{32}$/);
    const who = page.getByTestId('console-who');
    await expect.poll(() => who.innerText()).toContain(lang === 'zh' ? '所有者' : 'Owner');
    await expectAccessible(page, `console start ${lang} ${device}`);
    await screenshot(page, `console-start-${device}-${lang}`);
    // The session survives a reload; signing out ends it.
    await page.reload();
    await page.getByTestId('console-main').waitFor();
    await page.getByTestId('console-sign-out').click();
    await page.getByTestId('console-sign-in').waitFor();
    await page.goto(consoleUrl('/'));
    await page.getByTestId('console-sign-in').waitFor();
    // Signing in again takes the authenticator's code: a wrong one is refused in the language.
    await signIn(page, lang, member.email, member.password);
    const code = page.getByLabel(lang === 'zh' ? '动态码' : 'Authenticator code');
    await code.fill(wrongCode(member.secret!));
    await page.getByTestId('console-sign-in-submit').click();
    await page
      .getByRole('alert')
      .filter({ hasText: lang === 'zh' ? '动态码错误' : 'The code is wrong' })
      .waitFor();
    // The next step's code: the set-up used this one, and a code works once (one step of drift is allowed).
    await code.fill(totpAt(member.secret!, totpStep(Date.now()) + 1));
    await page.getByTestId('console-sign-in-submit').click();
    await page.getByTestId('console-main').waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });
});
