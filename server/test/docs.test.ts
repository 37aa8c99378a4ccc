/**
 * The README and docs/*.md name only what exists: every `npm run site -- <command>` is a command of the
 * organiser CLI (with options its usage lists), every `npm run <script>` is in package.json, every
 * environment variable (or other upper-case name) is read or declared by the code, every field a table of
 * the site-configuration guide lists is a key of the site-configuration or race schema, every repository
 * path exists, and every relative link resolves to a file (and its #anchor to a heading there).
 * The last test feeds the checker a made-up document and shows it names each invented thing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { commandUsage, isSiteCommand } from '../src/cli/site.ts';
import { raceInfoSchema } from '../src/db/race-schema.ts';
import { serverEnvSchema } from '../src/lib/env.ts';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
/** The first group of every match of `pattern` (global) in `text`. */
const groups = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!);

/** Every file of the repository's own folders (not node_modules, builds or data), as repo-relative paths. */
function repoFiles(): string[] {
  const skip = new Set(['node_modules', 'dist', 'data', 'test-results', '.git', 'coverage']);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        files.push(`${rel}/`);
        walk(rel);
      } else files.push(rel);
    }
  };
  walk('');
  return files;
}

const FILES = repoFiles();
const CODE = FILES.filter(
  (f) => /^(src|server|contract|scripts|tests)\/.*\.(ts|tsx|mts|mjs)$/.test(f) || /^vite/.test(f),
);
const codeText = CODE.map((f) => read(f)).join('\n');

/** Environment variables: the server's schema, the SPA's env files, and what scripts and tests read. */
const ENV_NAMES = new Set<string>([
  ...Object.keys(serverEnvSchema.shape),
  ...groups(read('.env.prod'), /^([A-Z][A-Z0-9_]*)=/gm),
  ...groups(codeText, /\benv(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g),
]);
/** Upper-case names the code declares (constants like PAYMENT_PROVIDERS), which docs may name too. */
const DECLARED = new Set(groups(codeText, /\b(?:const|let|function|class|enum|type|interface)\s+([A-Z][A-Z0-9_]*)\b/g));

/** Every property name of the site-configuration JSON Schema and of the race information (race.json). */
function schemaKeys(): Set<string> {
  const keys = new Set<string>();
  const stack: unknown[] = [
    JSON.parse(read('docs/site-config.schema.json')),
    z.toJSONSchema(raceInfoSchema, { unrepresentable: 'any', io: 'input' }),
  ];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const properties = (node as { properties?: Record<string, unknown> }).properties;
    for (const key of Object.keys(properties ?? {})) keys.add(key);
    stack.push(...Object.values(node));
  }
  return keys;
}
const SCHEMA_KEYS = schemaKeys();
const SCRIPTS = new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: object }).scripts));

/** GitHub's anchor of a heading: lower case, punctuation dropped (not - or _), spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (text: string) => new Set(groups(withoutFences(text), /^#{1,6}\s+(.*)$/gm).map(slug));

function withoutFences(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, '');
}

/** The cells of a markdown table row. */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** What is wrong with one document (`file` is its repo-relative path, for its links): one line per problem. */
export function docProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  const prose = withoutFences(text);

  // Organiser CLI commands and their options, in prose and in code blocks.
  for (const m of text.matchAll(/npm run site -- ([a-z][a-z0-9-]*)([^\n`]*)/g)) {
    const [, command, rest] = m as unknown as [string, string, string];
    if (command === 'help') continue;
    const usage = commandUsage(command).join('\n');
    if (!isSiteCommand(command) || usage === '') {
      problems.push(`npm run site -- ${command}: no such CLI command`);
      continue;
    }
    const args = rest.split(/\s#\s/)[0]!;
    for (const option of args.matchAll(/(?<=\s|\[)--[a-z][a-z-]*/g)) {
      if (!new RegExp(`${option[0]}\\b`).test(usage))
        problems.push(`npm run site -- ${command}: no option ${option[0]}`);
    }
  }
  for (const m of prose.matchAll(/`site ([a-z][a-z0-9-]*)/g)) {
    if (!isSiteCommand(m[1]!) && m[1] !== 'help') problems.push(`site ${m[1]}: no such CLI command`);
  }

  // npm scripts.
  for (const m of text.matchAll(/\bnpm run ([a-z][\w:-]*)/g)) {
    if (!SCRIPTS.has(m[1]!)) problems.push(`npm run ${m[1]}: no such script in package.json`);
  }
  for (const m of text.matchAll(/\bnpm (start|test)\b/g)) {
    if (!SCRIPTS.has(m[1]!)) problems.push(`npm ${m[1]}: no such script in package.json`);
  }

  // Upper-case names in code spans: an environment variable, or a name the code declares.
  for (const m of prose.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z][A-Z0-9_]*(?==))[^`]*`/g)) {
    const name = m[1]!.replace(/_$/, '');
    if (name === 'VITE') continue; // "the VITE_ keys"
    if (!ENV_NAMES.has(name) && !DECLARED.has(name)) problems.push(`${name}: no such environment variable`);
  }
  // The first column of a table of variables ("env", "key" or "variable") holds variable names only.
  let variableTable = false;
  for (const line of prose.split('\n')) {
    if (!line.startsWith('|')) {
      variableTable = false;
      continue;
    }
    const first = cells(line)[0] ?? '';
    if (/^(env|key|variable)$/i.test(first)) variableTable = true;
    else if (variableTable) {
      for (const name of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) {
        if (!ENV_NAMES.has(name[1]!)) problems.push(`${name[1]}: no such environment variable`);
      }
    }
  }

  // Fields listed by a table headed "Field": keys of the site configuration or of race.json.
  let fieldTable = false;
  for (const line of prose.split('\n')) {
    if (!line.startsWith('|')) {
      fieldTable = false;
      continue;
    }
    const first = cells(line)[0] ?? '';
    if (/^field$/i.test(first)) fieldTable = true;
    else if (fieldTable && !/^-+$/.test(first)) {
      for (const key of first.matchAll(/`([^`]+)`/g)) {
        if (!SCHEMA_KEYS.has(key[1]!)) problems.push(`${key[1]}: not a key of the site configuration or race.json`);
      }
    }
  }

  // Repository paths in code spans: whole paths from the root, or the tail of one (`lib/env.ts`).
  for (const m of prose.matchAll(/`([\w.#-]+(?:\/[\w.-]+)*\/?)`/g)) {
    const token = m[1]!;
    const rooted = /^(src|server|contract|scripts|tests|docs|public|\.ci)\//.test(token);
    const sourceFile = /\.(ts|tsx|mts|mjs)$/.test(token);
    if (rooted) {
      if (!existsSync(path.join(root, token))) problems.push(`${token}: no such file or folder`);
    } else if (sourceFile && !token.startsWith('#')) {
      const tail = token.includes('/') ? `/${token}` : `/${token}`;
      if (!FILES.some((f) => `/${f}`.endsWith(tail))) problems.push(`${token}: no such file`);
    }
  }

  // A tree of folders in a code block ("src/" at the margin, "  main.tsx" under it; descriptions further right).
  for (const block of groups(text, /^```\n((?:[\w.-]+\/ *\n|[\w.-]+\/ {2,}\S)[\s\S]*?)^```/gm)) {
    let parent = '';
    for (const line of block.split('\n')) {
      const m = /^( *)(\S+)/.exec(line);
      if (!m || m[1]!.length >= 8) continue;
      const name = m[2]!;
      const entry = m[1]!.length === 0 ? name : `${parent}${name}`;
      if (m[1]!.length === 0) parent = name;
      if (/[<|*…]/.test(name)) continue;
      if (!existsSync(path.join(root, entry))) problems.push(`${entry}: no such file or folder (in a tree)`);
    }
  }

  // Relative links and images, and their anchors.
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const [where = '', anchor] = target.split('#');
    const resolved = where === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), where));
    const absolute = path.join(root, resolved);
    if (!existsSync(absolute) || (where !== '' && statSync(absolute).isDirectory() && !where.endsWith('/'))) {
      problems.push(`(${target}): no such file`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md')) {
      const targetText = resolved === file ? text : readFileSync(absolute, 'utf8');
      if (!anchorsOf(targetText).has(anchor)) problems.push(`(${target}): no heading #${anchor}`);
    }
  }
  return problems;
}

const DOCS = ['README.md', ...FILES.filter((f) => /^docs\/[^/]+\.md$/.test(f))];

describe('the README and docs/ name only what exists', () => {
  it('finds the documents', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/race-director-guide.md', 'docs/configuration.md']));
  });

  it.each(DOCS)('%s', (doc) => {
    expect(docProblems(doc, read(doc))).toEqual([]);
  });

  it('documents every variable of the server and every VITE_ key in docs/configuration.md', () => {
    const configuration = read('docs/configuration.md');
    const keys = [...Object.keys(serverEnvSchema.shape), ...groups(read('.env.prod'), /^([A-Z][A-Z0-9_]*)=/gm)];
    expect(keys.filter((key) => !configuration.includes(`\`${key}\``))).toEqual([]);
  });

  it('keeps the README short: under 8 KB, the two commands first, a screenshot under 200 KB', () => {
    const readme = read('README.md');
    expect(Buffer.byteLength(readme)).toBeLessThan(8 * 1024);
    const firstBlock = /```bash\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(firstBlock).toMatch(/npm start/);
    expect(firstBlock).toMatch(/^npm test\b/m);
    expect(readme.indexOf(firstBlock)).toBeLessThan(600);
    expect(readme).toContain('](docs/images/home.png)');
    expect(statSync(path.join(root, 'docs/images/home.png')).size).toBeLessThan(200 * 1024);
  });

  it('points nowhere outside the repository', () => {
    for (const file of [...DOCS, ...CODE]) {
      expect(read(file), file).not.toMatch(/\.\.\/shared\/|\bSTYLE\.md\b|field-notes\.md/);
    }
  });

  it('names a made-up command, option, script, variable, key, path, link and folder of a tree', () => {
    const made = [
      'npm run site -- frobnicate-race qc-marathon-2027',
      'npm run site -- entry-open qc-marathon-2027 --force',
      'npm run deploy',
      'Set `RACE_SITE_TURBO=1`.',
      '| Field | Type |\n| --- | --- |\n| `websiteTitle` | text |\n| `websiteSubtitle` | text |',
      'See `server/src/lib/nowhere.ts` and `lib/also-nowhere.ts`.',
      'Read [the guide](missing-guide.md) and [its part](race-director-guide.md#no-such-part).',
      '```\nserver/\n  src/app.ts          builds the app\n  src/nowhere/        what is not there\n```',
    ].join('\n\n');
    expect(docProblems('docs/made-up.md', made)).toEqual([
      'npm run site -- frobnicate-race: no such CLI command',
      'npm run site -- entry-open: no option --force',
      'npm run deploy: no such script in package.json',
      'RACE_SITE_TURBO: no such environment variable',
      'websiteSubtitle: not a key of the site configuration or race.json',
      'server/src/lib/nowhere.ts: no such file or folder',
      'lib/also-nowhere.ts: no such file',
      'server/src/nowhere/: no such file or folder (in a tree)',
      '(missing-guide.md): no such file',
      '(race-director-guide.md#no-such-part): no heading #no-such-part',
    ]);
  });
});
