/** Debian's Chromium through playwright-core with the house flags; no browser is ever downloaded. */
import { chromium, type Browser } from 'playwright-core';

// The same choice as scripts/ensure-system.mjs, which checks (or installs) it before npm test runs.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The features Playwright turns off (playwright-core's chromiumSwitches, 1.65): Chromium keeps only the last
 * --disable-features it is given, so ours repeats them. browser-launch.e2e.ts fails when Playwright's list
 * holds one this one lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 gives every new window (each browser context) its address bar's pop-ups as web pages of their own,
 * each in a renderer that starts and runs them: about half a CPU-second per context, nearly half of what a
 * context with a page of ours costs. A test's window has no address bar to pop up.
 */
const OMNIBOX_POPUPS = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUPS].join(',')}`,
    ],
  });
}
