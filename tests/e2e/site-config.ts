/** Reads the demo event's published site configuration through the real API, as the SPA does. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { DocumentPage, RouteItem, SiteConfig } from '#contract/site-config/schema';
import { allRoutes } from '../../src/lib/content';
import { openDatabase } from '../../server/src/db/database';
import { storeSiteConfig } from '../../server/src/db/site-config-publisher';
import { runSiteCli } from '../../server/src/cli/site';
import { serverDataDir, serverPort } from './test-server';

export async function fetchSiteConfig(domainName = 'localhost'): Promise<SiteConfig> {
  const base = `http://127.0.0.1:${serverPort()}`;
  const lookup = (await (await fetch(`${base}${API_PATHS.siteConfigLookup}?domainName=${domainName}`)).json()) as {
    data: { uri: string };
  };
  return (await (await fetch(`${base}${lookup.data.uri}`)).json()) as SiteConfig;
}

/**
 * Binds a domain (a *.localhost name, which Chromium resolves to this machine) to a race and publishes a
 * site configuration for it, through the organiser CLI on the test server's data folder.
 */
export async function publishForDomain(domainName: string, raceId: string, config: SiteConfig): Promise<void> {
  await bindDomain(domainName, raceId);
  await siteCli('publish', domainName, tempJson(`${domainName}.json`, config));
}

/**
 * Binds a domain and stores a site configuration for it WITHOUT the checks of `site publish`, which would
 * refuse it: how a document published before a check existed, or edited on disk, reaches the SPA. A
 * string is stored as it is (for JSON too deep for JSON.stringify).
 */
export async function storeForDomainWithoutChecks(
  domainName: string,
  raceId: string,
  config: SiteConfig | string,
): Promise<void> {
  await bindDomain(domainName, raceId);
  const repo = path.resolve(import.meta.dirname, '../..');
  const opened = await openDatabase({
    dataDir: serverDataDir(),
    seedDir: path.join(repo, 'server/seed'),
    now: Date.now(),
    env: {},
  });
  try {
    await storeSiteConfig({
      siteConfigs: opened.repos.siteConfigs,
      files: opened.files,
      domainName,
      bytes: Buffer.from(typeof config === 'string' ? config : JSON.stringify(config)),
      now: Date.now(),
    });
  } finally {
    await opened.db.close();
  }
}

/** Binds a domain to a race through the organiser CLI, without publishing a configuration. */
export async function bindDomain(domainName: string, raceId: string): Promise<void> {
  await siteCli('bind', domainName, raceId);
}

/** Adds (or updates) a race from RaceInfo fields through the organiser CLI. */
export async function addRace(race: Record<string, unknown>): Promise<void> {
  await siteCli('add-race', tempJson(`${String(race.raceId)}.json`, race));
}

function tempJson(name: string, value: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'race-site-e2e-')), name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/**
 * Runs the organiser CLI on the test server's data folder; the command must succeed. Answers what it printed.
 * It runs in this test's process, as `npm run site` runs it in its own (runSiteCli, on the same environment and
 * data folder): a process of its own per command spent more than a second of CPU loading the server's modules.
 */
export async function siteCli(...args: string[]): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSiteCli(args, {
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    env: { ...process.env, DATA_DIR: serverDataDir() },
    cwd: path.resolve(import.meta.dirname, '../..'),
  });
  const printed = out.map((line) => `${line}\n`).join('');
  expect(code, err.join('\n') + printed).toBe(0);
  return printed;
}

export interface MenuPage {
  path: string;
  item: RouteItem;
  group?: RouteItem;
}

/** Every page a visitor reaches from the menu: the leaves of the menu groups and of the Layout routes. */
export function menuPages(config: SiteConfig): MenuPage[] {
  const groups = new Map<RouteItem, RouteItem>();
  for (const { item } of allRoutes(config)) for (const child of item.children ?? []) groups.set(child, item);
  return allRoutes(config)
    .filter(
      ({ item }) =>
        item.component && !['Layout', 'ParentView'].includes(item.component) && !item.meta?.link && !item.hidden,
    )
    .map(({ item, path }) => ({
      path,
      item,
      group: groups.get(item)?.component === 'Layout' ? undefined : groups.get(item),
    }));
}

export function documentsAt(config: SiteConfig, dataPath: string | undefined): DocumentPage[] {
  if (!dataPath) return [];
  const [group, sub] = dataPath.split('.');
  return config.contentGroups?.[group]?.[sub] ?? [];
}

export const inLang = (lang: 'zh' | 'en', zh: string | undefined, en: string | undefined) =>
  lang === 'en' && en?.trim() ? en : (zh ?? '');

/** Text that shows once a menu page has arrived: its first document's title, or its first item's. */
export function menuPageText(config: SiteConfig, page: MenuPage, lang: 'zh' | 'en'): string {
  const component = page.item.component;
  if (component === 'GalleryPage') {
    const pic = config.wonderfulPictures?.find((p) => p.recommend) ?? config.wonderfulPictures?.[0];
    return inLang(lang, pic?.title, pic?.titleEn);
  }
  if (component === 'VideoPage') {
    const video = config.videoCollections?.find((v) => v.recommend) ?? config.videoCollections?.[0];
    return inLang(lang, video?.title, video?.titleEn);
  }
  const docs = documentsAt(config, page.item.meta?.dataPath);
  const doc = component === 'NewsPage' ? (docs.find((d) => d.recommend) ?? docs[0]) : docs[0];
  return inLang(lang, doc?.title, doc?.titleEn);
}

/** What the demo race (qc-marathon-2027) shows: another event's site must show none of it. */
export const DEMO_RACE_MARKS = ['青川', 'Qingchuan', '运河', 'Canal', '400-820-2027', 'qcmarathon', '2027-04-18'];
