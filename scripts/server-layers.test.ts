/**
 * The server's layers as ESLint keeps them (eslint.config.js `serverLayers`; docs/architecture-layers.md):
 * routes → services → repositories (db/) → engine, the CLI like a route, lib/ below them all, plugins wiring
 * them. Real files in throw-away folders inside server/src, linted with the project's own configuration: a
 * wrong import, or a repository called from a route, fails with the rule and the file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { lintProbe, type LintProblem } from './lint-probe';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const probes: string[] = [];

/** A probe file `name` in a new folder of server/src/<layer>/ (so that '../../' reaches server/src). */
function probe(layer: string, text: string): string {
  const folder = path.join(root, 'server/src', layer, `lint-probe-${process.pid}`);
  mkdirSync(folder, { recursive: true });
  probes.push(folder);
  const file = path.join(folder, 'probe.ts');
  writeFileSync(file, text);
  return file;
}

/** Every probe file, written before the first lint. */
const PROBE_FILES = {
  routes: probe(
    'routes',
    [
      "import type { FastifyInstance } from 'fastify';",
      "import type { UserRecord } from '../../db/users-repository.ts';",
      "import { createRacesRepository } from '../../db/races-repository.ts';",
      "import { raceById } from '../../services/races.ts';",
      'export async function probeRoutes(app: FastifyInstance, user: UserRecord) {',
      "  const viaService = await raceById(app.repos, 'demo');",
      "  const direct = await app.repos.races.findById('demo');",
      '  const { users } = app.repos;',
      '  const ping = await app.db.ping();',
      '  return [createRacesRepository, viaService, direct, users, ping, user];',
      '}',
      '',
    ].join('\n'),
  ),
  cli: probe(
    'cli',
    [
      "import type { Repositories } from '../../db/repositories.ts';",
      "import { raceById } from '../../services/races.ts';",
      "import { UPLOAD_QUOTA } from '../../routes/uploads/index.ts';",
      'export async function probeCommand(repos: Repositories) {',
      "  return [await raceById(repos, 'demo'), await repos.races.findById('demo'), UPLOAD_QUOTA];",
      '}',
      '',
    ].join('\n'),
  ),
  services: probe(
    'services',
    [
      "import { magicMatches } from '../../routes/uploads/index.ts';",
      "import { LIMITS } from '../../plugins/rate-limit.ts';",
      "import type { CaptchaProvider } from '../../plugins/captcha.ts';",
      "import { raceById } from '../races.ts';",
      'export const pieces: unknown[] = [magicMatches, LIMITS, raceById];',
      'export type Provider = CaptchaProvider;',
      '',
    ].join('\n'),
  ),
  db: probe(
    'db',
    "import { raceById } from '../../services/races.ts';\nexport const pieces: unknown[] = [raceById];\n",
  ),
  lib: probe(
    'lib',
    [
      "import { LIMITS } from '../../plugins/rate-limit.ts';",
      "import uploadRoutes from '../../routes/uploads/index.ts';",
      "import { fail } from '../envelope.ts';",
      'export const pieces: unknown[] = [LIMITS, uploadRoutes, fail];',
      '',
    ].join('\n'),
  ),
};

/** The rules that keep the layers. */
const LAYER_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);

const problems = (file: string) => lintProbe(file, LAYER_RULES);

const layerProblems = (found: LintProblem[]) => found.filter((p) => p.rule !== null && LAYER_RULES.has(p.rule));

afterAll(() => {
  for (const folder of probes) rmSync(folder, { recursive: true, force: true });
});

describe('server layers', () => {
  it('refuses a route importing a repository or calling one, and lets it hand app.repos to a service', async () => {
    const file = PROBE_FILES.routes;
    const found = layerProblems(await problems(file));
    expect(found.map((p) => [p.rule, p.line])).toEqual([
      ['@typescript-eslint/no-restricted-imports', 3],
      ['no-restricted-syntax', 7],
      ['no-restricted-syntax', 8],
      ['no-restricted-syntax', 9],
    ]);
    expect(found[0].message).toContain("'../../db/races-repository.ts'");
    expect(found[0].message).toContain('Routes do not import repositories (db/)');
    expect(found[1].message).toContain('Routes call services, not repositories');
  }, 120_000);

  it('refuses a CLI command calling a repository or importing a route', async () => {
    const file = PROBE_FILES.cli;
    const found = layerProblems(await problems(file));
    expect(found.map((p) => [p.rule, p.line])).toEqual([
      ['@typescript-eslint/no-restricted-imports', 3],
      ['no-restricted-syntax', 5],
    ]);
    expect(found[1].message).toContain('CLI commands call services, not repositories');
  }, 120_000);

  it('holds every command file of the CLI to the rule: none is excepted (issue 29 §2)', async () => {
    const eslint = new ESLint({ cwd: root });
    const cli = path.join(root, 'server/src/cli');
    const files = readdirSync(cli).filter((name) => name.endsWith('.ts'));
    expect(files).toEqual(expect.arrayContaining(['site.ts', 'entry-commands.ts', 'pickup-commands.ts']));
    for (const name of files) {
      const config = (await eslint.calculateConfigForFile(path.join(cli, name))) as {
        rules?: Record<string, unknown[]>;
      };
      expect(config.rules?.['no-restricted-syntax']?.[0], name).toBe(2);
    }
  }, 120_000);

  it('refuses a service importing a route or a plugin, and the repositories and lib/ importing layers above', async () => {
    const service = PROBE_FILES.services;
    const fromService = layerProblems(await problems(service));
    expect(fromService.map((p) => p.message.split("'")[1])).toEqual([
      '../../routes/uploads/index.ts',
      '../../plugins/rate-limit.ts',
    ]);
    expect(fromService[0].message).toContain('Services do not import routes');

    const repository = PROBE_FILES.db;
    const fromDb = layerProblems(await problems(repository));
    expect(fromDb.map((p) => p.message.split("'")[1])).toEqual(['../../services/races.ts']);
    expect(fromDb[0].message).toContain('Repositories (db/) do not import services');

    const lib = PROBE_FILES.lib;
    const fromLib = layerProblems(await problems(lib));
    expect(fromLib.map((p) => p.message.split("'")[1])).toEqual([
      '../../plugins/rate-limit.ts',
      '../../routes/uploads/index.ts',
    ]);
  }, 120_000);

  it('names only files and folders that exist in docs/architecture-layers.md', () => {
    const text = readFileSync(path.join(root, 'docs/architecture-layers.md'), 'utf8');
    const named = [...text.matchAll(/`([\w.-]+(?:\/[\w.-]+)*(?:\.(?:ts|js)|\/))`/g)].map((m) => m[1]);
    expect(named).toEqual(expect.arrayContaining(['plugins/sessions.ts', 'routes/after-entry/']));
    // A path from the repository, from server/src, or a folder of server/src/services.
    const missing = named.filter(
      (name) => !['', 'server/src', 'server/src/services'].some((base) => existsSync(path.join(root, base, name))),
    );
    expect(missing).toEqual([]);
  });
});
