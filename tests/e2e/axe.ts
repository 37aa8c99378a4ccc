/**
 * axe-core in the page under test (WCAG 2.2 AA rules and best practices). Its source, from node_modules,
 * is evaluated through the DevTools protocol, so the site's Content-Security-Policy does not stop it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

export interface AxeFinding {
  state: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The violations axe finds in the page as it is now, one entry per rule, labelled with the state's name. */
export async function axeFindings(page: Page, state: string): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol (not a <script> tag): the site's CSP allows no inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(
    async (tags) =>
      // A toast on its way out (antd's fade-leave) is fading to nothing, its contrast lowered by the fade: it is
      // gone a moment later. Met at rest, the same toast is checked like everything else.
      (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } }).axe.run(
        { exclude: [['.ant-message-fade-leave']] },
        {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
        },
      ),
    TAGS,
  )) as AxeResults;
  return results.violations.map((v: Result) => ({
    state,
    rule: v.id,
    impact: v.impact ?? 'minor',
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}

/** Serious and critical findings, the ones a browser test fails on. */
export const blocking = (findings: AxeFinding[]) =>
  findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');

/** Counts by impact, for the log and the report. */
export function countByImpact(findings: AxeFinding[]): Record<string, number> {
  const counts: Record<string, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const f of findings) counts[f.impact] = (counts[f.impact] ?? 0) + 1;
  return counts;
}
