import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { existsSync } from 'node:fs';
import { decide, ensureSystem, type MachineFacts, postgresBinDir, SYSTEM_PACKAGES } from './ensure-system.mjs';

const root = path.resolve(import.meta.dirname, '..');
const BOTH = ['chromium', 'fonts-noto-cjk'];
const debianRoot: MachineFacts = {
  missing: BOTH,
  chromiumPath: '/usr/bin/chromium',
  customChromium: false,
  isRoot: true,
  hasApt: true,
  allowInstall: true,
  node: '20.20.0',
};

function expectOneLine(decision: ReturnType<typeof decide>): string {
  expect(decision.action).toBe('stop');
  const line = decision.action === 'stop' ? decision.line : '';
  expect(line).not.toContain('\n');
  return line;
}

describe('what npm test does about a machine that lacks something', () => {
  it('goes ahead when nothing is missing', () => {
    expect(decide({ ...debianRoot, missing: [] })).toEqual({ action: 'ok' });
  });

  it('installs the missing packages with apt-get as root on Debian', () => {
    expect(decide(debianRoot)).toEqual({ action: 'install', packages: BOTH });
    expect(decide({ ...debianRoot, missing: ['fonts-noto-cjk'] })).toEqual({
      action: 'install',
      packages: ['fonts-noto-cjk'],
    });
  });

  it('stops with the apt-get command to run when it is not root', () => {
    const line = expectOneLine(decide({ ...debianRoot, isRoot: false }));
    expect(line).toContain('chromium, fonts-noto-cjk are missing');
    expect(line).toContain('sudo apt-get install -y --no-install-recommends chromium fonts-noto-cjk');
  });

  it('stops and names the packages and CHROMIUM_PATH where there is no apt-get', () => {
    const line = expectOneLine(decide({ ...debianRoot, hasApt: false, missing: ['chromium'] }));
    expect(line).toContain('chromium is missing');
    expect(line).toContain('CHROMIUM_PATH');
  });

  it('does not install when NO_SYSTEM_INSTALL asks it not to', () => {
    const line = expectOneLine(decide({ ...debianRoot, allowInstall: false }));
    expect(line).toContain('apt-get install -y --no-install-recommends chromium fonts-noto-cjk');
  });

  it('stops when CHROMIUM_PATH points at nothing, even as root (apt-get would not put it there)', () => {
    const facts = { ...debianRoot, missing: ['chromium'], chromiumPath: '/nonexistent', customChromium: true };
    const line = expectOneLine(decide(facts));
    expect(line).toContain('no Chromium at /nonexistent (CHROMIUM_PATH)');
    expect(expectOneLine(decide({ ...facts, missing: BOTH }))).toContain('fonts-noto-cjk');
  });

  it("checks for PostgreSQL (the server tests with TEST_DB=postgres) and installs Debian's postgresql", () => {
    const postgresql = SYSTEM_PACKAGES.find((p) => p.name === 'postgresql');
    const binDir = postgresBinDir();
    expect(postgresql?.present({})).toBe(binDir !== null);
    if (binDir) for (const program of ['initdb', 'postgres']) expect(existsSync(path.join(binDir, program))).toBe(true);
    expect(decide({ ...debianRoot, missing: ['postgresql'] })).toEqual({ action: 'install', packages: ['postgresql'] });
    const line = expectOneLine(decide({ ...debianRoot, missing: ['postgresql'], isRoot: false }));
    expect(line).toContain('postgresql is missing');
    expect(line).toContain('sudo apt-get install -y --no-install-recommends postgresql');
  });

  it('stops on a Node older than 20.19', () => {
    expect(expectOneLine(decide({ ...debianRoot, missing: [], node: '20.18.1' }))).toContain('Node 20.19');
    expect(expectOneLine(decide({ ...debianRoot, missing: [], node: '18.20.0' }))).toContain('this is 18.20.0');
    expect(decide({ ...debianRoot, missing: [], node: '22.1.0' })).toEqual({ action: 'ok' });
  });

  it('reports a missing Chromium in one line without installing anything', () => {
    const printed: string[] = [];
    const log = vi.fn();
    expect(ensureSystem({ env: { CHROMIUM_PATH: '/nonexistent' }, log, error: (line) => printed.push(line) })).toBe(
      false,
    );
    expect(log).not.toHaveBeenCalled();
    expect(printed).toHaveLength(1);
  });
});

describe('npm test on a machine without Chromium', () => {
  it('stops before any test with one clear line and a non-zero exit', () => {
    const started = Date.now();
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/test-all.mjs')], {
      cwd: root,
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('no Chromium at /nonexistent')]);
    expect(run.stderr).not.toMatch(/\bat .*\.m?[jt]s:\d+/); // no stack trace
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('lets CI run the same check (.ci/run calls scripts/ensure-system.mjs)', () => {
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/ensure-system.mjs')], {
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
