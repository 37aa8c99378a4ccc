import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

describe('the demo seed', () => {
  it('passes the seed check: schema, images, routes, partners, translations', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/seed/check-seed.ts'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.stderr + result.stdout).toContain('seed check passed');
    expect(result.status).toBe(0);
  });
});
