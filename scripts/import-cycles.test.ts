/**
 * No import cycles (issue #11 §5): the runtime import graph of the SPA, the contract, the server, the
 * scripts, the browser tests and the root configs, resolved as the compiler resolves each file
 * (scripts/import-graph.ts). A probe graph in a temporary folder shows that a cycle is found and reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { buildImportGraph, compilerOptions, findCycles, formatCycle, sourceFiles } from './import-graph.ts';

const root = path.resolve(import.meta.dirname, '..');
const probe = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));

afterAll(() => rmSync(probe, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(probe, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe('import cycles', () => {
  it('finds none in src, contract, server, scripts, tests and the root configs', () => {
    const spa = compilerOptions(path.join(root, 'tsconfig.json'));
    const server = compilerOptions(path.join(root, 'server/tsconfig.json'));
    const files = [
      ...['src', 'contract', 'server', 'scripts', 'tests'].flatMap((folder) => sourceFiles(path.join(root, folder))),
      ...['vite.config.ts', 'vitest.config.ts', 'vitest.e2e.config.ts'].map((file) => path.join(root, file)),
    ];
    const serverFolder = path.join(root, 'server') + path.sep;
    const graph = buildImportGraph(root, files, (file) => (file.startsWith(serverFolder) ? server : spa));

    // The graph is really built: the alias, the package import and relative paths all resolve.
    expect(graph.edges.get('src/main.tsx')).toEqual(expect.arrayContaining([expect.stringMatching(/^src\/app\//)]));
    expect(graph.edges.get('server/src/app.ts')).toContain('server/src/lib/settings.ts');
    expect([...graph.edges.values()].flat()).toContain('contract/api.ts');

    const cycles = findCycles(graph).map(formatCycle);
    expect(cycles, `import cycles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('reports a cycle through an alias, a package import and relative paths, and ignores type-only imports', () => {
    write('package.json', JSON.stringify({ type: 'module', imports: { '#shared/*': './shared/*.ts' } }));
    const files = [
      // a -> b -> (alias) c -> (package import) shared/d -> a: one cycle of four.
      write('a.ts', "import { b } from './b';\nexport const a = () => b;\n"),
      write('b.ts', "import { c } from '@/c';\nexport const b = c;\n"),
      write('c.ts', "import { d } from '#shared/d';\nexport const c = d;\n"),
      write('shared/d.ts', "import { a } from '../a.ts';\nexport const d = () => a;\n"),
      // e <-> f, but only through types (erased) and a dynamic import (evaluated later): no cycle.
      write('e.ts', "import type { F } from './f';\nexport type { F };\nexport const e = () => import('./f');\n"),
      write('f.ts', "export type { E } from './e';\nimport { type E as G } from './g';\nexport type F = G;\n"),
      // g -> h -> g through a re-export: a second cycle; g imports itself too.
      write('g.ts', "export { h } from './h';\nimport './g';\nexport type E = string;\n"),
      write('h.ts', "import { g } from './g';\nexport const h = g;\n"),
    ];
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      paths: { '@/*': [`${probe}/*`] },
    };
    const graph = buildImportGraph(probe, files, () => options);

    expect(graph.edges.get('e.ts')).toEqual([]);
    expect(graph.edges.get('f.ts')).toEqual(['g.ts']);
    expect(findCycles(graph).map(formatCycle)).toEqual([
      'a.ts -> b.ts -> c.ts -> shared/d.ts -> a.ts',
      'g.ts -> g.ts',
      'g.ts -> h.ts -> g.ts',
    ]);
  });
});
