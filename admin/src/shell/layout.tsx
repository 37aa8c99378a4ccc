/**
 * The console's frame: the side menu of the areas the role may use (collapsed on a narrow screen), and the
 * top bar with the race picker, the language switch, the member and sign-out.
 */
import MenuFoldOutlined from '@ant-design/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/MenuUnfoldOutlined';
import { Button, Layout, Menu, Select } from 'antd';
import { createElement, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useMatch, useNavigate } from 'react-router-dom';
import type { ConsoleRace } from '#contract/staff';
import { api } from '../api/client';
import { areaPath, type ConsoleArea } from '../areas';
import { raceLabel, useConsole } from '../store';
import { LanguageSwitch } from './language-switch';

const LAST_RACE_KEY = 'race-site-console-race';

/** The race in view: the URL's, else the last one chosen, else the first the member may open. */
export function useRaceInView(): string | undefined {
  const match = useMatch('/races/:raceId/*');
  const races = useConsole((s) => s.races);
  const fromUrl = match?.params.raceId;
  if (fromUrl) return fromUrl;
  let last: string | null = null;
  try {
    last = window.localStorage.getItem(LAST_RACE_KEY);
  } catch {
    // site data blocked
  }
  return races.find((r) => r.raceId === last)?.raceId ?? races[0]?.raceId;
}

export function ConsoleLayout({ areas, children }: { areas: ConsoleArea[]; children: React.ReactNode }) {
  const { t } = useTranslation();
  const { me, races, language, setRaces, setMe } = useConsole();
  const [collapsed, setCollapsed] = useState(() => window.innerWidth < 1100);
  const navigate = useNavigate();
  const location = useLocation();
  const raceId = useRaceInView();

  useEffect(() => {
    // A role without figures or check-in is refused the list: it works on no race.
    api.get<ConsoleRace[]>('/races').then(setRaces, () => setRaces([]));
  }, [setRaces]);
  useEffect(() => {
    if (!raceId) return;
    try {
      window.localStorage.setItem(LAST_RACE_KEY, raceId);
    } catch {
      // kept for this visit only
    }
  }, [raceId]);

  const menuAreas = areas.filter((area) => area.menu !== false && (!area.raceScoped || raceId));
  const selected = menuAreas.find((area) => location.pathname.startsWith(areaPath(area, raceId)))?.key;

  const changeRace = (next: string) => {
    const inRace = /^\/races\/[^/]+\/([^/]+)/.exec(location.pathname)?.[1];
    const first = areas.find((a) => a.raceScoped && a.path === inRace) ?? areas.find((a) => a.raceScoped);
    const leave = () => navigate(first ? areaPath(first, next) : '/');
    const guard = useConsole.getState().leaveGuard;
    if (guard) guard(leave);
    else leave();
  };

  const signOut = async () => {
    await api.post('/logout').catch(() => undefined);
    setMe(null);
    navigate('/');
  };

  if (!me) return null;
  return (
    <Layout className="console-layout">
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        onCollapse={setCollapsed}
        trigger={null}
        width={208}
        collapsedWidth={64}
        className="console-sider"
      >
        {/* Named by its text (an aria-label besides the visible mark fails axe's label-content-name-mismatch). */}
        <Link to="/" className="console-brand">
          <span className="console-brand__mark" aria-hidden="true">
            RS
          </span>
          <span className={collapsed ? 'console-visually-hidden' : 'console-brand__name'}>{t('shell.title')}</span>
        </Link>
        <nav aria-label={t('shell.menu.label')}>
          <Menu
            theme="dark"
            mode="inline"
            selectedKeys={selected ? [selected] : []}
            items={menuAreas.map((area) => ({
              key: area.key,
              icon: area.icon ? createElement(area.icon) : undefined,
              label: <Link to={areaPath(area, raceId)}>{t(area.labelKey)}</Link>,
            }))}
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header className="console-header">
          <Button
            type="text"
            onClick={() => setCollapsed(!collapsed)}
            aria-label={t(collapsed ? 'shell.menu.expand' : 'shell.menu.collapse')}
            aria-expanded={!collapsed}
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
          />
          {races.length > 0 ? (
            <Select
              className="console-header__race"
              aria-label={t('shell.topBar.race')}
              value={raceId}
              onChange={changeRace}
              options={races.map((race) => ({ value: race.raceId, label: raceLabel(race, language) }))}
              data-testid="console-race-picker"
              popupMatchSelectWidth={false}
            />
          ) : (
            <span className="console-header__no-race">{t('shell.topBar.noRace')}</span>
          )}
          <span className="console-header__spacer" />
          <LanguageSwitch />
          <Link to="/account" className="console-header__who" data-testid="console-who">
            <span className="console-header__name">{me.staff.name || me.staff.email}</span>
            <span className="console-header__role">{t(`shell.roles.${me.staff.role}`)}</span>
          </Link>
          <Button onClick={() => void signOut()} data-testid="console-sign-out">
            {t('shell.topBar.signOut')}
          </Button>
        </Layout.Header>
        <Layout.Content className="console-content">
          <main id="console-main" data-testid="console-main">
            {children}
          </main>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
