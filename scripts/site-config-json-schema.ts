/**
 * Generates docs/site-config.schema.json from the site-config schema the SPA, the server and the CLI
 * use (contract/site-config/schema.ts), so an editor can check a site configuration while
 * it is typed. A test (server/test/site-config-json-schema.test.ts) fails when the committed file differs
 * from what this generates: after changing the schema, run
 *
 *   node --import tsx scripts/site-config-json-schema.ts
 *
 * The JSON Schema covers types, required fields, allowed values and list and text lengths. What it cannot
 * express (unsafe links, race-time format, page components, dataPaths, depth) `site validate` checks.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import * as z from 'zod/mini';
import { DOCUMENT_LIMITS } from '#contract/site-config/document-limits';
import { siteConfigSchema, VALUE_MEANINGS } from '#contract/site-config/schema';

export const SITE_CONFIG_JSON_SCHEMA_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../docs/site-config.schema.json',
);

export function buildSiteConfigJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(siteConfigSchema, {
    target: 'draft-2020-12',
    io: 'input',
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'array') jsonSchema.maxItems = DOCUMENT_LIMITS.maxListLength;
    },
  }) as Record<string, unknown>;
  describeEnumerations(generated);
  // The route item is the one recursive part (children); give its definition a readable name.
  const text = JSON.stringify(generated).replaceAll('__schema0', 'routeItem');
  const { $schema, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return {
    $schema,
    $id: 'https://race-site.invalid/docs/site-config.schema.json',
    title: 'Site configuration of a race website',
    description:
      'Generated from contract/site-config/schema.ts; every field is described in docs/site-config.md. Run `npm run site -- validate <file.json>` for the checks a JSON Schema cannot express: unsafe links, race times, page components, dataPaths, nesting depth and document size.',
    ...rest,
  };
}

/** Adds what the allowed values mean (moduleType, jumpType, openStatus) wherever such a field appears. */
function describeEnumerations(node: unknown): void {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    const properties = (current as { properties?: Record<string, Record<string, unknown>> }).properties;
    for (const [key, meaning] of Object.entries(VALUE_MEANINGS)) {
      if (properties?.[key]) properties[key].description = meaning;
    }
    stack.push(...Object.values(current));
  }
}

/** The file's text, formatted as Prettier formats the repository. */
export async function siteConfigJsonSchemaText(): Promise<string> {
  const options = (await prettier.resolveConfig(SITE_CONFIG_JSON_SCHEMA_FILE)) ?? {};
  return prettier.format(JSON.stringify(buildSiteConfigJsonSchema()), { ...options, parser: 'json' });
}

const invokedDirectly =
  process.argv[1] !== undefined && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) {
  writeFileSync(SITE_CONFIG_JSON_SCHEMA_FILE, await siteConfigJsonSchemaText());
  console.log(`wrote ${path.relative(process.cwd(), SITE_CONFIG_JSON_SCHEMA_FILE)}`);
}
