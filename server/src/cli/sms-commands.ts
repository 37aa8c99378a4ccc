/**
 * The SMS command (issue 31 §4), run by site.ts:
 * - `sms-test --to <phone> [--kind login]`: one message of a kind's template, with sample values, through
 *   SMS_PROVIDER (its keys and SMS_TEMPLATES from the environment, as the server reads them).
 */
import type { Env } from '../lib/env.ts';
import { sendTestSms } from '../services/sms-test.ts';
import { parseCliOptions } from './cli-options.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';

export const SMS_COMMANDS = {
  'sms-test': { arity: 0, options: ['--to', '--kind'] },
} as const satisfies Record<string, { arity: number; options: readonly string[] }>;
export type SmsCommand = keyof typeof SMS_COMMANDS;
export const isSmsCommand = (command: string): command is SmsCommand => Object.hasOwn(SMS_COMMANDS, command);

export const SMS_USAGE = `  sms-test --to <phone> [--kind login]
      send one test message through SMS_PROVIDER (aliyun or tencent, its keys and SMS_TEMPLATES
      from the environment) with sample values: checks the keys, the sign name and the kind's
      template. --kind: login (the default), register, reset, or a kind of docs/sms-providers.md
      (ballotWon, paymentDue …).`;

export async function runSmsCommand(
  command: SmsCommand,
  argv: readonly string[],
  io: { env: Env },
): Promise<CommandOutcome | { ok: false; usage: true; lines: string[] }> {
  const parsed = parseCliOptions(command, argv, SMS_COMMANDS[command].options, ['--to']);
  if (!parsed.ok) return { ok: false, usage: true, lines: [parsed.problem] };
  return sendTestSms(io.env, parsed.options['--to'] as string, parsed.options['--kind'] ?? 'login');
}
