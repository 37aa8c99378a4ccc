/**
 * The desktop home page's first screen (issue #29 §5), drawn by the server: vite.config.ts builds this module
 * for Node (dist/.server/home-first-screen.js) and the server (server/src/lib/first-screen.ts) renders the
 * home page of a domain's published configuration with it into the document it answers for `/`. It renders
 * the app's own layout and home page (the same components, rules and texts as the app's first render), so
 * the page the app draws when its module arrives is the page already on the screen: React replaces it
 * without a visible change (src/app/boot/first-screen-loader.ts starts the module after the first paint).
 *
 * Links are written as the hash router writes them (#/…), so they work before the app's code has arrived;
 * the buttons work once it has (the loader replays a click made before). The page carries no test ids.
 */
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, createPath, RouterProvider } from 'react-router-dom';
import i18n from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { SiteConfig } from '#contract/site-config/schema';
import { parseSiteConfigTolerant } from '#contract/site-config/schema';
import { Layout } from '@/components/layouts/layout';
import HomePage from '@/features/home/components/home-page';
import { defaultNS } from '@/app/i18n';
import { HOME_ROUTE } from '@/app/routes/main-routes';
import { siteMenu, siteRoutes } from '@/app/router';
import { useAppStore, type Language } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';

/** The shell's texts and the home page's (the bundles the home route loads, app/routes/page-registry.ts). */
const texts = import.meta.glob<Record<string, unknown>>(['../../locales/*/common.json', '../../locales/*/home.json'], {
  import: 'default',
  eager: true,
});
const bundle = (language: Language) => ({
  ...texts[`../../locales/${language}/common.json`],
  home: texts[`../../locales/${language}/home.json`],
});

const ready = i18n.use(initReactI18next).init({
  resources: { zh: { [defaultNS]: bundle('zh') }, en: { [defaultNS]: bundle('en') } },
  lng: 'zh',
  fallbackLng: 'zh',
  defaultNS,
  ns: [defaultNS],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
useSiteStore.getInitialState = useSiteStore.getState;
useAppStore.getInitialState = useAppStore.getState;
const translators = { zh: i18n.cloneInstance({ lng: 'zh' }), en: i18n.cloneInstance({ lng: 'en' }) };

export interface HomeFirstScreenInput {
  /** The published site configuration document (parsed here by the app's own tolerant parser). */
  document: unknown;
  race: RaceInfo | null;
  language: Language;
  /** The clock (ms): the countdown and the sign-up window's state. */
  now: number;
}

/** The markup of #root for the home route, or undefined when the document is unusable (the app shows why). */
export function renderHomeFirstScreen({ document, race, language, now }: HomeFirstScreenInput): string | undefined {
  void ready;
  const parsed = parseSiteConfigTolerant(document);
  if (!parsed.ok) return undefined;
  const config: SiteConfig = parsed.config;
  // The stores are this module's own (it renders one page at a time, synchronously); a hook reads a store's
  // initial state while rendering on the server (useSyncExternalStore's server snapshot): the state set here.
  useSiteStore.setState({ mode: 'bound', previewReason: null, config, race, problems: parsed.problems });
  useAppStore.setState({ language, token: null });
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <Layout menu={siteMenu(siteRoutes(config))} />,
        handle: { name: 'layout' },
        children: [{ path: HOME_ROUTE.path.replace(/^\/+/, ''), element: <HomePage />, handle: HOME_ROUTE.handle }],
      },
    ],
    { initialEntries: [HOME_ROUTE.path] },
  );
  // The hash router's links (createHashRouter): '#/news', not '/news'.
  router.createHref = (location) => `#${createPath(location)}`;
  const realNow = Date.now;
  Date.now = () => now;
  try {
    const markup = renderToString(
      <I18nextProvider i18n={translators[language]}>
        <RouterProvider router={router} />
      </I18nextProvider>,
    );
    // Without the test ids: a browser test waiting for a part by its test id waits for the app's own page,
    // the one that answers (React escapes every attribute value, so no text can look like one).
    return markup.replace(/ data-testid="[^"]*"/g, '');
  } finally {
    Date.now = realNow;
    router.dispose();
  }
}
