/**
 * Delivery of verification codes. In development (the development outbox on: DEV_OUTBOX, by default unless
 * NODE_ENV=production) every message goes to the outbox table (read by the development outbox page) and is
 * printed to the console with the destination masked and the code in clear. Outside development no code is
 * kept in clear anywhere: nothing goes to the outbox table and the console line says only that a code was
 * sent. An SmsSender and an EmailSender carry messages further: the built-in ones do nothing; when SMTP_URL
 * is set, email goes out by SMTP through nodemailer (a dependency, loaded only when SMTP is configured).
 *
 * SMS (issue 31 §4): SMS_PROVIDER (lib/sms/providers.ts) chooses where messages to phones go. With the
 * outbox (the default) nothing leaves, as above. With a real provider (Aliyun, Tencent):
 * - a code is sent at once, off the request, with its kind's template (lib/sms/templates.ts); its outbox row
 *   (the code masked outside development) records the provider, its message id, and sent or failed with the
 *   provider's error code; a transient failure (throttled, network) is tried again a few times;
 * - the runner messages the services queue in the outbox (ballot results, payment reminders …: state
 *   queued) are sent by the `send-sms` job of the job runner, every SMS_SEND_EVERY_MS, once each across
 *   instances (a row is claimed before it is sent); a transient failure is queued again with a growing wait
 *   (longer when throttled), up to SMS_MAX_ATTEMPTS, then failed; a message older than SMS_MAX_AGE_MS is
 *   failed (expired) rather than sent late;
 * - the provider's delivery receipts (routes/sms/receipt.ts) turn a sent message delivered or failed.
 * Phone numbers are logged masked only.
 *
 * E-mail (issue 32 §2): the runner messages queued to an e-mail address are sent by the `send-email` job
 * through the SMTP transport (SMTP_URL) in the same way: claimed once, a refusal of the address (an SMTP 5xx
 * answer) failed as bounced, anything else (a 4xx answer, the network) queued again with a growing wait up to
 * SMS_MAX_ATTEMPTS; without SMTP_URL they stay in the outbox (as the SMS outbox keeps its own). The same job
 * run also sends the messages to entrants that are due (services/messages/campaigns.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { CodeChannel, CodePurpose } from '../db/codes-repository.ts';
import { maskDestination } from '../lib/accounts.ts';
import { parseServerEnv } from '../lib/env.ts';
import { CODE_VALID_MINUTES, isMainlandPhone, isSmsKind, smsContent, type SmsContent } from '../lib/sms/kinds.ts';
import { networkFailure, type SmsSendResult } from '../lib/sms/provider.ts';
import type { SmsSettings } from '../lib/sms/providers.ts';
import { templateFor } from '../lib/sms/templates.ts';
import type { OutboxOutcome, QueuedSms } from '../db/outbox-repository.ts';
import { DEFAULT_MESSAGES_PER_MINUTE, releaseDueCampaigns } from '../services/messages/campaigns.ts';

export interface SmsSender {
  send(phone: string, text: string): Promise<void>;
}

export interface EmailSender {
  send(to: string, subject: string, text: string): Promise<void>;
}

export interface Delivery {
  /**
   * Sends a code. The outbox (development) is written before it resolves; the SMS or e-mail provider is called
   * after it, off the request (issue 27: a send answers in the same time whether or not anything goes out).
   */
  sendCode(input: { channel: CodeChannel; destination: string; purpose: CodePurpose; code: string }): Promise<void>;
  /**
   * Tells the owner of an e-mail address that already has an account, instead of a registration code (issue 27:
   * a registration send answers alike for a taken address; only its owner learns that it is taken).
   */
  sendAccountExists(email: string): Promise<void>;
  /** Resolves once every provider call started so far has ended (tests; the app's close waits for them too). */
  idle(): Promise<void>;
  /** Sends the queued messages to phones that are due (the `send-sms` job; tests call it with their clock). */
  sendQueued(): Promise<{ sent: number; failed: number; retried: number }>;
  /** Sends the queued messages to e-mail addresses that are due (the `send-email` job). */
  sendQueuedEmail(): Promise<{ sent: number; failed: number; retried: number }>;
  /** MESSAGES_PER_MINUTE: copies of a message to entrants sent a minute. */
  messagesPerMinute: number;
  /** Where SMS go (SMS_PROVIDER: outbox, aliyun, tencent) and whether e-mail leaves by SMTP (the console says so). */
  channels: { sms: string; smtp: boolean };
  /** Sends the messages to entrants whose time has come (the `send-messages` job). */
  sendDueMessages(): Promise<number>;
}

/**
 * How a send by SMTP failed: a refusal of the message or the address (a 5xx answer) is final ("bounced"); a
 * 4xx answer or a network failure is tried again.
 */
export function smtpFailure(error: unknown): { code: string; detail: string; transient: boolean } {
  const e = error as { responseCode?: unknown; code?: unknown; message?: unknown };
  const status = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  const detail = String(e?.message ?? error).slice(0, 500);
  if (status !== undefined && status >= 500) return { code: 'bounced', detail, transient: false };
  return {
    code: status !== undefined ? `smtp${status}` : String(e?.code ?? 'network').slice(0, 64),
    detail,
    transient: true,
  };
}

/** How often the job runner sends the queued messages to phones. */
export const SMS_SEND_EVERY_MS = 15_000;
/** Tries of a queued message before it is failed. */
export const SMS_MAX_ATTEMPTS = 6;
/** A queued message not sent within this time is failed (expired): a ballot result days late helps no one. */
export const SMS_MAX_AGE_MS = 3 * 24 * 3600_000;
/** A message claimed this long ago and never finished (its instance died) is released. */
const SMS_STALE_MS = 10 * 60_000;
/** Tries of a code, and the first wait between them (doubling). */
const CODE_ATTEMPTS = 3;
const CODE_RETRY_MS = 400;
/** Messages claimed per batch, and batches per run of the job. */
const SMS_BATCH = 20;
const SMS_BATCHES = 10;
const CODE_KINDS = ['loginCode', 'registerCode', 'resetCode'] as const;

/** The wait before the next try of a queued message after `attempts` tries: 30 s doubling (1 min when throttled), at most 1 h. */
export const smsBackoffMs = (attempts: number, throttled: boolean) =>
  Math.min((throttled ? 60_000 : 30_000) * 2 ** (attempts - 1), 3_600_000);

/**
 * The code messages' subjects, in Chinese then English (issue 28): a code is asked for before there is an
 * account whose language could be known, so every message carries both, as the entry messages do
 * (services/entry/entry-messages.ts).
 */
const SUBJECTS: Record<CodePurpose, { zh: string; en: string }> = {
  login: { zh: '登录验证码', en: 'Your login verification code' },
  register: { zh: '注册验证码', en: 'Your registration verification code' },
  reset: { zh: '找回密码验证码', en: 'Your password reset verification code' },
};

/** The notice a registration send delivers to an address that already has an account. */
export const ACCOUNT_EXISTS_MESSAGE = {
  subject: '此邮箱已注册账号 Your email already has an account',
  body:
    '有人尝试用此邮箱注册，但此邮箱已注册账号。如果是您本人，请直接登录或找回密码；否则请忽略此邮件。' +
    'Someone asked to register with this email address, which already has an account. If it was you, log in ' +
    'or reset your password; otherwise ignore this message.',
};

/** A code message (the SMS text and the e-mail body alike): Chinese, then English. */
export function messageFor(purpose: CodePurpose, code: string) {
  const { zh, en } = SUBJECTS[purpose];
  return {
    subject: `${zh} ${en}`,
    body: `${zh} ${code}，10 分钟内有效。${en} is ${code}. It is valid for 10 minutes.`,
  };
}

/**
 * Loads nodemailer (a dependency) only when SMTP is configured, so a server without SMTP never loads it. It
 * ships no types: the module name is a variable so that TypeScript does not look for them, and `Mailer` is
 * the part of its API used here.
 */
export async function createSmtpSender(url: string, from: string): Promise<EmailSender> {
  type Mailer = { createTransport(url: string): { sendMail(mail: Record<string, string>): Promise<unknown> } };
  const moduleName = 'nodemailer';
  const mailer = ((await import(moduleName)) as { default: Mailer }).default;
  const transport = mailer.createTransport(url);
  return {
    async send(to, subject, text) {
      await transport.sendMail({ from, to, subject, text });
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    delivery: Delivery;
  }
}

export interface DeliveryOptions {
  smtpUrl?: string;
  smtpFrom: string;
  sms?: SmsSender;
  email?: EmailSender;
  /** SMS_PROVIDER and its templates (lib/sms/providers.ts readSmsSettings). */
  smsSettings: SmsSettings;
  /** Where the masked console line goes; default console.log (silent under NODE_ENV=test). */
  print?: (line: string) => void;
  /** Development: keep messages in the outbox and print codes in clear (the outbox setting, DEV_OUTBOX). */
  development: boolean;
  /** MESSAGES_PER_MINUTE (default 60). */
  messagesPerMinute?: number;
}

async function deliveryPlugin(app: FastifyInstance, options: DeliveryOptions) {
  const outbox = app.repos.outbox;
  const quiet = parseServerEnv(process.env, ['NODE_ENV']).NODE_ENV === 'test';
  const print = options.print ?? (quiet ? () => undefined : console.log);
  const sms: SmsSender = options.sms ?? { send: async () => undefined };
  const emailConfigured = options.email !== undefined || options.smtpUrl !== undefined;
  const email: EmailSender =
    options.email ??
    (options.smtpUrl ? await createSmtpSender(options.smtpUrl, options.smtpFrom) : { send: async () => undefined });
  const { provider, templates, warning } = options.smsSettings;
  if (warning) app.log.warn(warning);
  const now = () => app.config.now();

  /** Provider calls under way: started after the outbox write, never awaited by the request. */
  const pending = new Set<Promise<void>>();
  const track = (call: Promise<void>) => {
    pending.add(call);
    void call.finally(() => pending.delete(call));
  };
  const deliver = (channel: CodeChannel, destination: string, subject: string, body: string) => {
    track(
      (async () => {
        try {
          if (channel === 'sms') await sms.send(destination, body);
          else await email.send(destination, subject, body);
        } catch (error) {
          app.log.error({ err: error, channel, to: maskDestination(destination) }, 'delivery failed');
        }
      })(),
    );
  };
  const idle = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  app.addHook('onClose', idle);

  /** One send through the provider, with the template of the content's kind for this phone. */
  const sendSms = async (destination: string, content: SmsContent): Promise<SmsSendResult | OutboxOutcome> => {
    if (!provider || !templates) throw new Error('no SMS provider');
    const mainland = isMainlandPhone(destination);
    const chosen = templateFor(templates, content.kind, mainland);
    if (!chosen.ok) {
      return {
        state: chosen.reason === 'kindNotSent' ? 'skipped' : 'failed',
        provider: provider.name,
        errorCode: chosen.reason,
      };
    }
    return provider.send({ phone: destination, mainland, template: chosen.template, values: content.params });
  };
  const outcomeOf = (result: SmsSendResult): OutboxOutcome =>
    result.ok
      ? { state: 'sent', provider: provider!.name, messageId: result.messageId }
      : {
          state: 'failed',
          provider: provider!.name,
          errorCode: result.code.slice(0, 64),
          errorDetail: result.message.slice(0, 500),
        };
  const logFailure = (destination: string, kind: string, outcome: OutboxOutcome, retry: boolean) => {
    const line = { to: maskDestination(destination), kind, provider: outcome.provider, error: outcome.errorCode };
    if (retry) app.log.warn(line, 'sms not sent, will try again');
    else if (outcome.state === 'failed') app.log.error(line, 'sms failed');
  };

  /** A code by the provider, tried again after a short wait when the failure is transient. */
  const sendCodeSms = (id: number, destination: string, content: SmsContent, code: string) => {
    track(
      (async () => {
        let outcome: OutboxOutcome | undefined;
        for (let attempt = 1; attempt <= CODE_ATTEMPTS; attempt += 1) {
          try {
            const result = await sendSms(destination, { kind: content.kind, params: { ...content.params, code } });
            if ('state' in result) {
              outcome = result;
              break;
            }
            outcome = outcomeOf(result);
            if (result.ok || !result.transient || attempt === CODE_ATTEMPTS) break;
            logFailure(destination, content.kind, outcome, true);
          } catch (error) {
            app.log.error({ err: error, to: maskDestination(destination) }, 'sms failed');
            outcome = { state: 'failed', provider: provider?.name ?? '', errorCode: 'error' };
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, CODE_RETRY_MS * 2 ** (attempt - 1)));
        }
        if (!outcome) return;
        logFailure(destination, content.kind, outcome, false);
        await outbox.record(id, outcome, now()).catch((error: unknown) => {
          app.log.error({ err: error }, 'sms outcome not recorded');
        });
      })(),
    );
  };

  /** One queued message: sent, queued again (transient), failed or skipped; recorded. */
  const sendQueuedOne = async (row: QueuedSms): Promise<'sent' | 'failed' | 'retried'> => {
    let outcome: OutboxOutcome;
    let retry = false;
    if (!row.kind || !isSmsKind(row.kind)) {
      outcome = { state: 'failed', provider: provider!.name, errorCode: 'noKind' };
    } else {
      let result: SmsSendResult | OutboxOutcome;
      try {
        result = await sendSms(row.destination, { kind: row.kind, params: row.params });
      } catch (error) {
        // Not the provider's answer (it never rejects): tried again like a network failure.
        app.log.error({ err: error, to: maskDestination(row.destination) }, 'sms failed');
        result = networkFailure(error);
      }
      if ('state' in result) outcome = result;
      else {
        outcome = outcomeOf(result);
        if (!result.ok && result.transient && row.attempts < SMS_MAX_ATTEMPTS) {
          retry = true;
          outcome = {
            ...outcome,
            state: 'queued',
            nextAttemptAt: now() + smsBackoffMs(row.attempts, result.throttled),
          };
        }
      }
    }
    logFailure(row.destination, row.kind ?? '', outcome, retry);
    await outbox.record(row.id, outcome, now());
    return retry ? 'retried' : outcome.state === 'sent' ? 'sent' : 'failed';
  };

  const sendQueued = async () => {
    const counts = { sent: 0, failed: 0, retried: 0 };
    const at = now();
    if (!provider) {
      // The outbox is the sandbox: what was queued is kept there, and never sent if a provider is set later.
      await outbox.keepQueued(at);
      return counts;
    }
    await outbox.releaseStale(at - SMS_STALE_MS, at, CODE_KINDS);
    counts.failed += await outbox.expireQueued(at - SMS_MAX_AGE_MS, at);
    for (let batch = 0; batch < SMS_BATCHES; batch += 1) {
      const rows = await outbox.claimQueued(now(), SMS_BATCH);
      for (const row of rows) counts[await sendQueuedOne(row)] += 1;
      if (rows.length < SMS_BATCH) break;
    }
    return counts;
  };
  app.jobs.every('send-sms', SMS_SEND_EVERY_MS, async () => {
    await sendQueued();
  });

  /** One queued e-mail: sent, queued again (transient), or failed (bounced); recorded. */
  const sendQueuedEmailOne = async (row: QueuedSms): Promise<'sent' | 'failed' | 'retried'> => {
    let outcome: OutboxOutcome;
    let retry = false;
    try {
      await email.send(row.destination, row.subject, row.body);
      outcome = { state: 'sent', provider: 'smtp' };
    } catch (error) {
      const failure = smtpFailure(error);
      retry = failure.transient && row.attempts < SMS_MAX_ATTEMPTS;
      outcome = {
        state: retry ? 'queued' : 'failed',
        provider: 'smtp',
        errorCode: failure.code,
        errorDetail: failure.detail,
        ...(retry ? { nextAttemptAt: now() + smsBackoffMs(row.attempts, false) } : {}),
      };
      const line = { to: maskDestination(row.destination), kind: row.kind ?? '', error: failure.code };
      if (retry) app.log.warn(line, 'email not sent, will try again');
      else app.log.error(line, 'email failed');
    }
    await outbox.record(row.id, outcome, now());
    return retry ? 'retried' : outcome.state === 'sent' ? 'sent' : 'failed';
  };

  const sendQueuedEmail = async () => {
    const counts = { sent: 0, failed: 0, retried: 0 };
    const at = now();
    if (!emailConfigured) {
      // Without SMTP_URL the outbox keeps them, as it keeps messages to phones without an SMS provider.
      await outbox.keepQueued(at, 'email');
      return counts;
    }
    await outbox.releaseStale(at - SMS_STALE_MS, at, CODE_KINDS, 'email');
    counts.failed += await outbox.expireQueued(at - SMS_MAX_AGE_MS, at, 'email');
    for (let batch = 0; batch < SMS_BATCHES; batch += 1) {
      const rows = await outbox.claimQueued(now(), SMS_BATCH, 'email');
      for (const row of rows) counts[await sendQueuedEmailOne(row)] += 1;
      if (rows.length < SMS_BATCH) break;
    }
    return counts;
  };
  app.jobs.every('send-email', SMS_SEND_EVERY_MS, async () => {
    await sendQueuedEmail();
  });
  const messagesPerMinute = options.messagesPerMinute ?? DEFAULT_MESSAGES_PER_MINUTE;
  const sendDueMessages = () => releaseDueCampaigns(app.repos, now(), messagesPerMinute);
  app.jobs.every('send-messages', SMS_SEND_EVERY_MS, async () => {
    await sendDueMessages();
  });

  app.decorate('delivery', {
    async sendCode({ channel, destination, purpose, code }) {
      const { subject, body } = messageFor(purpose, code);
      const to = maskDestination(destination);
      // A real SMS provider sends the code's template; options.sms (a sender given in code) takes the text.
      const byProvider = channel === 'sms' && provider !== null && options.sms === undefined;
      const content = smsContent(`${purpose}Code`, { code, minutes: CODE_VALID_MINUTES });
      // A code to an e-mail address is sent here and now (deliver, below): never by the e-mail sender's queue.
      const state = byProvider ? 'sending' : provider !== null || channel === 'email' ? 'sent' : undefined;
      if (options.development) {
        const id = await outbox.add({ channel, destination, subject, body, createdAt: now(), sms: content, state });
        print(`[outbox] ${channel} to ${to} (${purpose}): code ${code}`);
        if (byProvider) sendCodeSms(id, destination, content, code);
      } else {
        print(`[codes] ${channel} to ${to} (${purpose}): code sent (shown only in development)`);
        if (byProvider) {
          // The row records the send and its receipt; the code itself is kept nowhere.
          const hidden = '••••••';
          const masked = { kind: content.kind, params: { ...content.params, code: hidden } };
          const text = messageFor(purpose, hidden);
          const id = await outbox.add({ channel, destination, ...text, createdAt: now(), sms: masked, state });
          sendCodeSms(id, destination, content, code);
        }
      }
      if (!byProvider) deliver(channel, destination, subject, body);
    },
    async sendAccountExists(destination) {
      const { subject, body } = ACCOUNT_EXISTS_MESSAGE;
      const to = maskDestination(destination);
      if (options.development) {
        await outbox.add({ channel: 'email', destination, subject, body, createdAt: now(), state: 'sent' });
        print(`[outbox] email to ${to} (register): the address already has an account`);
      } else {
        print(`[codes] email to ${to} (register): account-exists notice sent`);
      }
      deliver('email', destination, subject, body);
    },
    idle,
    sendQueued,
    sendQueuedEmail,
    messagesPerMinute,
    channels: { sms: options.smsSettings.name, smtp: emailConfigured },
    sendDueMessages,
  } satisfies Delivery);
}

export default fp(deliveryPlugin, { name: 'delivery', dependencies: ['db', 'app-config', 'jobs'] });
