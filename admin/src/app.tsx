/**
 * The console: antd in the staff member's language, the sign-in and first-sign-in steps until a session is
 * ready, then the layout with every area the role may use (areas.ts; each pages/<area>/meta.ts).
 */
import { App as AntdApp, ConfigProvider, Result, Spin, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { lazy, Suspense, useEffect, useMemo, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter, Link, Route, Routes } from 'react-router-dom';
import type { ConsoleMe } from '#contract/staff';
import { api } from './api/client';
import { areaAllowed, type ConsoleArea } from './areas';
import { i18n } from './i18n';
import { ConsoleHome } from './shell/home';
import { ConsoleLayout } from './shell/layout';
import { SetupPage } from './shell/setup-page';
import { SignInPage } from './shell/sign-in-page';
import { useConsole } from './store';

const found = import.meta.glob<{ area: ConsoleArea }>('./pages/*/meta.ts', { eager: true });

/** Every area, in menu order. */
export const AREAS: ConsoleArea[] = Object.values(found)
  .map((module) => module.area)
  .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));

interface PageRoute {
  key: string;
  path: string;
  Page: LazyExoticComponent<ComponentType>;
  area: ConsoleArea;
}

const base = (area: ConsoleArea) => (area.raceScoped ? `/races/:raceId/` : '/');

/** The routes of every area, each page loaded when first opened. */
const PAGE_ROUTES: PageRoute[] = AREAS.flatMap((area) => [
  { key: area.key, path: `${base(area)}${area.path}`, Page: lazy(area.load), area },
  ...(area.routes ?? []).map((route, i) => ({
    key: `${area.key}-${i}`,
    path: `${base(area)}${route.path}`,
    Page: lazy(route.load),
    area,
  })),
]);

/** A member whose system asks for less motion gets none: antd's opening and closing animations are off. */
const REDUCED_MOTION = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

const THEME: ThemeConfig = {
  // Help texts darker than antd's (0.45 black reads at 4.4:1 on white; WCAG AA needs 4.5:1).
  token: {
    motion: !REDUCED_MOTION,
    colorPrimary: '#0b3d6b',
    colorLink: '#0b5fa5',
    colorError: '#c13a22',
    // Under the pointer, danger and link texts get darker, not lighter (antd's lighter hover reads under 4.5:1).
    colorErrorHover: '#9c2a16',
    colorErrorActive: '#86230f',
    colorLinkHover: '#084a82',
    colorTextDescription: '#4a5868',
    // Placeholders too (0.25 black): a filter's "any …" placeholder is read as its value.
    colorTextPlaceholder: '#6b7685',
    borderRadius: 6,
  },
  components: { Layout: { siderBg: '#0b2540', headerBg: '#ffffff' }, Menu: { darkItemBg: '#0b2540' } },
};

export function ConsoleApp() {
  const language = useConsole((s) => s.language);
  useEffect(() => {
    document.documentElement.lang = language === 'en' ? 'en' : 'zh-CN';
    dayjs.locale(language === 'en' ? 'en' : 'zh-cn');
    void i18n.changeLanguage(language);
    document.title = i18n.t('shell.title');
  }, [language]);
  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={THEME}>
      <AntdApp>
        <HashRouter>
          <Session />
        </HashRouter>
      </AntdApp>
    </ConfigProvider>
  );
}

function Session() {
  const { t } = useTranslation();
  const { me, checked, setMe } = useConsole();
  useEffect(() => {
    api.get<ConsoleMe>('/me').then(setMe, () => setMe(null));
  }, [setMe]);
  if (!checked) return <Spin fullscreen tip={t('shell.loading')} />;
  if (!me) return <SignInPage />;
  if (me.pending.length > 0) return <SetupPage me={me} />;
  return <SignedIn me={me} />;
}

function SignedIn({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const allowed = useMemo(() => AREAS.filter((area) => areaAllowed(area, me.permissions)), [me.permissions]);
  const routes = PAGE_ROUTES.filter((route) => allowed.includes(route.area));
  return (
    <ConsoleLayout areas={allowed}>
      <Suspense fallback={<Spin className="console-page-loading" tip={t('shell.loading')} />}>
        <Routes>
          <Route path="/" element={<ConsoleHome areas={allowed} />} />
          {routes.map(({ key, path, Page }) => (
            <Route key={key} path={path} element={<Page />} />
          ))}
          <Route
            path="*"
            element={
              <Result status="404" title={t('shell.notFound')} extra={<Link to="/">{t('shell.backHome')}</Link>} />
            }
          />
        </Routes>
      </Suspense>
    </ConsoleLayout>
  );
}
