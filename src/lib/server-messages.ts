/**
 * The server's messages in the visitor's language. An answer of the reference server names its message by
 * code (`msgCode`, `msgParams`): shown as `messages.<code>` of the locale files. An organiser's own API may
 * send only the contract's English `msg` (spec §8 "Dictionary messages"): a msg that is the text of a
 * contract message (parameters included) is shown in the visitor's language as well; any other msg as sent.
 */
import i18n from 'i18next';
import type { Envelope } from '#contract/api';
import { isMessageCode, MESSAGES, messageParamNames, type MessageCode, type MessageParams } from '#contract/messages';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each contract text as a pattern that reads its parameters back, e.g. 'Please wait (.+?) seconds…'. */
const PARAM = /\{\{\s*\w+\s*\}\}/g;
/** (A text that is only a parameter, e.g. invalidRequest, reads nothing back: it would match any msg.) */
const TEXT_PATTERNS = (Object.keys(MESSAGES) as MessageCode[])
  .filter((code) => MESSAGES[code].replace(PARAM, '').trim() !== '')
  .map((code) => {
    const text = MESSAGES[code];
    const source = text
      .split(PARAM)
      .map((literal) => escape(literal))
      .join('(.+?)');
    return { code, names: messageParamNames(text), pattern: new RegExp(`^${source}$`) };
  });

/** The code and parameters of a contract message given by its English text, or null. */
export function messageOfText(msg: string): { code: MessageCode; params: MessageParams } | null {
  const text = msg.trim();
  for (const { code, names, pattern } of TEXT_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { code, params: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return null;
}

const messageFor = (code: MessageCode, params?: MessageParams) => i18n.t(`messages.${code}`, params ?? {});

/**
 * What to show for a failed answer: by its msgCode when it has a known one, else its msg (in the visitor's
 * language when it is a contract text); null when it carries neither.
 */
export function localizeServerMessage(answer: Partial<Pick<Envelope<unknown>, 'msg' | 'msgCode' | 'msgParams'>>) {
  if (isMessageCode(answer.msgCode)) {
    const params = answer.msgParams && typeof answer.msgParams === 'object' ? answer.msgParams : undefined;
    return messageFor(answer.msgCode, params);
  }
  if (typeof answer.msg !== 'string' || answer.msg.trim() === '') return null;
  const known = messageOfText(answer.msg);
  return known ? messageFor(known.code, known.params) : answer.msg;
}
