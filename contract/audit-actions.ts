/**
 * Every action the audit log records (issue 30 §3), in one list: the server's `appendAudit` takes only these
 * (its type is AuditAction, so a new action that is not listed here does not compile), and the console shows
 * each with its name in the organiser's language (admin/src/locales/{zh,en}/audit.json `actions`, a test keeps
 * both complete). The codes are what records keep and exports carry: an existing one is never renamed (records
 * already written name it, and their hash covers it).
 */
export const AUDIT_ACTIONS = [
  'asset.add',
  'asset.remove',
  'asset.replace',
  'audit.export',
  'ballot.commit',
  'ballot.draw',
  'ballot.reveal',
  'bibs.assign',
  'codes.export',
  'codes.import',
  'codes.issue',
  'codes.revoke',
  'deferrals.issue',
  'direct.approve',
  'direct.personal',
  'direct.reject',
  'domain.bind',
  'domain.unbind',
  'entries.export',
  'entry.bib',
  'entry.cancel',
  'entry.edit',
  'entry.payOffline',
  'entry.personal',
  'entry.refund',
  'entry.transfer',
  'form.draft',
  'form.publish',
  'import.photos',
  'import.results',
  'letters.export',
  'mailing.export',
  'mailing.import',
  'message-cancel',
  'message-retry',
  'message-schedule',
  'message-send',
  'message-template-reset',
  'message-template-save',
  'payment.record',
  'pickup.capacity',
  'pickup.checkIn',
  'pickup.export',
  'pickup.staffKeyIssue',
  'pickup.staffKeyRevoke',
  'race.add',
  'race.save',
  'reconciliation.handle',
  'reconciliation.import',
  'reconciliation.run',
  'refund.approve',
  'refund.reject',
  'refund.retry',
  'signUp.close',
  'signUp.open',
  'site.draft',
  'site.publish',
  'site.rollback',
  'staff.add',
  'staff.change',
  'staff.changePassword',
  'staff.login',
  'staff.loginFailed',
  'staff.logout',
  'staff.remove',
  'staff.resetPassword',
  'staff.revokeSession',
  'staff.revokeSessions',
  'staff.secondFactorSet',
] as const;

/** The prefix of a command-line command's record: `cli.<command>` (server/src/cli/site.ts). */
export const CLI_AUDIT_PREFIX = 'cli.';

export type ListedAuditAction = (typeof AUDIT_ACTIONS)[number];
export type AuditAction = ListedAuditAction | `${typeof CLI_AUDIT_PREFIX}${string}`;

const LISTED: ReadonlySet<string> = new Set(AUDIT_ACTIONS);

/** How a stored action reads: one of the list, a command-line command (its name), or a code of no list (old). */
export function auditActionKind(
  action: string,
): { kind: 'listed'; action: ListedAuditAction } | { kind: 'cli'; command: string } | { kind: 'unknown' } {
  if (LISTED.has(action)) return { kind: 'listed', action: action as ListedAuditAction };
  if (action.startsWith(CLI_AUDIT_PREFIX) && action.length > CLI_AUDIT_PREFIX.length)
    return { kind: 'cli', command: action.slice(CLI_AUDIT_PREFIX.length) };
  return { kind: 'unknown' };
}
