/** Debian's Chromium through playwright-core with the house flags; no browser is ever downloaded. */
import { chromium, type Browser } from 'playwright-core';

// The same choice as scripts/ensure-system.mjs, which checks (or installs) it before npm test runs.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
}
