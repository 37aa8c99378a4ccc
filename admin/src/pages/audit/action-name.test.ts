import { AUDIT_ACTIONS } from '#contract/audit-actions';
import { i18n, startI18n } from '../../i18n';
import { auditActionName } from './action-name';

describe("an audit action's name", () => {
  it.each(['zh', 'en'] as const)('is written for every action of the list, each its own (%s)', async (language) => {
    await startI18n(language);
    const t = i18n.getFixedT(language);
    const names = AUDIT_ACTIONS.map((action) => auditActionName(t, action));
    // A missing text comes back as its key (audit.actions.entry.cancel).
    expect(names.filter((name) => name.startsWith('audit.actions.'))).toEqual([]);
    expect(new Set(names).size).toBe(AUDIT_ACTIONS.length);
  });

  it('names a command-line command by the command, and shows a code of no list as stored', async () => {
    await startI18n('zh');
    expect(auditActionName(i18n.getFixedT('zh'), 'cli.codes-issue')).toBe('命令行：codes-issue');
    expect(auditActionName(i18n.getFixedT('en'), 'cli.codes-issue')).toBe('Command line: codes-issue');
    expect(auditActionName(i18n.getFixedT('en'), 'entry.cancel')).toBe('Entry cancelled');
    expect(auditActionName(i18n.getFixedT('en'), 'old.action')).toBe('old.action');
    expect(auditActionName(i18n.getFixedT('en'), 'cli.')).toBe('cli.');
  });
});
