/**
 * Fuzz test of the site-config checks: a few thousand documents mutated from the demo and fixture
 * configurations (deep nesting, huge lists, wrong types, odd strings, broken JSON text), fed to what
 * `site validate` / `publish` run and to the SPA's tolerant parser. Nothing may throw, and a document
 * that validate accepts must load whole in the SPA. Deterministic: a seeded PRNG, same documents every run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_COMPONENTS } from '#contract/page-names';
import { checkSiteConfig } from '#contract/site-config/checks';
import { parseSiteConfigTolerant, validateSiteConfig } from '#contract/site-config/schema';
import { inspectSiteConfigBytes } from '../src/db/site-config-publisher.ts';
import { FIXTURES } from './helpers.ts';

const DOCUMENTS = 3000;
const SEED = 20271118;

/** mulberry32: small, fast, good enough to pick mutations. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: readonly T[]): T => list[int(list.length)] };
}
type Rng = ReturnType<typeof prng>;

const repo = path.resolve(FIXTURES, '../../..');
const demo = readFileSync(path.join(repo, 'server/seed/site-configs/localhost.json'), 'utf8');
const small = readFileSync(path.join(FIXTURES, 'valid-site-config.json'), 'utf8');
const invalid = readFileSync(path.join(FIXTURES, 'invalid-site-config.json'), 'utf8');
/** The demo with every list cut to two items and every text to 80 characters: every feature, small. */
function trimmed(text: string): string {
  const doc = JSON.parse(text) as unknown;
  const stack = [doc];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> | unknown[];
    if (Array.isArray(node)) node.splice(2);
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string' && value.length > 80) (node as Record<string, unknown>)[key] = value.slice(0, 80);
      else if (value !== null && typeof value === 'object') stack.push(value as Record<string, unknown>);
    }
  }
  return JSON.stringify(doc);
}
const trimmedDemo = trimmed(demo);
/** The full demo configuration (165 KB) one time in ten: it is the slowest to check. */
const BASES = [demo, small, invalid, ...Array<string>(7).fill(trimmedDemo)];

const ODD_STRINGS = [
  '',
  ' ',
  'javascript:alert(1)',
  ' JAVASCRIPT:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '/\\evil.example',
  '\\\\evil.example',
  '//evil.example',
  'https:/\\evil.example',
  '\u0000',
  '\ud800',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '🏃‍♀️🏅',
  '__proto__',
  'constructor',
  'toString',
  'soon',
  '2027-02-30 10:00:00',
  '2027-04-18 07:30:00',
  'raceInformation.raceRules',
  'nope.nothing',
  '.',
  'DocumentPage',
  'Layout',
  'ParentView',
  'x'.repeat(5000),
  '<img src=x onerror=alert(1)>',
  '%00%2e%2e/',
];
const ODD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'children',
  'meta',
  '0',
  'dataPath',
];

function randomScalar(rng: Rng): unknown {
  switch (rng.int(8)) {
    case 0:
      return rng.pick(ODD_STRINGS);
    case 1:
      return rng.pick([0, 1, 2, 3, 4, 5, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2]);
    case 2:
      return rng.pick([true, false, null]);
    case 3:
      return [];
    case 4:
      return {};
    case 5:
      return rng.pick(ROUTE_COMPONENTS);
    case 6:
      return String.fromCharCode(...Array.from({ length: rng.int(20) }, () => rng.int(0xffff)));
    default:
      return rng.pick(ODD_STRINGS).repeat(rng.int(4) + 1);
  }
}

function nest(value: unknown, depth: number, rng: Rng): unknown {
  let out = value;
  const asMenu = rng.next() < 0.5;
  for (let i = 0; i < depth; i += 1)
    out = asMenu ? { path: `p${i}`, meta: { title: 't' }, children: [out] } : rng.next() < 0.5 ? [out] : { a: out };
  return out;
}

type Container = Record<string, unknown> | unknown[];

/** Every container of the document with its depth (own stack: documents may already be deep). */
function containers(doc: unknown): Container[] {
  const found: Container[] = [];
  const stack: Array<{ value: unknown; depth: number }> = [{ value: doc, depth: 0 }];
  while (stack.length > 0 && found.length < 5000) {
    const { value, depth } = stack.pop()!;
    if (value === null || typeof value !== 'object' || depth > 40) continue;
    found.push(value as Container);
    for (const child of Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
  return found;
}

function setRandom(target: Container, value: unknown, rng: Rng): void {
  if (Array.isArray(target)) {
    if (target.length === 0 || rng.next() < 0.3) target.push(value);
    else target[rng.int(target.length)] = value;
    return;
  }
  const keys = Object.keys(target);
  const key = keys.length === 0 || rng.next() < 0.25 ? rng.pick(ODD_KEYS) : rng.pick(keys);
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function mutate(doc: unknown, rng: Rng): unknown {
  const all = containers(doc);
  if (all.length === 0) return rng.next() < 0.5 ? [doc] : { version: doc, websiteTitle: doc, logo: doc };
  const target = rng.pick(all);
  // The mutations that grow a document to its limits (huge lists, cycles) are slow to check: fewer of them.
  switch (rng.next() < 0.15 ? rng.pick([3, 6]) : rng.pick([0, 0, 1, 2, 4, 5, 7, 8])) {
    case 0: // wrong type or odd value anywhere
      setRandom(target, randomScalar(rng), rng);
      break;
    case 1: // a key or item removed
      if (Array.isArray(target)) target.splice(rng.int(target.length + 1), 1);
      else delete target[rng.pick(Object.keys(target).concat(['none']))];
      break;
    case 2: // deep nesting
      setRandom(target, nest(randomScalar(rng), rng.pick([30, 200, 2000, 20_000]), rng), rng);
      break;
    case 3: {
      // a huge list of copies of one part (a small one: the document itself is the cycle case), or of random values
      const part = rng.pick(all.slice(Math.floor(all.length / 2)));
      const length = rng.pick([60, 1001, 5000]);
      setRandom(
        target,
        Array.from({ length }, (_, i) => (i % 2 === 0 ? part : randomScalar(rng))),
        rng,
      );
      break;
    }
    case 4: // a part moved somewhere else (keys in the wrong place, shared references)
      setRandom(target, rng.pick(all), rng);
      break;
    case 5: // a route with a random component and dataPath
      setRandom(
        target,
        {
          path: rng.pick(ODD_STRINGS),
          component: randomScalar(rng),
          meta: { title: 't', dataPath: randomScalar(rng) },
        },
        rng,
      );
      break;
    case 6: // a cycle
      setRandom(target, target, rng);
      break;
    case 7: // a long text
      setRandom(target, 'é'.repeat(rng.pick([10_000, 1_100_000])), rng);
      break;
    default: // the whole document replaced by a scalar, a list, or a nested one
      return rng.next() < 0.5 ? randomScalar(rng) : nest(doc, rng.int(50), rng);
  }
  return doc;
}

/** Broken JSON text: cut, characters inserted, deep brackets. */
function mutateText(text: string, rng: Rng): string {
  switch (rng.int(4)) {
    case 0:
      return text.slice(0, rng.int(text.length));
    case 1: {
      const at = rng.int(text.length);
      return text.slice(0, at) + rng.pick(['{', '[', ']', '}', '"', ',', ':', '\\', '\u0000', 'NaN']) + text.slice(at);
    }
    case 2:
      return '['.repeat(rng.pick([10, 5000, 200_000])) + rng.pick(['', '1', ']']);
    default:
      return `\ufeff${text.replace(/"logo"/g, '"logo\\u0000"')}`;
  }
}

describe('site-config checks under fuzzing', () => {
  it(`never throw on ${DOCUMENTS} mutated documents, and whatever validate accepts the SPA loads whole`, () => {
    const rng = prng(SEED);
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const crashes: string[] = [];
    let accepted = 0;
    let textual = 0;
    for (let n = 0; n < DOCUMENTS; n += 1) {
      const base = rng.pick(BASES);
      try {
        if (n % 10 === 9) {
          textual += 1;
          const report = inspectSiteConfigBytes(Buffer.from(mutateText(base, rng)));
          expect(Array.isArray(report.errors) && Array.isArray(report.warnings)).toBe(true);
          continue;
        }
        let doc: unknown = JSON.parse(base);
        for (let m = rng.int(4) + 1; m > 0; m -= 1) doc = mutate(doc, rng);
        const report = checkSiteConfig(doc, { pageComponents: ROUTE_COMPONENTS });
        const parsed = parseSiteConfigTolerant(doc);
        if (n % 8 === 0) {
          const errors = validateSiteConfig(doc);
          if (errors.length > 0) expect(report.errors.length).toBeGreaterThan(0);
        }
        if (report.errors.length === 0) {
          accepted += 1;
          // A document validate accepts loads in the SPA with nothing dropped.
          expect(parsed).toMatchObject({ ok: true, problems: [] });
        }
      } catch (error) {
        crashes.push(`document ${n}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    console.log(
      `fuzz: ${DOCUMENTS} documents (${textual} as broken JSON text), ${accepted} accepted by validate, ${crashes.length} crashes, ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU)`,
    );
    expect(crashes).toEqual([]);
    // About 12 s of CPU; on a machine busy with a second test run, ten times that in wall time: the limit is
    // for a hang, not for a slow machine.
  }, 600_000);
});
