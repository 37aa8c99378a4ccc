import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { raceInfoSchema, validateRaceInfo } from '../src/db/race-schema.ts';
import { inspectSiteConfigBytes } from '../src/db/site-config-publisher.ts';
import { FIXTURES } from './helpers.ts';

const repo = path.resolve(FIXTURES, '../../..');
const guide = readFileSync(path.join(repo, 'docs/site-config.md'), 'utf8');
const jsonBlocks = [...guide.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);

/** Every property name anywhere in the generated JSON Schema. */
function schemaKeys(): Set<string> {
  const keys = new Set<string>();
  const stack: unknown[] = [JSON.parse(readFileSync(path.join(repo, 'docs/site-config.schema.json'), 'utf8'))];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    const properties = (node as { properties?: Record<string, unknown> }).properties;
    for (const key of Object.keys(properties ?? {})) keys.add(key);
    stack.push(...Object.values(node));
  }
  return keys;
}

describe('docs/site-config.md, the organisers’ guide', () => {
  it('documents every field of the site configuration and of the race information', () => {
    const missing = [...schemaKeys(), ...Object.keys(raceInfoSchema.shape)].filter(
      (key) => !guide.includes(`\`${key}\``),
    );
    expect(missing).toEqual([]);
  });

  it('gives a site-configuration example that validates without errors or warnings', () => {
    const example = jsonBlocks.find((block) => block.includes('"websiteTitle"') && !block.includes('"..."'));
    expect(example).toBeDefined();
    expect(inspectSiteConfigBytes(Buffer.from(example!))).toEqual({ errors: [], warnings: [] });
  });

  it('gives a race example that add-race accepts', () => {
    const example = jsonBlocks.find((block) => block.includes('"raceId"'));
    expect(example).toBeDefined();
    expect(validateRaceInfo(JSON.parse(example!))).toMatchObject({ ok: true });
  });
});
