/** Boot: awaits the start-up pipeline, then renders (docs/architecture.md "The SPA's start-up and data flow"). */
import { EnvError } from '@/config/env-schema';
import { readLanguageCookie } from '@/lib/language';
import { loadTextsFor } from '@/lib/locale-bundles';
import { clearRecoveryFlag } from '@/lib/user-data';
import { useSiteStore } from '@/stores/site-store';
import { runBoot } from '@/app/boot/run-boot';
import { renderFatal } from '@/app/fatal';
import { homeHashFor, isHomeRoute, preloadFirstScreenImages } from '@/features/home/preload';
import { pageRegistry } from '@/app/routes/page-registry';
import '@/styles/global.css';

async function main() {
  // The console's preview of a registration-form draft (issue 33 §3): its own page, whose code (and the
  // address's reading, contract/preview.ts) loads only then.
  if (new URLSearchParams(window.location.search).get('preview') === 'form') {
    const { startFormPreview } = await import('@/app/form-preview');
    if (await startFormPreview(window.location.search)) return;
  }
  // A visit landing on home fetches the home chunk during start-up and its LCP image before the first render;
  // '' and '/' become '/home' now, so the first render is the home page, not a redirect with an empty main.
  const landsOnHome = isHomeRoute();
  const homeHash = homeHashFor();
  if (homeHash)
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${window.location.search}${homeHash}`,
    );
  // The home page's texts come with its chunk: in the visitor's language, known from the cookie already.
  void loadTextsFor(readLanguageCookie());
  // The first render's code (React DOM, router, layout) arrives and is evaluated while the pipeline runs.
  const renderer = import('@/app/render-app');
  renderer.catch(() => undefined); // a failure surfaces where it is awaited, not as an unhandled rejection first
  const homeChunk = landsOnHome ? pageRegistry.Home.preload().catch(() => undefined) : undefined;
  const result = await runBoot();
  if (result.status !== 'ready') return;
  await homeChunk;
  const { config, mode } = useSiteStore.getState();
  if (!config) throw new Error('The start-up pipeline finished without a configuration');
  if (mode === 'bound') preloadFirstScreenImages(config);
  const { renderApp } = await renderer;
  renderApp(config, mode);
  clearRecoveryFlag();
}

main().catch((error: unknown) => {
  console.error('[race-site] start-up failed:', error);
  renderFatal(error instanceof EnvError ? { kind: 'env', detail: error.message } : { kind: 'boot' });
});
