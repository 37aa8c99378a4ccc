/**
 * The boundaries ESLint keeps (eslint.config.js): a feature never imports another feature, by alias or by
 * a relative path, and the contract imports neither the SPA nor the server; and every antd icon says whether
 * it is hidden or what it names, in the site and in the console. Real files in throw-away folders (inside
 * src/features/home, contract/ and admin/src/lib), linted with the project's own configuration.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lintProbe } from './lint-probe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const probe = path.join(root, 'src/features/home', `lint-probe-${process.pid}`);
const contractProbe = path.join(root, 'contract', `lint-probe-${process.pid}`);

function write(name: string, text: string, folder = probe): string {
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

/** One rule's findings in a file (the import rule unless told). */
const problems = (file: string, rule = 'no-restricted-imports') => lintProbe(file, new Set([rule]));

beforeAll(() => {
  mkdirSync(probe, { recursive: true });
  mkdirSync(contractProbe, { recursive: true });
});
afterAll(() => {
  rmSync(probe, { recursive: true, force: true });
  rmSync(contractProbe, { recursive: true, force: true });
});

describe('ESLint boundaries', () => {
  it('refuses a feature importing another feature, by alias or relative path', async () => {
    const file = write(
      'cross.ts',
      [
        "import { SearchFrame } from '@/features/search/components/search-frame';",
        "import { LoginDrawer } from '../../auth/components/login-drawer';",
        "import type { SiteConfig } from '#contract/site-config/schema';",
        'export const pieces: unknown[] = [SearchFrame, LoginDrawer];',
        'export type Config = SiteConfig;',
        '',
      ].join('\n'),
    );
    const found = await problems(file);
    const restricted = found.filter((p) => p.rule === 'no-restricted-imports');
    expect(restricted.map((p) => p.message.split("'")[1])).toEqual([
      '@/features/search/components/search-frame',
      '../../auth/components/login-drawer',
    ]);
    expect(restricted[0].message).toContain('A feature does not import another feature');
  }, 60_000);

  it('keeps the contract free of SPA and server imports', async () => {
    const file = write(
      'leak.ts',
      [
        "import { localStore } from '@/lib/storage';",
        "import { ok } from '../../server/src/lib/envelope.ts';",
        "import { API_PATHS } from '#contract/api';",
        'export const pieces: unknown[] = [localStore, ok, API_PATHS];',
        '',
      ].join('\n'),
      contractProbe,
    );
    const restricted = (await problems(file)).filter((p) => p.rule === 'no-restricted-imports');
    expect(restricted.map((p) => p.message.split("'")[1])).toEqual([
      '@/lib/storage',
      '../../server/src/lib/envelope.ts',
    ]);
    expect(restricted[0].message).toContain('The contract imports only the contract');
  }, 60_000);

  it('keeps the browser-only rich-text sanitiser out of the server', async () => {
    const file = path.join(root, 'server/src/lib', `lint-probe-${process.pid}.ts`);
    writeFileSync(file, "export { sanitizeRichText } from '#contract/rich-text';\n");
    try {
      const restricted = (await problems(file)).filter((p) => p.rule === 'no-restricted-imports');
      expect(restricted.map((p) => p.message.split("'")[1])).toEqual(['#contract/rich-text']);
      expect(restricted[0].message).toContain('runs in a browser only');
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);

  it('refuses an antd icon that names itself in English, in the site and in the console', async () => {
    const icons = [
      "import PlusOutlined from '@ant-design/icons/PlusOutlined';",
      "import CloseCircleFilled from '@ant-design/icons/CloseCircleFilled';",
      'export const plain = <PlusOutlined />;',
      'export const inButton = <button type="button">{<CloseCircleFilled className="x" />}Add</button>;',
      'export const hidden = <PlusOutlined aria-hidden />;',
      'export const named = <CloseCircleFilled aria-label={String(1)} />;',
      '',
    ].join('\n');
    const consoleFile = path.join(root, 'admin/src/lib', `lint-probe-${process.pid}.tsx`);
    writeFileSync(consoleFile, icons);
    try {
      for (const file of [write('icons.tsx', icons), consoleFile]) {
        const found = (await problems(file, 'no-restricted-syntax')).filter((p) => p.rule === 'no-restricted-syntax');
        expect(found.map((p) => p.line)).toEqual([3, 4]);
        expect(found[0]!.message).toContain('names itself in English');
      }
    } finally {
      rmSync(consoleFile, { force: true });
    }
  }, 60_000);
});
