/**
 * The site's dev server (vite.config.ts) serves contract/region-data.ts with its dynamic import of the English
 * region names as a plain import() of the JSON module (scripts/vite-dev-json-imports.ts): with the attribute kept,
 * the browser refused the module Vite serves for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';

let server: ViteDevServer;
beforeAll(async () => {
  server = await createServer({
    configFile: 'vite.config.ts',
    mode: 'dev',
    logLevel: 'silent',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
});
afterAll(() => server.close());

describe("the dev server's JSON imports", () => {
  it('serves a dynamic JSON import without its import attribute', async () => {
    const served = await server.transformRequest('/contract/region-data.ts');
    expect(served?.code).toMatch(/import\(\s*["'][^"']*region-names-en\.json[^"']*["']\s*\)/);
    expect(served?.code).not.toMatch(/type:\s*["']json["']/);
  });
});
