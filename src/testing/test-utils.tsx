import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { createAppRoutes } from '@/app/router';
import { initI18n } from '@/app/i18n';
import { applyLanguage } from '@/lib/language';
import { useAppStore, type Language } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import type { SiteConfig } from '#contract/site-config/schema';
import type { RaceInfo } from '#contract/site-config/race-types';
import { testConfig, testRace } from './fixtures/site';

export interface RenderAppOptions {
  config?: SiteConfig;
  mode?: 'bound' | 'preview';
  path?: string;
  language?: Language;
  token?: string | null;
  /** The race information of a bound site (default testRace; null: the race lookup gave nothing). */
  race?: RaceInfo | null;
}

/** Renders the whole app (providers, router, layout) at a path, with the stores set as boot would. */
export async function renderApp({
  config = testConfig(),
  mode = 'bound',
  path = '/home',
  language = 'zh',
  token = null,
  race = testRace,
}: RenderAppOptions = {}) {
  await initI18n(language);
  await applyLanguage(language);
  useAppStore.setState({ token, loginDrawerOpen: false, domainName: 'localhost', raceId: testRace.raceId });
  useSiteStore.setState({ mode, config, race: mode === 'bound' ? race : null, problems: [] });
  const router = createMemoryRouter(createAppRoutes(config, mode), { initialEntries: [path] });
  const utils = render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...utils, router };
}
