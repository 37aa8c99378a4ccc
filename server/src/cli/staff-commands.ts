/**
 * Staff accounts and the audit log from the command line (issue 30 §2, §3), run by site.ts:
 * - `staff-add <email> --role <role> [--name <name>] [--races <raceId,…>]`: prints a one-time password.
 * - `staff-list`, `staff-remove <email>`, `staff-password <email> [--reset-2fa]`.
 * - `staff-sessions <email> [--revoke]`: a member's open sessions; --revoke ends them all.
 * - `audit-verify`: checks the whole chain; prints the count and the head hash.
 * - `audit-list [--action <a>] [--race <raceId>] [--actor <email|cli>] [--from <date>] [--to <date>] [--limit <n>]`.
 * - `audit-export <file.csv> [the same filters]`: every matching record to an owner-only CSV file.
 * Every change is in the audit log as the command line's (cli:<user>@<host>).
 */
import { roleNeedsSecondFactor, STAFF_ROLES } from '#contract/staff';
import type { OpenedDatabase } from '../db/database.ts';
import type { AuditFilter } from '../db/audit-repository.ts';
import { exportAudit, findAudit, verifyAuditChain } from '../services/staff/audit.ts';
import { revokeStaffSessions, staffSessions } from '../services/staff/sessions.ts';
import {
  addStaff,
  listStaff,
  removeStaff,
  resetStaffPassword,
  staffByEmail,
  type StaffRefusal,
} from '../services/staff/staff.ts';
import { formatTable } from './entry-commands.ts';
import { writeTableFile } from './output-file.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';

export const STAFF_COMMANDS = {
  'staff-add': { arity: 1, options: ['--role', '--name', '--races'], flags: [] },
  'staff-list': { arity: 0, options: [], flags: [] },
  'staff-remove': { arity: 1, options: [], flags: [] },
  'staff-password': { arity: 1, options: [], flags: ['--reset-2fa'] },
  'staff-sessions': { arity: 1, options: [], flags: ['--revoke'] },
  'audit-verify': { arity: 0, options: [], flags: [] },
  'audit-list': { arity: 0, options: ['--action', '--race', '--actor', '--from', '--to', '--limit'], flags: [] },
  'audit-export': { arity: 1, options: ['--action', '--race', '--actor', '--from', '--to'], flags: [] },
} as const satisfies Record<string, { arity: number; options: readonly string[]; flags: readonly string[] }>;
export type StaffCommand = keyof typeof STAFF_COMMANDS;
export const isStaffCommand = (command: string): command is StaffCommand => Object.hasOwn(STAFF_COMMANDS, command);

export const STAFF_USAGE = `  staff-add <email> --role <role> [--name <name>] [--races <raceId,…>]
      add a member of the organiser's staff for the console at /admin/ (roles: ${STAFF_ROLES.join(', ')};
      --races limits them to those races); prints a one-time password they change at first sign-in
  staff-list                    the staff: e-mail, name, role, races, second factor, locked
  staff-remove <email>          remove a member and end their sessions (never the last owner)
  staff-password <email> [--reset-2fa]
      a new one-time password for a member who lost theirs (--reset-2fa: and their authenticator);
      their sessions end
  staff-sessions <email> [--revoke]
      a member's open sessions (started, last used, address, browser); --revoke ends them all (a lost
      laptop or phone): they sign in again
  audit-verify                  check the audit log's hash chain; prints the number of records and the
                                head hash (note it down elsewhere: a log cut short shows a different head)
  audit-list [--action <action>] [--race <raceId>] [--actor <email|cli>] [--from <date>] [--to <date>]
             [--limit <n>]
      the newest records of the audit log (default 50, at most 200); --actor: one member's or the command
      line's; --from/--to: ISO dates or times (UTC unless they name a zone), --to exclusive
  audit-export <file.csv> [--action …] [--race …] [--actor …] [--from …] [--to …]
      every matching record to a CSV file (UTF-8, owner-only); the export is itself recorded`;

const REFUSALS: Record<StaffRefusal, string> = {
  staffEmailInvalid: 'that is not an e-mail address',
  staffRoleInvalid: `the role must be one of: ${STAFF_ROLES.join(', ')}`,
  staffExists: 'a member with that e-mail already exists',
  staffNotFound: 'no member with that e-mail',
  staffLastOwner: 'the last owner cannot be removed or given another role: add another owner first',
  staffRaceUnknown: 'a race in --races does not exist (add it with: site add-race <race.json>)',
};

interface StaffIo {
  now: number;
  withDatabase: <T>(work: (opened: OpenedDatabase) => Promise<T>) => Promise<T>;
}

type Outcome = CommandOutcome | { ok: false; usage: true; lines: string[] };

const time = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** An instant of --from/--to: an ISO date or date-time (UTC unless it names a zone), or undefined. */
function instantOf(text: string): number | undefined {
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `${text}T00:00:00Z`
    : /[zZ]|[+-]\d{2}:?\d{2}$/.test(text)
      ? text
      : `${text}Z`;
  const at = Date.parse(iso);
  return Number.isNaN(at) ? undefined : at;
}

export async function runStaffCommand(command: StaffCommand, argv: readonly string[], io: StaffIo): Promise<Outcome> {
  const spec = STAFF_COMMANDS[command];
  const args = [...argv];
  const options: Record<string, string | undefined> = {};
  for (const name of spec.options) {
    const at = args.indexOf(name);
    if (at < 0) continue;
    const value = args[at + 1];
    if (value === undefined || value.startsWith('--') || value.trim() === '') {
      return { ok: false, usage: true, lines: [`${name} needs a value.`] };
    }
    options[name] = value.trim();
    args.splice(at, 2);
  }
  const flags = new Set<string>();
  for (const flag of spec.flags as readonly string[]) {
    const at = args.indexOf(flag);
    if (at >= 0) {
      flags.add(flag);
      args.splice(at, 1);
    }
  }
  if (args.length !== spec.arity || args.some((a) => a.startsWith('--'))) {
    return {
      ok: false,
      usage: true,
      lines: [
        `"${command}" takes ${spec.arity} argument${spec.arity === 1 ? '' : 's'}: ${args.join(' ') || 'none'} given.`,
      ],
    };
  }
  const cli = { kind: 'cli' } as const;
  const [email = ''] = args;
  return io.withDatabase(async ({ repos }): Promise<Outcome> => {
    const member = () => staffByEmail(repos, email);
    /** The audit filters of --action, --race, --actor, --from and --to, or the line saying what is wrong. */
    const auditFilter = async (): Promise<Omit<AuditFilter, 'limit'> | string> => {
      const filter: Omit<AuditFilter, 'limit'> = { action: options['--action'], raceId: options['--race'] };
      const actor = options['--actor'];
      if (actor === 'cli') filter.actor = 'cli';
      else if (actor !== undefined) {
        const found = await staffByEmail(repos, actor);
        if (!found) return `--actor: no member with the e-mail ${actor} (or "cli" for the command line).`;
        filter.actor = `staff:${found.id}`;
      }
      for (const [name, key] of [
        ['--from', 'from'],
        ['--to', 'to'],
      ] as const) {
        const text = options[name];
        if (text === undefined) continue;
        const at = instantOf(text);
        if (at === undefined) return `${name} must be a date like 2027-03-01 or 2027-03-01T08:00+08:00.`;
        filter[key] = at;
      }
      return filter;
    };
    switch (command) {
      case 'staff-add': {
        if (options['--role'] === undefined) return { ok: false, usage: true, lines: ['staff-add needs --role.'] };
        const races =
          options['--races']
            ?.split(',')
            .map((r) => r.trim())
            .filter(Boolean) ?? null;
        const added = await addStaff(
          repos,
          { email, name: options['--name'], role: options['--role'], races },
          cli,
          io.now,
        );
        if (!added.ok) return { ok: false, lines: [`Not added: ${REFUSALS[added.refusal]}.`] };
        const { staff, password } = added.value;
        return {
          ok: true,
          lines: [
            `Added ${staff.email} (${staff.role}${staff.races ? `, races ${staff.races.join(', ')}` : ''}).`,
            `One-time password: ${password}`,
            'Give it to them in person or by phone, not in the same message as the address. They sign in at',
            '<your domain>/admin/ and must choose their own password at once' +
              (roleNeedsSecondFactor(staff.role) ? ', then set up an authenticator app (second factor).' : '.'),
          ],
        };
      }
      case 'staff-list': {
        const staff = await listStaff(repos, io.now);
        if (staff.length === 0)
          return { ok: true, lines: ['No staff yet: add the first owner with staff-add <email> --role owner.'] };
        return {
          ok: true,
          lines: formatTable(
            ['email', 'name', 'role', 'races', 'second factor', 'locked', 'added'],
            staff.map((s) => [
              s.email,
              s.name,
              s.role,
              s.races?.join(',') ?? 'all',
              s.secondFactor ? 'yes' : 'no',
              s.locked ? 'yes' : '',
              time(s.createdAt),
            ]),
          ),
        };
      }
      case 'staff-remove': {
        const found = await member();
        if (!found || found.removedAt !== null)
          return { ok: false, lines: [`Not removed: ${REFUSALS.staffNotFound}.`] };
        const removed = await removeStaff(repos, found.id, cli, io.now);
        if (!removed.ok) return { ok: false, lines: [`Not removed: ${REFUSALS[removed.refusal]}.`] };
        return { ok: true, lines: [`Removed ${found.email}; their sessions are ended.`] };
      }
      case 'staff-password': {
        const found = await member();
        if (!found || found.removedAt !== null)
          return { ok: false, lines: [`Not changed: ${REFUSALS.staffNotFound}.`] };
        const reset = await resetStaffPassword(
          repos,
          found.id,
          { resetSecondFactor: flags.has('--reset-2fa') },
          cli,
          io.now,
        );
        if (!reset.ok) return { ok: false, lines: [`Not changed: ${REFUSALS[reset.refusal]}.`] };
        return {
          ok: true,
          lines: [
            `New one-time password for ${found.email}: ${reset.value.password}`,
            flags.has('--reset-2fa') ? 'Their second factor is removed: they set it up again at sign-in.' : '',
            'Their sessions are ended.',
          ].filter(Boolean),
        };
      }
      case 'staff-sessions': {
        const found = await member();
        if (!found || found.removedAt !== null) return { ok: false, lines: [`${REFUSALS.staffNotFound}.`] };
        if (flags.has('--revoke')) {
          const revoked = await revokeStaffSessions(repos, found.id, cli, io.now);
          if (!revoked.ok) return { ok: false, lines: [`${REFUSALS[revoked.refusal]}.`] };
          const n = revoked.value.revoked;
          return { ok: true, lines: [`Ended ${n} session${n === 1 ? '' : 's'} of ${found.email}.`] };
        }
        const sessions = await staffSessions(repos, found.id, io.now);
        if (!sessions.ok) return { ok: false, lines: [`${REFUSALS[sessions.refusal]}.`] };
        if (sessions.value.length === 0) return { ok: true, lines: [`${found.email} has no open session.`] };
        return {
          ok: true,
          lines: formatTable(
            ['started (UTC)', 'last used (UTC)', 'from', 'browser'],
            sessions.value.map((v) => [time(v.createdAt), time(v.lastUsedAt), v.ip, v.device || 'unknown']),
          ),
        };
      }
      case 'audit-export': {
        if (!/\.csv$/i.test(email)) return { ok: false, usage: true, lines: ['audit-export writes a .csv file.'] };
        const filter = await auditFilter();
        if (typeof filter === 'string') return { ok: false, usage: true, lines: [filter] };
        const { table, count } = await exportAudit(repos, filter, cli, io.now);
        const problem = writeTableFile(email, table, 'audit', io.now);
        if (problem) return { ok: false, lines: [problem] };
        return { ok: true, lines: [`Wrote ${count} record${count === 1 ? '' : 's'} to ${email}.`] };
      }
      case 'audit-verify': {
        const verdict = await verifyAuditChain(repos);
        if (!verdict.ok) {
          return {
            ok: false,
            lines: [
              `The audit log is BROKEN at record ${verdict.brokenAt}: ${verdict.reason}.`,
              `${verdict.count} records before it are intact.`,
            ],
          };
        }
        return {
          ok: true,
          lines: [`The audit log is intact: ${verdict.count} records.`, `Head hash: ${verdict.head}`],
        };
      }
      case 'audit-list': {
        const limitText = options['--limit'];
        const limit = limitText === undefined ? 50 : Number(limitText);
        if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
          return { ok: false, usage: true, lines: ['--limit must be a whole number from 1 to 200.'] };
        }
        const filter = await auditFilter();
        if (typeof filter === 'string') return { ok: false, usage: true, lines: [filter] };
        const records = await findAudit(repos, { ...filter, limit });
        if (records.length === 0) return { ok: true, lines: ['No records.'] };
        return {
          ok: true,
          lines: formatTable(
            ['seq', 'at (UTC)', 'actor', 'from', 'action', 'race', 'target', 'before', 'after'],
            records.map((r) => [
              String(r.seq),
              time(r.at),
              r.actor,
              r.source,
              r.action,
              r.raceId ?? '',
              r.target,
              r.before ?? '',
              r.after ?? '',
            ]),
          ),
        };
      }
    }
  });
}
