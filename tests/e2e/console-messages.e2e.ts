/**
 * The console's Messages page (issue 32 §2), in Chinese and English, on a desktop and a tablet: a service
 * member opens it from another page's link (`?audience=unsigned`, with one entry: the demo runner's won entry
 * that has not signed the letter), sees the count and a sample, writes the message in both languages and sends
 * it now, finds it under Sent with the runner's copy, and opens a system message's template. The demo runner
 * then reads it in the personal centre's "my messages". No serious or critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { DEMO, loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE = seed.race.raceId;
const MARK = `E2E${randomBytes(3).toString('hex').toUpperCase()}`;

const TEXT = {
  zh: {
    title: '给跑者发消息',
    unsigned: '未签署',
    counts: /共 1 条报名符合/,
    subjectZh: '标题（中文）',
    bodyZh: '正文（中文）',
    subjectEn: '标题（英文）',
    bodyEn: '正文（英文）',
    send: /^发 ?送$/,
    copies: '送达详情',
    templates: '消息模板',
    edit: '编辑',
    wording: '文案：抽签：中签待支付',
  },
  en: {
    title: 'Messages to runners',
    unsigned: 'Not signed',
    counts: /1 entries match/,
    subjectZh: 'Subject (Chinese)',
    bodyZh: 'Text (Chinese)',
    subjectEn: 'Subject (English)',
    bodyEn: 'Text (English)',
    send: /^Send$/,
    copies: 'Copies',
    templates: 'Templates',
    edit: 'Edit',
    wording: 'Wording: Ballot: place won, order to pay',
  },
} as const;

/** A won 10 km entry of the demo runner that has not signed the letter. */
async function seedEntry(): Promise<string> {
  const now = Date.now();
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  const user = (await repos.users.findByPhone(DEMO.phone))!;
  const entry = await repos.entries.insertEntry({
    raceId: RACE,
    itemCode: '10K',
    channel: 'public',
    userId: user.id,
    status: 0,
    holdsPlace: true,
    name: '张三',
    gender: 1,
    birthday: '1990-03-07',
    certType: 1,
    certHash: `messages-e2e-${now}`,
    certNumber: '110105199003071239',
    phone: DEMO.phone,
    values: {},
    feeFen: 8000,
    now,
  });
  await repos.entries.setStatus(entry.id, [0], 1, 'won', now);
  await db.close();
  return entry.entryNo;
}

let entryNo = '';
beforeAll(async () => {
  entryNo = await seedEntry();
});

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the messages page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('service writes to the unsigned entrant and sees the copy (%s)', async (lang) => {
    const text = TEXT[lang];
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'service', language: lang });
    await page.goto(consoleUrl(`/races/${RACE}/messages?audience=unsigned&entryNo=${entryNo}`));
    const main = page.getByTestId('messages-page');
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
    await expect(page.getByTestId('messages-letter').innerText()).resolves.toContain(text.unsigned);

    // Who gets it: the count and a sample, before sending.
    await page.getByTestId('messages-preview').click();
    const result = page.getByTestId('messages-preview-result');
    await expect.poll(async () => (await result.count()) > 0 && (await result.innerText())).toMatch(text.counts);
    await expect(result.innerText()).resolves.toContain(entryNo);

    const subject = `${MARK} ${device} ${lang}`;
    await page.getByLabel(text.subjectZh).fill(`领物提醒 ${subject}`);
    await page.getByLabel(text.bodyZh).fill('{name}，请签署参赛承诺书（报名号 {entryNo}）。');
    await page.getByLabel(text.subjectEn).fill(`Reminder ${subject}`);
    await page.getByLabel(text.bodyEn).fill('{name}, please sign the commitment letter (entry {entryNo}).');
    await expectAccessible(page, `console messages compose ${lang} ${device}`);
    await screenshot(page, `console-messages-compose-${device}-${lang}`);

    await page.getByTestId('messages-send').click();
    const confirm = page.getByRole('dialog');
    await confirm.getByRole('button', { name: text.send }).click();
    await confirm.waitFor({ state: 'hidden' });

    // Sent: the message and the runner's copy.
    const sent = page.getByTestId('messages-sent');
    const row = sent.locator('.ant-table-row').filter({ hasText: subject });
    await row.waitFor();
    await expectAccessible(page, `console messages sent ${lang} ${device}`);
    await row.getByRole('button', { name: text.copies }).click();
    const copies = page.getByTestId('messages-deliveries');
    await expect.poll(() => copies.locator('.ant-table-row').filter({ hasText: entryNo }).count()).toBe(2);
    await expectAccessible(page, `console messages copies ${lang} ${device}`);
    await screenshot(page, `console-messages-copies-${device}-${lang}`);
    await page.keyboard.press('Escape');
    await copies.waitFor({ state: 'hidden' });

    // Templates: a system message's wording.
    await page.getByRole('tab', { name: text.templates }).click();
    await page.getByTestId('messages-edit-ballotWon').click();
    const edit = page.getByRole('dialog').filter({ hasText: text.wording });
    await edit.getByTestId('messages-template-form').waitFor();
    await expectAccessible(page, `console messages template ${lang} ${device}`);
    await screenshot(page, `console-messages-template-${device}-${lang}`);
    await page.keyboard.press('Escape');
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('my messages in the personal centre', () => {
  it('shows the runner the message sent to them, in both languages', async () => {
    const { page, context, errors } = await newPage(browser(), { viewport: { width: 1366, height: 900 } });
    await page.goto(`http://localhost:${serverPort()}/reg/#/my/messages`);
    await loginInDrawer(page, 'zh');
    const list = page.getByTestId('messages-list');
    await list.waitFor();
    await expect(list.innerText()).resolves.toContain(MARK);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('我的消息');
    await expectAccessible(page, 'my messages zh');
    await screenshot(page, 'centre-my-messages-zh');
    await page.getByTestId('language-toggle').click();
    await page.getByRole('heading', { level: 1, name: 'My messages' }).waitFor();
    await expect(list.innerText()).resolves.toContain(MARK);
    await expectAccessible(page, 'my messages en');
    await screenshot(page, 'centre-my-messages-en');
    await context.close();
    expect(errors).toEqual([]);
  });
});
