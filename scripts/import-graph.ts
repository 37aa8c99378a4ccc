/**
 * The runtime import graph of the repository's TypeScript, and the cycles in it (issue #11 §5). ESLint's
 * import-x/no-cycle needs unrs-resolver, whose platform binaries this registry lacks, so the check is built
 * on the TypeScript compiler API instead and run by scripts/import-cycles.test.ts.
 *
 * An edge is a static `import … from` or `export … from` that stays in the emitted JavaScript: `import type`
 * and `export type` are erased, so they never make a runtime cycle and are left out. (Under
 * verbatimModuleSyntax `import { type A } from 'x'` still loads 'x', so it counts.) Dynamic `import()` is
 * left out too: it runs after every module has been evaluated (the lazy pages), so it cannot make one
 * module see another half-initialised. Specifiers resolve as the compiler resolves them for that file:
 * '@/…' through the paths of tsconfig.json, '#contract/…' through package.json "imports", relative paths
 * with or without '.ts'; packages and anything outside `root` are not nodes.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** Every file of the graph, relative to the root with '/' separators, each with the files it imports. */
  edges: Map<string, string[]>;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP_FOLDERS = new Set(['node_modules', 'dist', 'data', 'coverage', 'test-results', '.git']);

/** Every TypeScript file under `folder` (absolute paths), declaration files excepted. */
export function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_FOLDERS.has(entry.name)) out.push(...sourceFiles(full));
    } else if (SOURCE.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out.sort();
}

/** The compiler options of a tsconfig.json, as `tsc -p` reads them (paths, moduleResolution …). */
export function compilerOptions(tsconfigFile: string): ts.CompilerOptions {
  const read = ts.readConfigFile(tsconfigFile, (file) => ts.sys.readFile(file));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(tsconfigFile)).options;
}

/** The module specifiers of a file that load another module when the file is evaluated. */
export function runtimeImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly || !statement.moduleSpecifier) continue;
      if (ts.isStringLiteral(statement.moduleSpecifier)) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

/**
 * The graph of `files` (absolute paths): each file's runtime imports resolved with the compiler options
 * `optionsFor(file)` gives, keeping only targets that are files of the graph.
 */
export function buildImportGraph(
  root: string,
  files: readonly string[],
  optionsFor: (file: string) => ts.CompilerOptions,
): ImportGraph {
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const known = new Set(files.map((file) => path.resolve(file)));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const options = optionsFor(file);
    const text = ts.sys.readFile(file) ?? '';
    const targets = new Set<string>();
    for (const specifier of runtimeImports(file, text)) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (known.has(target)) targets.add(relative(target));
    }
    edges.set(relative(file), [...targets].sort());
  }
  return { edges };
}

/**
 * Every import cycle, as the list of files from a file back to itself ('a.ts', 'b.ts', 'a.ts'). For each
 * strongly connected group of files, the shortest cycle through each of its files, without repeats (the
 * same cycle entered at another file is the same cycle), each starting at its alphabetically first file.
 * Empty when the graph has none.
 */
export function findCycles({ edges }: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  for (const group of stronglyConnected(edges)) {
    const members = new Set(group);
    const isCycle = group.length > 1 || (edges.get(group[0]) ?? []).includes(group[0]);
    if (!isCycle) continue;
    for (const start of [...group].sort()) {
      const cycle = shortestCycle(start, edges, members);
      if (!cycle) continue;
      const ring = rotated(cycle);
      const key = ring.join('\n');
      if (seen.has(key)) continue;
      seen.add(key);
      cycles.push([...ring, ring[0]]);
    }
  }
  return cycles.sort((a, b) => a.join().localeCompare(b.join()));
}

/** 'a.ts -> b.ts -> a.ts' */
export const formatCycle = (cycle: readonly string[]) => cycle.join(' -> ');

/** A cycle's files without the repeated end, rotated to start at its smallest file: one cycle, one form. */
function rotated(cycle: readonly string[]): string[] {
  const ring = cycle.slice(0, -1);
  let first = 0;
  ring.forEach((file, index) => {
    if (file < ring[first]) first = index;
  });
  return [...ring.slice(first), ...ring.slice(0, first)];
}

/** Breadth-first from `start` back to it, inside one group: the shortest cycle through `start`. */
function shortestCycle(start: string, edges: Map<string, string[]>, members: Set<string>): string[] | undefined {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    for (const next of edges.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== start && at !== undefined; at = parent.get(at)) {
          path.push(at);
        }
        // The walk went backwards from `node`; a self-import is [start, start].
        return [start, ...path.slice(1).reverse(), start];
      }
      if (parent.has(next)) continue;
      parent.set(next, node);
      queue.push(next);
    }
  }
  return undefined;
}

/** Tarjan's strongly connected components, iteratively (no deep recursion on long import chains). */
function stronglyConnected(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const root of edges.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}
