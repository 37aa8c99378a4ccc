/**
 * npm run bench: speed and size figures of the demo event's home route.
 * - JS loaded by the home route: every script the page fetched in real Chromium, gzip -9 sizes.
 * Later issues add Lighthouse and load figures here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildIsStale, buildSpa } from './lib.mjs';
import { launchBrowser } from '../tests/e2e/browser-launch';
import { repoRoot, startServer } from '../tests/e2e/server-process';

if (buildIsStale()) await buildSpa();
const server = await startServer();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const scripts = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
  });
  await page.goto(`http://localhost:${server.port}/#/home`);
  await page.getByTestId('home-page').waitFor();
  await page.waitForLoadState('networkidle');
  let raw = 0;
  let gz = 0;
  const rows: string[] = [];
  for (const file of [...scripts].sort()) {
    const bytes = readFileSync(path.join(repoRoot, 'dist', file));
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += zipped;
    rows.push(`  ${file}  ${(bytes.length / 1024).toFixed(1)} KB raw, ${(zipped / 1024).toFixed(1)} KB gzip`);
  }
  console.log(`Home route JS: ${scripts.size} files`);
  console.log(rows.join('\n'));
  console.log(`home-js-gzip-kb: ${(gz / 1024).toFixed(1)} (raw ${(raw / 1024).toFixed(1)} KB)`);
} finally {
  await browser.close();
  await server.stop();
}
