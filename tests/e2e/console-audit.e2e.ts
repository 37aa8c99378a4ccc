/**
 * The console's Audit log page (issue 30 §3), in Chinese and English, on a desktop and a tablet: an owner
 * reads the log (their own sign-in in it), filters it by action, verifies the chain (intact) and exports the
 * filtered log as CSV (UTF-8 with a BOM; the export itself is then in the log). A non-owner has no such
 * page. No serious or critical axe finding.
 */
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { serverPort } from './test-server';

const browser = useBrowser();

const TEXT = {
  zh: {
    audit: '操作日志',
    action: '操作',
    login: '登录',
    secondFactor: '设置身份验证器',
    intact: /^日志链完整：共 \d+ 条记录$/,
    notFound: '页面不存在',
  },
  en: {
    audit: 'Audit log',
    action: 'Action',
    login: 'Signed in',
    secondFactor: 'Authenticator set up',
    intact: /^The chain is intact: \d+ records$/,
    notFound: 'No such page',
  },
} as const;

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the audit log page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('an owner reads, filters, verifies and exports the log (%s)', async (lang) => {
    const text = TEXT[lang];
    const { context, page, errors } = await newPage(browser(), options);
    const owner = await signInToConsole(page, { role: 'owner', language: lang });
    await page.goto(consoleUrl('/audit'));
    const auditPage = page.getByTestId('audit-page');
    await auditPage.getByRole('heading', { name: text.audit, level: 1 }).waitFor();
    // Each action by its name in the page's language, its code under it.
    const ownLogin = auditPage
      .locator('.ant-table-row')
      .filter({ hasText: owner.email })
      .filter({ hasText: text.secondFactor })
      .filter({ hasText: 'staff.secondFactorSet' });
    await ownLogin.first().waitFor();
    await expectAccessible(page, `console audit ${lang} ${device}`);
    await screenshot(page, `console-audit-${device}-${lang}`);

    // Filter by an action, found by its name: every row shown is of it.
    // Typed: on a server other tests have used, the list holds more actions than antd's list draws at once.
    const actionFilter = auditPage.getByRole('combobox', { name: text.action, exact: true });
    await actionFilter.click();
    await actionFilter.fill(text.login);
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: new RegExp(`^${text.login}$`) })
      .click();
    await expect
      .poll(async () => {
        const actions = await auditPage.locator('.ant-table-row td:nth-child(5)').allInnerTexts();
        return actions.length > 0 && actions.every((a) => a.replace(/\s+/g, ' ') === `${text.login} staff.login`);
      })
      .toBe(true);

    // Verify the chain.
    await page.getByTestId('audit-verify').click();
    const verdict = page.getByTestId('audit-verdict');
    await verdict.waitFor();
    expect((await verdict.locator('.ant-alert-title, .ant-alert-message').first().innerText()).trim()).toMatch(
      text.intact,
    );
    await expectAccessible(page, `console audit verified ${lang} ${device}`);
    await screenshot(page, `console-audit-verified-${device}-${lang}`);

    // Export what is filtered: a CSV file with a BOM, only staff.login records; the export is then recorded.
    const href = await page.getByTestId('audit-export').getAttribute('href');
    expect(href).toMatch(/^\/api\/admin\/audit\/export\?format=csv&action=staff\.login$/);
    const file = await context.request.get(`http://localhost:${serverPort()}${href}`);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{8}\.csv"$/);
    const bytes = await file.body();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('seq,at (UTC),actor,actor name,from,action,race,target,before,after,hash');
    expect(lines.slice(1).every((line) => line.includes(',staff.login,'))).toBe(true);
    await page.reload();
    await auditPage.locator('.ant-table-row').filter({ hasText: 'audit.export' }).first().waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('the audit log for other roles', () => {
  it('is not in a finance member’s menu, and the page and its calls are refused', async () => {
    const { context, page, errors } = await newPage(browser(), DESKTOP);
    await signInToConsole(page, { role: 'finance', language: 'en' });
    await page.getByRole('navigation').waitFor();
    expect(await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await page.goto(consoleUrl('/audit'));
    await page.getByText(TEXT.en.notFound).waitFor();
    const refused = await page.evaluate(async () => (await fetch('/api/admin/audit/export?format=csv')).json());
    expect(refused).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
    await context.close();
    expect(errors).toEqual([]);
  });
});
