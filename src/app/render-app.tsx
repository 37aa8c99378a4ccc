/**
 * The first render (main.tsx loads this chunk while the start-up pipeline runs). React DOM, the router and
 * the layout live here, not in the entry chunk: the browser evaluates them in a task of their own, so a slow
 * phone never meets one long task of every module at once (Lighthouse's Total Blocking Time, #16).
 */
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import type { SiteConfig } from '#contract/site-config/schema';
import type { SiteMode } from '@/stores/site-store';
import { AppProvider } from '@/app/provider';
import { createAppRouter } from '@/app/router';

export function renderApp(config: SiteConfig, mode: SiteMode): void {
  const router = createAppRouter(config, mode);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // A transition: React renders the first page in short slices, so a slow phone stays responsive meanwhile.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <AppProvider>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    );
  });
}
