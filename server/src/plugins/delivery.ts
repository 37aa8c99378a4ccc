/**
 * Delivery of verification codes. In development (the development outbox on: DEV_OUTBOX, by default unless
 * NODE_ENV=production) every message goes to the outbox table (read by the development outbox page) and is
 * printed to the console with the destination masked and the code in clear. Outside development no code is
 * kept in clear anywhere: nothing goes to the outbox table and the console line says only that a code was
 * sent. An SmsSender and an EmailSender carry messages further: the built-in ones do nothing; when SMTP_URL
 * is set, email goes out by SMTP through nodemailer (a dependency, loaded only when SMTP is configured).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { CodeChannel, CodePurpose } from '../db/codes-repository.ts';
import { maskDestination } from '../lib/accounts.ts';
import { parseServerEnv } from '../lib/env.ts';

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
}

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
  /** Where the masked console line goes; default console.log (silent under NODE_ENV=test). */
  print?: (line: string) => void;
  /** Development: keep messages in the outbox and print codes in clear (the outbox setting, DEV_OUTBOX). */
  development: boolean;
}

async function deliveryPlugin(app: FastifyInstance, options: DeliveryOptions) {
  const outbox = app.repos.outbox;
  const quiet = parseServerEnv(process.env, ['NODE_ENV']).NODE_ENV === 'test';
  const print = options.print ?? (quiet ? () => undefined : console.log);
  const sms: SmsSender = options.sms ?? { send: async () => undefined };
  const email: EmailSender =
    options.email ??
    (options.smtpUrl ? await createSmtpSender(options.smtpUrl, options.smtpFrom) : { send: async () => undefined });

  /** Provider calls under way: started after the outbox write, never awaited by the request. */
  const pending = new Set<Promise<void>>();
  const deliver = (channel: CodeChannel, destination: string, subject: string, body: string) => {
    const call = (async () => {
      try {
        if (channel === 'sms') await sms.send(destination, body);
        else await email.send(destination, subject, body);
      } catch (error) {
        app.log.error({ err: error, channel, to: maskDestination(destination) }, 'delivery failed');
      }
    })();
    pending.add(call);
    void call.finally(() => pending.delete(call));
  };
  const idle = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  app.addHook('onClose', idle);

  app.decorate('delivery', {
    async sendCode({ channel, destination, purpose, code }) {
      const { subject, body } = messageFor(purpose, code);
      const to = maskDestination(destination);
      if (options.development) {
        await outbox.add({ channel, destination, subject, body, createdAt: app.config.now() });
        print(`[outbox] ${channel} to ${to} (${purpose}): code ${code}`);
      } else {
        print(`[codes] ${channel} to ${to} (${purpose}): code sent (shown only in development)`);
      }
      deliver(channel, destination, subject, body);
    },
    async sendAccountExists(destination) {
      const { subject, body } = ACCOUNT_EXISTS_MESSAGE;
      const to = maskDestination(destination);
      if (options.development) {
        await outbox.add({ channel: 'email', destination, subject, body, createdAt: app.config.now() });
        print(`[outbox] email to ${to} (register): the address already has an account`);
      } else {
        print(`[codes] email to ${to} (register): account-exists notice sent`);
      }
      deliver('email', destination, subject, body);
    },
    idle,
  } satisfies Delivery);
}

export default fp(deliveryPlugin, { name: 'delivery', dependencies: ['db', 'app-config'] });
