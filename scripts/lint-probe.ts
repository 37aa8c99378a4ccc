/**
 * Lints a probe file of the rule tests (scripts/eslint-boundaries.test.ts, scripts/server-layers.test.ts) with the
 * project's own configuration, running only `rules`, on an untyped parse: the typed one (typescript-eslint's
 * project service) took over two minutes beside a second `npm test`, and a probe file made after the service had
 * started was not in its project, which made the parse fail and the rules find nothing. Every rule these tests
 * probe reads the syntax alone.
 */
import path from 'node:path';
import { ESLint } from 'eslint';

export interface LintProblem {
  rule: string | null;
  line: number;
  message: string;
}

const root = path.resolve(import.meta.dirname, '..');

export async function lintProbe(file: string, rules: ReadonlySet<string>): Promise<LintProblem[]> {
  const eslint = new ESLint({
    cwd: root,
    ruleFilter: ({ ruleId }) => rules.has(ruleId),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  });
  const [result] = await eslint.lintFiles([file]);
  // A file ESLint could not parse runs no rule: say why, not "no problems".
  const fatal = result.messages.filter((m) => m.fatal);
  if (fatal.length > 0)
    throw new Error(`ESLint could not parse ${path.relative(root, file)}: ${fatal.map((m) => m.message).join('; ')}`);
  return result.messages.map((m) => ({ rule: m.ruleId, line: m.line, message: m.message }));
}
