/**
 * The console and the public site kept apart (eslint.config.js; issue 30 §1): the public site's code never
 * imports the console, so none of it reaches a visitor, and the console imports the contract but none of the
 * public site's code (its message texts in src/locales aside). Real probe files linted with the project's
 * configuration.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const folders: string[] = [];

/** A probe file in a new folder `<base>/lint-probe-<pid>/` (two levels below `src`). */
function probe(base: string, text: string): string {
  const folder = path.join(root, base, `lint-probe-${process.pid}`);
  mkdirSync(folder, { recursive: true });
  folders.push(folder);
  const file = path.join(folder, 'probe.ts');
  writeFileSync(file, text);
  return file;
}

// Written before the first lint (see server-layers.test.ts: the project service reads folders once).
const PROBES = {
  site: probe(
    'src/lib',
    ["import { AREAS } from '../../../admin/src/app';", 'export const probe = AREAS;', ''].join('\n'),
  ),
  console: probe(
    'admin/src',
    [
      "import { api } from '../api/client';",
      "import { isStaffRole } from '#contract/staff';",
      "import zh from '../../../src/locales/zh/common.json';",
      "import { notify } from '../../../src/lib/notify';",
      'export const probe = [api, isStaffRole, zh, notify];',
      '',
    ].join('\n'),
  ),
};

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function restricted(file: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintFiles([file]);
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message.split("'")[1] ?? '');
}

describe('the console and the public site, as the linter keeps them', () => {
  it("refuses the public site's code importing the console", async () => {
    expect(await restricted(PROBES.site)).toEqual(['../../../admin/src/app']);
  });

  it("refuses the console importing the public site's code, and lets it import the contract and the texts", async () => {
    expect(await restricted(PROBES.console)).toEqual(['../../../src/lib/notify']);
  });
});
