import type { TFunction } from 'i18next';
import { auditActionKind } from '#contract/audit-actions';

/**
 * An action's name in the console's language: a listed action (contract/audit-actions.ts) by its own name, a
 * command-line command by its command, a code of no list (a record older than this console) as it is stored.
 */
export function auditActionName(t: TFunction, action: string): string {
  const read = auditActionKind(action);
  if (read.kind === 'listed') return t(`audit.actions.${read.action}`);
  if (read.kind === 'cli') return t('audit.actions.cli', { command: read.command });
  return action;
}
