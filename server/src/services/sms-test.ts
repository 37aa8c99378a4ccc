/**
 * A test message through the configured SMS provider (`site sms-test`, issue 31 §4): checks the keys, the sign
 * name and one kind's template before a race counts on them, with sample values for its variables.
 */
import { randomInt } from 'node:crypto';
import { maskDestination } from '../lib/accounts.ts';
import { ServerEnvError, type Env } from '../lib/env.ts';
import { isMainlandPhone, isSmsKind, SMS_KIND_NAMES, SMS_KINDS, type SmsKind } from '../lib/sms/kinds.ts';
import { readSmsSettings } from '../lib/sms/providers.ts';
import { templateFor } from '../lib/sms/templates.ts';

/** Sample values of every variable (the code is random: it logs no one in). */
const sampleValues = (code: string): Record<string, string> => ({
  code,
  minutes: '10',
  race: '测试赛事',
  raceEn: 'Test race',
  item: '马拉松',
  itemEn: 'Marathon',
  entryNo: 'T00000001',
  orderNo: 'T00000001',
  amount: '0.01',
  deadline: '2099-01-01 20:00',
  position: '1',
  name: '张*',
  fromName: '李*',
  bib: 'A00001',
  reason: '测试',
  until: '2099-01-01 20:00',
  carrier: '顺丰',
  trackingNo: 'SF0000000000',
});

/** 'login', 'register', 'reset' or a kind's own name. */
export function smsKindOf(name: string): SmsKind | undefined {
  const kind = ['login', 'register', 'reset'].includes(name) ? `${name}Code` : name;
  return isSmsKind(kind) ? kind : undefined;
}

export const SMS_TEST_KINDS = `login, register, reset or one of ${SMS_KIND_NAMES.join(', ')}`;

/** Sends `kind`'s template to `to`; the lines to print, or the refusal. */
export async function sendTestSms(
  env: Env,
  to: string,
  kindName: string,
): Promise<{ ok: true; lines: string[] } | { ok: false; lines: string[] }> {
  const phone = to.replace(/[\s-]/g, '');
  if (!/^(\+?\d{6,15})$/.test(phone)) return { ok: false, lines: [`--to "${to}" is not a phone number.`] };
  const kind = smsKindOf(kindName);
  if (!kind) return { ok: false, lines: [`--kind must be ${SMS_TEST_KINDS}.`] };
  let settings;
  try {
    settings = readSmsSettings(env);
  } catch (error) {
    if (error instanceof ServerEnvError) return { ok: false, lines: error.problems.map((p) => p.message) };
    throw error;
  }
  if (!settings.provider) {
    return {
      ok: false,
      lines: ['SMS_PROVIDER is outbox: nothing leaves the server. Set SMS_PROVIDER=aliyun or tencent.'],
    };
  }
  const mainland = isMainlandPhone(phone);
  const chosen = templateFor(settings.templates, kind, mainland);
  if (!chosen.ok) {
    return {
      ok: false,
      lines: [`${kind} has no ${mainland ? '' : 'international '}template in SMS_TEMPLATES (${chosen.reason}).`],
    };
  }
  const values = sampleValues(String(randomInt(0, 1_000_000)).padStart(6, '0'));
  const result = await settings.provider.send({ phone, mainland, template: chosen.template, values });
  const shown = maskDestination(phone);
  const variables = chosen.template.params.map(([name, ours]) => `${name}=${values[ours] ?? ''}`).join(', ');
  if (!result.ok) {
    return {
      ok: false,
      lines: [
        `${settings.name} refused ${kind} (template ${chosen.template.code}) to ${shown}: ${result.code} ${result.message}`.trim(),
      ],
    };
  }
  return {
    ok: true,
    lines: [
      `sent ${kind} to ${shown} through ${settings.name}: template ${chosen.template.code}, message id ${result.messageId}`,
      `variables: ${variables || '(none)'}; sample values only (a code in it logs no one in)`,
      `the kind's variables: ${SMS_KINDS[kind].join(', ')}`,
    ],
  };
}
