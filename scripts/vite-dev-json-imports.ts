import type { Plugin } from 'vite';

/**
 * Vite's dev server serves a JSON file as a JavaScript module but keeps a dynamic import's
 * `{ with: { type: 'json' } }` (vitejs/vite#19095), so the browser refuses the module ("Expected a JSON module
 * script"): under `npm run dev` the English region names (contract/region-data.ts) never loaded. The server needs
 * the attribute (it imports the same module in Node) and the production bundle drops it; in the dev server it
 * goes before Vite reads the import.
 */
export function devJsonImports(): Plugin {
  return {
    name: 'race-site-dev-json-imports',
    apply: 'serve',
    enforce: 'pre',
    transform(code) {
      if (!code.includes('import(') || !/type:\s*['"]json['"]/.test(code)) return null;
      return code.replace(
        /(import\(\s*(['"])[^'"]+\.json\2)\s*,\s*\{\s*with:\s*\{\s*type:\s*['"]json['"]\s*\}\s*\}\s*\)/g,
        '$1)',
      );
    },
  };
}
