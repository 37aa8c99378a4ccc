import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATHS } from '../../src/config/paths.ts';
import { raceInfoSchema, validateRaceInfo } from '../src/db/race-schema.ts';
import { inspectSiteConfigBytes } from '../src/db/site-config-publisher.ts';
import { DEFAULT_SEED_DIR } from '../src/lib/paths.ts';
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

  it("points the small example at images that exist, and ends each organiser's role with its separator", () => {
    const example = jsonBlocks.find((block) => block.includes('"websiteTitle"') && !block.includes('"..."'))!;
    const doc = JSON.parse(example) as Record<string, unknown> & {
      eventInfo: { organizers: { role: string; roleEn?: string }[] };
    };
    // Every relative image path of the document (read from the file host, /files/): a file of the demo seed.
    const images: string[] = [];
    const walk = (node: unknown): void => {
      if (typeof node === 'string') {
        if (/\.(svg|png|jpe?g|gif|webp)$/i.test(node) && !/^(https?:)?\/\//.test(node)) images.push(node);
      } else if (node !== null && typeof node === 'object') {
        for (const value of Object.values(node)) walk(value);
      }
    };
    walk(doc);
    expect(images.length).toBeGreaterThan(2);
    for (const image of images) expect(existsSync(path.join(DEFAULT_SEED_DIR, 'files', image)), image).toBe(true);
    // The footer shows the role right before the names: "主办单位：青川市人民政府", "Hosted by Qingchuan …".
    for (const organizer of doc.eventInfo.organizers) {
      expect(organizer.role).toMatch(/[：:]$/);
      expect(organizer.roleEn ?? ' ').toMatch(/[\s:]$/);
    }
  });

  it('gives a race example that add-race accepts', () => {
    const example = jsonBlocks.find((block) => block.includes('"raceId"'));
    expect(example).toBeDefined();
    expect(validateRaceInfo(JSON.parse(example!))).toMatchObject({ ok: true });
  });
});

describe('docs/ballot.md', () => {
  const ballotGuide = readFileSync(path.join(repo, 'docs/ballot.md'), 'utf8');

  it("names the public ballot page's address, and the link a site configuration uses for it", () => {
    expect(ballotGuide).toContain(`https://<your domain>/#${PATHS.ballot}`);
    const config = JSON.parse(
      jsonBlocks.find((block) => block.includes('"websiteTitle"') && !block.includes('"..."'))!,
    );
    config.searchConfigList.push({
      id: 9,
      moduleType: 4,
      title: '抽签公示',
      titleEn: 'Ballot',
      jumpType: 2,
      jumpUrl: PATHS.ballot,
      openStatus: 1,
    });
    expect(ballotGuide).toMatch(new RegExp(`\`jumpUrl\`\\s+\`${PATHS.ballot}\``));
    expect(inspectSiteConfigBytes(Buffer.from(JSON.stringify(config)))).toEqual({ errors: [], warnings: [] });
  });
});
