/**
 * The console's Refunds page (issue 32), in Chinese and English, on a desktop and a tablet: a runner of the demo
 * race with a paid 10 km entry requests a refund on the site's own call; a finance member sees the race's
 * rules and the request under review, approves it (the sandbox refunds at once) and sees it refunded, as the
 * runner's refund page then says too. A double payment's refund that the provider refused earlier is listed
 * under "Refunds owed" as failed, with its attempts and the provider's answer, and "Retry" settles it. No
 * serious or critical axe finding.
 */
import { randomInt } from 'node:crypto';
import { refundProblemText } from '#contract/console-refunds';
import type { Page } from 'playwright-core';
import { API_PATHS } from '#contract/api';
import type { RefundAnswer } from '#contract/after-entry';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { idCard } from '../../server/src/db/seed-runners';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible, fromNow } from './demo-form';
import { repoRoot } from './server-process';
import { addRace } from './site-config';
import { serverDataDir, serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
const CERT_BASE = randomInt(1000);
let seq = 0;

const TEXT = {
  zh: {
    title: '退款与延期',
    rules: '已付金额的 80%',
    refunded: '已于',
    approved: /^已批准/,
    owedTab: /^待完成退款/,
    double: '重复付款',
    failed: '失败',
    refusedBy: '渠道拒绝退款：SYSTEM_ERROR',
    filterApproved: /^已批准/,
    ordersTab: '订单与支付',
    paid: '已付款',
  },
  en: {
    title: 'Refunds and deferrals',
    rules: '80 % of what was paid',
    refunded: 'Refunded',
    approved: /^Approved/,
    owedTab: /^Refunds owed/,
    double: 'Double payment',
    failed: 'Failed',
    refusedBy: 'The provider refused it: SYSTEM_ERROR',
    filterApproved: /^Approved/,
    ordersTab: 'Orders and payments',
    paid: 'paid',
  },
} as const;

beforeAll(async () => {
  // Refunds open now, whatever today's date (the seed's window is a fixed date).
  await addRace({
    ...seed.race,
    entry: { ...seed.race.entry, refunds: { ...seed.race.entry.refunds, until: fromNow(20) } },
  });
});

interface Paid {
  entryNo: string;
  orderNo: string;
  token: string;
  /** A second charge of the order, refunded as a double payment that the provider refused once. */
  refundNo?: string;
}

/** A registered 10 km entry of the demo race paid in the sandbox, its runner signed in (a token). */
async function paidEntry(double = false): Promise<Paid> {
  seq += 1;
  const now = Date.now();
  const certNumber = idCard(`11010819880912${String((CERT_BASE + seq) % 1000).padStart(3, '0')}`);
  const phone = `1355${String(now % 100_000).padStart(5, '0')}${String(seq).padStart(2, '0')}`;
  const name = `退款跑者${seq}`;
  const { db, repos } = await openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now });
  try {
    const userId = await repos.users.create({ phone }, now);
    const { token } = await repos.tokens.issue(userId, 3_600_000, now);
    return await repos.transaction(async (tx) => {
      expect(await tx.entries.takePlace(RACE_ID, '10K', 'main', 1)).toBe(true);
      const entry = await tx.entries.insertEntry(
        {
          raceId: RACE_ID,
          itemCode: '10K',
          channel: 'public',
          userId,
          status: 0,
          holdsPlace: true,
          name,
          gender: 1,
          birthday: '1988-09-12',
          certType: 1,
          certHash: tx.raceCenter.certHash(certNumber),
          certNumber,
          phone,
          values: {},
          feeFen: 8000,
          now,
        },
        ['submitted', 'orderCreated'],
      );
      const order = await tx.orders.create({
        raceId: RACE_ID,
        userId,
        amountFen: 8000,
        deadlineAt: now + 30 * 60_000,
        createdAt: now,
        lines: [{ entryId: entry.id, amountFen: 8000 }],
      });
      const payment = await tx.payments.create({ orderId: order.id, provider: 'sandbox', amountFen: 8000, now });
      expect(await tx.payments.markPaid(payment.paymentId, `SBTE2E${seq}${now % 10_000}`, now)).toBe(true);
      expect(await tx.orders.markPaid(order.id, { paidFen: 8000, paidAt: now, serialNo: `SBTE2E${seq}` })).toBe(true);
      expect(await tx.entries.setStatus(entry.id, [0], 1, 'paid', now)).toBe(true);
      const paid: Paid = { entryNo: entry.entryNo, orderNo: order.orderNo, token };
      if (double) {
        const second = await tx.payments.create({ orderId: order.id, provider: 'sandbox', amountFen: 8000, now });
        expect(await tx.payments.markPaid(second.paymentId, `SBTE2EDUP${seq}${now % 10_000}`, now)).toBe(true);
        const refundNo = `DUP${second.paymentId}`;
        await tx.payments.addRefund({
          orderId: order.id,
          entryId: null,
          amountFen: 8000,
          reason: 'duplicatePayment',
          paymentId: second.paymentId,
          refundNo,
          now,
        });
        // The provider refused it once; the server's next try is an hour away.
        await tx.payments.noteRefundAttempt(refundNo, refundProblemText('refused', 'SYSTEM_ERROR'), now + 3_600_000);
        paid.refundNo = refundNo;
      }
      return paid;
    });
  } finally {
    await db.close();
  }
}

/** The runner's own call of the refund page. */
async function runnerCall<T>(token: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`http://localhost:${serverPort()}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await res.json()) as { code: number; data: T; msg: string };
  expect(answer.code, answer.msg).toBe(0);
  return answer.data;
}

const requestsRow = (page: Page, entryNo: string) =>
  page.getByTestId('refund-requests').locator('.ant-table-row').filter({ hasText: entryNo });

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the refunds page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('finance approves a request and retries a failed refund (%s)', async (lang) => {
    const text = TEXT[lang];
    const paid = await paidEntry();
    await runnerCall(paid.token, API_PATHS.refundRequest, {
      raceId: RACE_ID,
      entryNo: paid.entryNo,
      kind: 'refund',
      reason: lang === 'zh' ? '工作出差，无法参赛' : 'Away on business that week',
    });
    const owed = await paidEntry(true);

    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'finance', language: lang });
    await page.goto(consoleUrl(`/races/${RACE_ID}/refunds`));
    const main = page.getByTestId('refunds-page');
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
    await expect.poll(() => page.getByTestId('refund-rules').innerText()).toContain(text.rules);
    const row = requestsRow(page, paid.entryNo);
    await row.waitFor();
    await expectAccessible(page, `console refunds ${lang} ${device}`);
    await screenshot(page, `console-refunds-${device}-${lang}`);

    // Approve, confirmed in its pop-up: the sandbox refunds at once.
    await page.getByTestId(`refund-approve-${paid.entryNo}`).click();
    const confirm = page.locator('.ant-popconfirm');
    await confirm.waitFor();
    await expectAccessible(page, `console refunds confirm ${lang} ${device}`);
    await confirm.locator('.ant-btn-primary').click();
    await row.waitFor({ state: 'detached' });
    await page.getByTestId('refund-filter').getByText(text.filterApproved).click();
    await expect.poll(() => requestsRow(page, paid.entryNo).innerText()).toContain(text.refunded);
    await screenshot(page, `console-refunds-approved-${device}-${lang}`);
    const view = await runnerCall<RefundAnswer>(paid.token, `${API_PATHS.refundGet}?raceId=${RACE_ID}`);
    expect(view.entries.find((e) => e.entryNo === paid.entryNo)).toMatchObject({
      status: 5,
      requests: [{ status: 'approved', amountFen: 6400 }],
    });

    // The entry's payment asked of its provider (the sandbox: paid), from the entry page.
    await requestsRow(page, paid.entryNo).getByRole('link', { name: paid.entryNo }).click();
    await page.getByTestId('entry-page').waitFor();
    await page.getByRole('tab', { name: text.ordersTab }).click();
    await page.locator('[data-testid^="payment-query-"]').first().click();
    const answer = page.getByTestId('payment-query-theirs');
    await expect.poll(async () => (await answer.count()) > 0 && (await answer.innerText())).toContain(text.paid);
    await expectAccessible(page, `console entry payment query ${lang} ${device}`);
    await screenshot(page, `console-refunds-query-${device}-${lang}`);
    await page.goto(consoleUrl(`/races/${RACE_ID}/refunds`));
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();

    // The refund owed: failed once, retried now.
    await page.getByRole('tab', { name: text.owedTab }).click();
    const owedRow = page.getByTestId('refund-owed').locator('.ant-table-row').filter({ hasText: owed.refundNo! });
    await owedRow.waitFor();
    await expect(owedRow.innerText()).resolves.toContain(text.double);
    await expect(page.getByTestId(`owed-state-${owed.refundNo}`).innerText()).resolves.toBe(text.failed);
    // The provider's answer in the member's language, its own code as it came.
    await expect(owedRow.innerText()).resolves.toContain(text.refusedBy);
    await expectAccessible(page, `console refunds owed ${lang} ${device}`);
    await screenshot(page, `console-refunds-owed-${device}-${lang}`);
    await page.getByTestId(`owed-retry-${owed.refundNo}`).click();
    await owedRow.waitFor({ state: 'detached' });
    await context.close();
    expect(errors).toEqual([]);
  });
});
