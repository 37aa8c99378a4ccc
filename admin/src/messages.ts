/**
 * A server message in the console's language, by its code: the console's own (contract/console-messages.ts)
 * or the site's (contract/messages.ts, whose zh and en texts are the public site's locale files, the one
 * place they are kept). Without a code, the envelope's text; without one either, a general message.
 */
import { CONSOLE_MESSAGES, isConsoleMessageCode } from '#contract/console-messages';
import { fillMessage, isMessageCode, type MessageParams } from '#contract/messages';
import zhCommon from '../../src/locales/zh/common.json';
import enCommon from '../../src/locales/en/common.json';
import zhAuth from '../../src/locales/zh/auth.json';
import enAuth from '../../src/locales/en/auth.json';
import type { ConsoleLanguage } from './store';

const SITE_MESSAGES: Record<ConsoleLanguage, Record<string, string>> = {
  zh: { ...zhCommon.messages, ...zhAuth.messages },
  en: { ...enCommon.messages, ...enAuth.messages },
};

/** The console's own client-side messages (no server answer to name one). */
const LOCAL = {
  consoleNetwork: { zh: '网络连接失败，请检查网络后重试', en: 'No connection: check the network and try again' },
  consoleTimeout: { zh: '请求超时，请稍后重试', en: 'The request timed out: try again in a moment' },
  consoleFailed: { zh: '操作失败，请稍后重试', en: 'Something went wrong: try again in a moment' },
} as const;

export function consoleMessage(
  language: ConsoleLanguage,
  code: string | undefined,
  params?: MessageParams,
  fallback?: string,
): string {
  if (isConsoleMessageCode(code)) return fillMessage(CONSOLE_MESSAGES[code][language], params);
  if (code !== undefined && Object.hasOwn(LOCAL, code)) return LOCAL[code as keyof typeof LOCAL][language];
  if (isMessageCode(code)) {
    const text = SITE_MESSAGES[language][code];
    if (text) return fillMessage(text, params);
  }
  return fallback || LOCAL.consoleFailed[language];
}
