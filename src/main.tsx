/** Boot: awaits the start-up pipeline, then renders (STYLE.md "Data flow"). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { EnvError } from '@/config/env-schema';
import { clearRecoveryFlag } from '@/lib/user-data';
import { useSiteStore } from '@/stores/site-store';
import { AppProvider } from '@/app/provider';
import { createAppRouter } from '@/app/router';
import { runBoot } from '@/app/boot/run-boot';
import { renderFatal } from '@/app/fatal';
import { preloadHeroImage, prefetchHomePage } from '@/features/home/preload';
import '@/styles/global.css';

async function main() {
  // A visit landing on home fetches the home chunk during start-up and its LCP image before the first render.
  prefetchHomePage();
  const result = await runBoot();
  if (result.status !== 'ready') return;
  const { config, mode } = useSiteStore.getState();
  if (!config) throw new Error('The start-up pipeline finished without a configuration');
  if (mode === 'bound') preloadHeroImage(config);
  const router = createAppRouter(config, mode);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
  clearRecoveryFlag();
}

main().catch((error: unknown) => {
  console.error('[race-site] start-up failed:', error);
  renderFatal(error instanceof EnvError ? { kind: 'env', detail: error.message } : { kind: 'boot' });
});
