/**
 * Payment of sign-up orders (issue 14 §4): orderPay (login: the cashier page of the order's open payment),
 * the providers' notifications (`${API_PATHS.payNotifyPrefix}<provider>`, no login: verified by signature and
 * acted on once), the built-in sandbox's cashier page and decision, and the timed work of the order lifecycle
 * (services/entry/order-transitions.ts): unpaid orders cancelled at their deadline, and every refund owed
 * carried out until the provider confirms it (services/entry/refunds-owed.ts).
 *
 * The providers are PAYMENT_PROVIDER's (a comma-separated list, the first the default; default 'sandbox'):
 * `app.payments` (lib/payment/registry.ts) serves the rest of the server, each payment queried, refunded and
 * closed through the provider that made it; `app.paymentProvider` is the default one.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { API_PATHS } from '#contract/api';
import {
  PAY_METHOD_PATTERN,
  PAY_SITES,
  SITE_PATHS,
  type OrderPayAnswer,
  type OrderPayRequest,
  type PaySite,
} from '#contract/entry';
import { DEFAULT_PAYMENT_SWEEP_SECONDS, parseServerEnv, type Env } from '../../lib/env.ts';
import { fail, ok } from '../../lib/envelope.ts';
import type {
  CreatedPayment,
  PaymentProvider,
  PaymentProviderContext,
  PaymentProviderFactory,
} from '../../lib/payment/provider.ts';
import { makePaymentProviders, type PaymentProviders } from '../../lib/payment/registry.ts';
import {
  BUILTIN_PAYMENT_PROVIDERS,
  isTestProvider,
  testProviderInProductionWarning,
} from '../../lib/payment/providers.ts';
import {
  cashierCsp,
  checkDecisionToken,
  renderCashier,
  SANDBOX_PROVIDER,
  sandboxCashierUrl,
  sandboxDecisionToken,
  sandboxNotification,
  type CashierLanguage,
} from '../../lib/payment/sandbox.ts';
import {
  cancelDue,
  handleNotification,
  type LifecycleDeps,
  type NotificationDeps,
} from '../../services/entry/order-transitions.ts';
import { openOrderPayment, paymentState, paymentWithOrder } from '../../services/entry/order-payment.ts';
import { remindUnpaid } from '../../services/entry/payment-reminders.ts';
import { carryOutDueRefunds } from '../../services/entry/refunds-owed.ts';
import { dailyReconcile, dueBillDays, ledgerOf } from '../../services/entry/reconciliation.ts';
import { chinaHourOf, previousChinaDay } from '../../lib/payment/bill-day.ts';
import { raceNameOf } from '../../services/entry/views.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The default payment provider of sign-up orders (the first of PAYMENT_PROVIDER; lib/payment/provider.ts). */
    paymentProvider: PaymentProvider;
    /** Every payment provider: the enabled ones, and the one that made any payment (lib/payment/registry.ts). */
    payments: PaymentProviders;
  }
}

export interface PaymentPluginOptions {
  env: Env;
  /** More providers by name (an organiser's real one), named in PAYMENT_PROVIDER like the built-in ones. */
  providers?: Record<string, PaymentProviderFactory>;
}

/** How often unpaid orders past their deadline are looked for, unless PAYMENT_SWEEP_SECONDS says otherwise. */
export const CANCEL_DUE_EVERY_MS = DEFAULT_PAYMENT_SWEEP_SECONDS * 1000;
/** How often the refunds owed whose next try is due are carried out (each waits its own backoff after a failure). */
export const PENDING_REFUNDS_EVERY_MS = 60_000;
/** A provider repeats a notification: the sandbox repeats each once, this long after. */
export const SANDBOX_REPEAT_MS = 10_000;
export const NOTIFICATION_JOB = 'payment-notification';
/** How often the daily reconciliation looks whether yesterday's bills are due (after 10:00 China time). */
export const RECONCILE_CHECK_EVERY_MS = 15 * 60_000;
/** The job that fetches and reconciles one provider's bill of one day, retried while it is not out. */
export const RECONCILE_JOB = 'reconcile-bill';
/** Tries of a bill (10 min doubling, at most 2 h apart: about ten hours in all) before a failed run is kept. */
export const RECONCILE_MAX_TRIES = 8;
export const reconcileRetryMs = (attempt: number) => Math.min(10 * 60_000 * 2 ** (attempt - 1), 2 * 3_600_000);

/** Where the runner's browser goes back after the cashier: the order page of the site they paid from. */
export const orderReturnUrl = (orderNo: string, paid: boolean, site: PaySite = 'desktop') =>
  `${SITE_PATHS[site]}#/my/order/${encodeURIComponent(orderNo)}?paid=${paid ? 1 : 0}`;

/** The same place as a URL without '#' for a provider's cashier (API_PATHS.payReturn redirects to it). */
export const providerReturnUrl = (origin: string, orderNo: string, paid: boolean, site: PaySite) =>
  `${origin}${API_PATHS.payReturn}?${new URLSearchParams({ orderNo, site, paid: paid ? '1' : '0' }).toString()}`;

/** The site a request names (a schema has checked it), desktop when it names none. */
const paySite = (site: PaySite | undefined): PaySite => site ?? 'desktop';
const siteProperty = { type: 'string', enum: PAY_SITES } as const;

const orderPayBody = {
  type: 'object',
  required: ['orderNo'],
  properties: {
    orderNo: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9-]+$' },
    site: siteProperty,
    method: { type: 'string', maxLength: 32, pattern: PAY_METHOD_PATTERN },
  },
} as const;

const payReturnQuery = {
  type: 'object',
  required: ['orderNo'],
  properties: {
    orderNo: orderPayBody.properties.orderNo,
    site: siteProperty,
    paid: { type: 'string', enum: ['0', '1'] },
  },
} as const;

const paymentIdPattern = '^[A-Za-z0-9]{1,64}$';
const cashierQuery = {
  type: 'object',
  required: ['paymentId'],
  properties: {
    paymentId: { type: 'string', maxLength: 64 },
    lang: { type: 'string', maxLength: 8 },
    site: siteProperty,
  },
} as const;
const decideBody = {
  type: 'object',
  required: ['paymentId', 'token', 'decision'],
  properties: {
    paymentId: { type: 'string', maxLength: 64 },
    token: { type: 'string', maxLength: 64 },
    decision: { type: 'string', enum: ['pay', 'fail'] },
    site: siteProperty,
  },
} as const;

/** The cashier page's language: ?lang= when given, else the `language` cookie, else Chinese. */
function cashierLanguage(lang: string | undefined, cookie: string | undefined): CashierLanguage {
  if (lang === 'en' || lang === 'zh') return lang;
  const match = /(?:^|;\s*)language=([^;]*)/.exec(cookie ?? '');
  return match?.[1]?.trim().toLowerCase().startsWith('en') ? 'en' : 'zh';
}

async function paymentPlugin(app: FastifyInstance, options: PaymentPluginOptions) {
  const { PAYMENT_PROVIDER, PAYMENT_SWEEP_SECONDS, NODE_ENV } = parseServerEnv(options.env, [
    'PAYMENT_PROVIDER',
    'PAYMENT_SWEEP_SECONDS',
    'NODE_ENV',
  ]);
  const now = () => app.config.now();
  const context: PaymentProviderContext = {
    env: options.env,
    secret: app.secrets.payment,
    now,
    state: (paymentId) => paymentState(app.repos, paymentId),
    ledger: (provider, from, to) => ledgerOf(app.repos, provider, from, to),
  };
  const factories = { ...BUILTIN_PAYMENT_PROVIDERS, ...options.providers };
  const payments = makePaymentProviders(PAYMENT_PROVIDER, factories, context);
  /** A production server running a provider that takes no money (chosen on purpose): said loudly. */
  const testsInProduction =
    NODE_ENV === 'production' ? payments.enabled.filter((p) => isTestProvider(p.name)).map((p) => p.name) : [];
  for (const name of testsInProduction) app.log.warn(testProviderInProductionWarning(name));
  const testInProduction = testsInProduction.includes(SANDBOX_PROVIDER);
  app.decorate('payments', payments);
  app.decorate('paymentProvider', payments.default);
  const deps: LifecycleDeps = { repos: app.repos, provider: payments, now };
  /** The deps of a notification of provider `name` (enabled, or one that made payments before), if any. */
  const notificationDeps = (name: string): NotificationDeps | undefined => {
    const found = payments.forPayment(name);
    return found.ok ? { ...deps, provider: found.provider } : undefined;
  };

  // ---- timed work ----------------------------------------------------------------------------------------

  app.jobs.every('cancel-due-orders', PAYMENT_SWEEP_SECONDS * 1000, async () => {
    await cancelDue(deps);
  });
  // An order still unpaid a day before its deadline is reminded once (services/entry/payment-reminders.ts).
  app.jobs.every('remind-unpaid-orders', PAYMENT_SWEEP_SECONDS * 1000, async () => {
    await remindUnpaid(app.repos, now());
  });
  // Every refund owed (the draw's, a late or double payment's, an approved request's) is carried out, and
  // retried with backoff until the provider confirms it (the refund number makes it once).
  app.jobs.every('finish-pending-refunds', PENDING_REFUNDS_EVERY_MS, async () => {
    await carryOutDueRefunds(deps);
  });
  // Reconciliation (services/entry/reconciliation.ts): after 10:00 China time, yesterday's bill of each enabled
  // provider that publishes one is fetched and compared with our books, retried with backoff until it is out.
  const reconcileDeps = { repos: app.repos, providers: payments, now };
  app.jobs.every('reconcile-daily', RECONCILE_CHECK_EVERY_MS, async () => {
    const at = now();
    for (const due of await dueBillDays(reconcileDeps, chinaHourOf(at), previousChinaDay(at))) {
      await app.jobs.schedule(RECONCILE_JOB, due, at, `reconcile:${due.provider}:${due.day}`);
    }
  });
  app.jobs.handle<{ provider: string; day: string }>(
    RECONCILE_JOB,
    async (payload, ctx) => {
      await dailyReconcile(reconcileDeps, { ...payload, lastTry: ctx.attempt >= ctx.maxAttempts });
    },
    { maxAttempts: RECONCILE_MAX_TRIES, backoffMs: reconcileRetryMs },
  );
  app.jobs.handle<{ provider: string; headers: Record<string, string>; rawBody: string }>(
    NOTIFICATION_JOB,
    async (payload) => {
      const notified = notificationDeps(payload.provider);
      if (!notified) return;
      await handleNotification(notified, payload.headers, payload.rawBody);
    },
    { maxAttempts: 3 },
  );

  // ---- notifications (raw body: the signature is over the bytes as sent) -----------------------------------

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
      done(null, body);
    });
    scope.post<{ Params: { provider: string } }>(`${API_PATHS.payNotifyPrefix}:provider`, async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      // Each provider's own path; a provider switched off since still settles the payments it made.
      const notified = notificationDeps(request.params.provider);
      if (!notified) {
        return reply
          .code(404)
          .send(fail(404, 'routeNotFound', { method: 'POST', path: request.url.split('?')[0] ?? '' }));
      }
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const result = await handleNotification(notified, request.headers, rawBody);
      if (!result.accepted) request.log.warn({ reason: result.reason }, 'payment notification refused');
      const answer = notified.provider.notifyAnswer(result.accepted, result.accepted ? undefined : result.reason);
      return reply.code(answer.statusCode).type(answer.contentType).send(answer.body);
    });
  });

  // ---- back from a provider's cashier ---------------------------------------------------------------------

  app.get<{ Querystring: { orderNo: string; site?: PaySite; paid?: '0' | '1' } }>(
    API_PATHS.payReturn,
    { schema: { querystring: payReturnQuery } },
    async (request, reply) => {
      const { orderNo, site, paid } = request.query;
      void reply.header('cache-control', 'no-store');
      return reply.redirect(orderReturnUrl(orderNo, paid === '1', paySite(site)), 303);
    },
  );

  // ---- the sandbox's cashier (only when the sandbox is enabled) --------------------------------------------

  const sandbox = payments.byName(SANDBOX_PROVIDER);
  if (!sandbox) return;
  const sandboxDeps: NotificationDeps = { ...deps, provider: sandbox };
  const secret = app.secrets.payment;

  /** What the cashier shows of a payment, or undefined when there is no such payment. */
  const cashierView = async (paymentId: string, site: PaySite) => {
    if (!new RegExp(paymentIdPattern).test(paymentId)) return undefined;
    const found = await paymentWithOrder(app.repos, paymentId, SANDBOX_PROVIDER);
    if (!found) return undefined;
    const { payment, order, race } = found;
    const expiresAt = order.deadlineAt ?? 0;
    return {
      payment,
      order,
      view: {
        paymentId,
        orderNo: order.orderNo,
        subject: raceNameOf(race, order.raceId),
        amountFen: payment.amountFen,
        expiresAt,
        payable: payment.status === 'created' && order.status === 1 && expiresAt > now(),
        token: sandboxDecisionToken(secret, paymentId),
        returnUrl: orderReturnUrl(order.orderNo, order.status === 3, site),
      },
    };
  };

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('content-security-policy', cashierCsp())
      .type('text/html; charset=utf-8')
      .send(body);

  app.get<{ Querystring: { paymentId: string; lang?: string; site?: PaySite } }>(
    API_PATHS.sandboxCashier,
    { schema: { querystring: cashierQuery } },
    async (request, reply) => {
      const { paymentId, lang } = request.query;
      const site = paySite(request.query.site);
      const language = cashierLanguage(lang, request.headers.cookie);
      const found = await cashierView(paymentId, site);
      return html(reply, found ? 200 : 404, renderCashier(language, found?.view, paymentId, site, testInProduction));
    },
  );

  app.post<{ Body: { paymentId: string; token: string; decision: 'pay' | 'fail'; site?: PaySite } }>(
    API_PATHS.sandboxDecide,
    { schema: { body: decideBody } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { paymentId, token, decision } = request.body;
      const site = paySite(request.body.site);
      const found = await cashierView(paymentId, site);
      if (!found || !checkDecisionToken(secret, paymentId, token))
        return reply.code(403).send(fail(403, 'verificationFailed'));
      const back = sandboxCashierUrl(paymentId, site);
      if (!found.view.payable) return reply.redirect(back, 303);
      const notification = sandboxNotification(secret, {
        paymentId,
        status: decision === 'pay' ? 'paid' : 'failed',
        amountFen: found.payment.amountFen,
        paidAt: now(),
      });
      // Delivered now through the notify route's own path, and once more later as a real provider repeats it.
      const result = await handleNotification(sandboxDeps, notification.headers, notification.rawBody);
      await app.jobs.schedule(
        NOTIFICATION_JOB,
        { provider: SANDBOX_PROVIDER, ...notification },
        now() + SANDBOX_REPEAT_MS,
      );
      const paid = decision === 'pay' && result.accepted;
      return reply.redirect(orderReturnUrl(found.order.orderNo, paid, site), 303);
    },
  );
}

/**
 * orderPay (login: the cashier page of the order's open payment with the method the runner chose, one of the
 * enabled providers): behind the runner's session (plugins/sessions.ts).
 */
export async function orderPayRoutes(app: FastifyInstance) {
  const now = () => app.config.now();

  app.post<{ Body: OrderPayRequest }>(API_PATHS.orderPay, { schema: { body: orderPayBody } }, async (request) => {
    const { method } = request.body;
    const provider = method === undefined ? app.payments.default : app.payments.byName(method);
    if (!provider) return fail(400, 'payMethodUnavailable');
    const site = paySite(request.body.site);
    const opened = await openOrderPayment(app.repos, {
      userId: request.runner.id,
      orderNo: request.body.orderNo,
      provider: provider.name,
      site,
      now,
    });
    if (!('order' in opened)) return fail(opened.status, opened.code);
    const { order, payment, race } = opened;
    // The provider calls back and sends the runner back to the origin they pay from (the event's bound domain).
    const origin = `${request.protocol}://${request.host}`;
    let created: CreatedPayment;
    try {
      created = await provider.createPayment({
        paymentId: payment.paymentId,
        orderNo: order.orderNo,
        amountFen: payment.amountFen,
        subject: `${race?.raceName ?? order.raceId} · ${order.orderNo}`,
        expiresAt: order.deadlineAt,
        notifyUrl: `${origin}${API_PATHS.payNotifyPrefix}${provider.name}`,
        returnUrl: providerReturnUrl(origin, order.orderNo, true, site),
        clientIp: request.ip,
        site,
      });
    } catch (error) {
      // The provider is down or refused: the runner is told to try again, nothing changes (the attempt stays
      // open and is reused). The error names no person: the request carries the order and payment numbers.
      request.log.error(
        { provider: provider.name, paymentId: payment.paymentId, err: error },
        'payment provider did not create a payment',
      );
      return fail(502, 'payProviderUnreachable');
    }
    const answer: OrderPayAnswer = {
      orderNo: order.orderNo,
      paymentId: payment.paymentId,
      cashierUrl: created.cashierUrl,
      qrContent: created.qrContent,
      deadlineAt: order.deadlineAt,
      method: provider.name,
      display: created.display ?? 'redirect',
      amountFen: payment.amountFen,
    };
    return ok(answer);
  });
}

export default fp(paymentPlugin, { name: 'payment', dependencies: ['app-config', 'db', 'jobs', 'accounts'] });
