import { readFileSync } from 'node:fs';
import path from 'node:path';
// ajv comes with Fastify; it stands in here for the JSON Schema support of an organiser's editor.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  buildSiteConfigJsonSchema,
  SITE_CONFIG_JSON_SCHEMA_FILE,
  siteConfigJsonSchemaText,
} from '../../scripts/site-config-json-schema.ts';
import { FIXTURES } from './helpers.ts';

const repo = path.resolve(FIXTURES, '../../..');
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

describe('docs/site-config.schema.json', () => {
  it('is exactly what the site-config schema generates (run scripts/site-config-json-schema.ts after a change)', async () => {
    expect(readJson(SITE_CONFIG_JSON_SCHEMA_FILE)).toEqual(buildSiteConfigJsonSchema());
    expect(readFileSync(SITE_CONFIG_JSON_SCHEMA_FILE, 'utf8')).toBe(await siteConfigJsonSchemaText());
  });

  it('lets an editor accept the demo configuration and flag a wrong moduleType with its allowed values', () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(buildSiteConfigJsonSchema());
    expect(
      validate(readJson(path.join(repo, 'server/seed/site-configs/localhost.json'))),
      JSON.stringify(validate.errors),
    ).toBe(true);
    expect(validate(readJson(path.join(FIXTURES, 'valid-site-config.json')))).toBe(true);

    const doc = readJson(path.join(FIXTURES, 'valid-site-config.json')) as Record<string, unknown>;
    doc.searchConfigList = [{ id: 1, title: '报名', moduleType: 7, jumpType: 1, openStatus: 0 }];
    expect(validate(doc)).toBe(false);
    expect(validate.errors).toContainEqual(
      expect.objectContaining({
        instancePath: '/searchConfigList/0/moduleType',
        keyword: 'enum',
        params: { allowedValues: [1, 2, 3, 4] },
      }),
    );
  });
});
