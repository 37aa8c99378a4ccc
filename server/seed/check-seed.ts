/**
 * Checks the demo seed: the site configuration passes validateSiteConfig, every route's dataPath and every
 * referenced image exists, route names are unique, partner categories are complete and in order, and
 * race.json, the translation files and the cloud config have the expected shape, and the registration forms
 * are valid (the public one and the direct-pass one each using every field type). Exits 1 on any problem.
 *
 * Run: node --import tsx server/seed/check-seed.ts
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PARTNER_CATEGORY_ORDER,
  validateSiteConfig,
  type RouteItem,
  type SiteConfig,
} from '#contract/site-config/schema';
import type { CloudConfigIndex, RaceBinding, RaceInfo, TranslationFile } from '#contract/site-config/race-types';
import { checkFormDocument, FIELD_TYPES, formChannel } from '#contract/registration-form';

const SEED = dirname(fileURLToPath(import.meta.url));
const FILES = join(SEED, 'files');
const problems: string[] = [];
const fail = (where: string, message: string): void => {
  problems.push(`${where}: ${message}`);
};
const readJson = (rel: string): unknown => JSON.parse(readFileSync(join(SEED, rel), 'utf8'));

const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const IMAGE = /\.(svg|png|jpe?g|gif|webp)$/i;
/** The demo videos (make-videos.ts): referenced files must exist too, and each stays under VIDEO_LIMIT. */
const VIDEO = /\.(mp4|webm)$/i;
const VIDEO_LIMIT = 300 * 1024;

// ------------------------------------------------------------------------------------------- site configs
const configDir = join(SEED, 'site-configs');
for (const file of readdirSync(configDir).filter((f) => f.endsWith('.json'))) {
  const where = `site-configs/${file}`;
  const raw = readJson(`site-configs/${file}`);
  const schemaProblems = validateSiteConfig(raw);
  for (const p of schemaProblems) fail(where, `${p.path} ${p.message}`);
  if (schemaProblems.length) continue;
  const config = raw as SiteConfig;

  // images and videos: every string field that names one, plus <img src="/files/..."> in document HTML
  const images = new Set<string>();
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      if ((IMAGE.test(node) || VIDEO.test(node)) && !/^(https?:)?\/\//.test(node)) images.add(node);
      for (const m of node.matchAll(/<img[^>]+src="\/files\/([^"]+)"/g)) images.add(m[1] as string);
    } else if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${path}[${i}]`));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, `${path}.${k}`);
  };
  walk(config, '$');
  for (const img of images)
    if (!existsSync(join(FILES, img)))
      fail(where, `${VIDEO.test(img) ? 'video' : 'image'} ${img} is missing under server/seed/files/`);

  // routes: unique names, titles, resolvable dataPaths, relative child paths
  const names = new Map<string, string>();
  const groups = config.contentGroups ?? {};
  const visit = (route: RouteItem, parentPath: string, top: boolean): void => {
    const full = top ? route.path : `${parentPath.replace(/\/$/, '')}/${route.path}`;
    if (!route.name) fail(where, `route ${full} has no name`);
    else if (names.has(route.name))
      fail(where, `route name ${route.name} is used by ${names.get(route.name)} and ${full}`);
    else names.set(route.name, full);
    if (!route.meta?.title || !route.meta.titleEn) fail(where, `route ${full} lacks meta.title or meta.titleEn`);
    if (!top && route.path.startsWith('/')) fail(where, `child route ${full} has an absolute path`);
    const dataPath = route.meta?.dataPath;
    if (dataPath) {
      const [group, sub] = dataPath.split('.');
      const docs = group && sub ? groups[group]?.[sub] : undefined;
      if (!docs?.length) fail(where, `route ${full}: dataPath ${dataPath} has no documents`);
    }
    if (route.component === 'DocumentPage' && !dataPath) fail(where, `DocumentPage ${full} has no dataPath`);
    for (const child of route.children ?? []) visit(child, full, false);
  };
  for (const r of config.menuGroups ?? []) visit(r, '', true);
  for (const r of config.remoteAsyncRoutes ?? []) visit(r, '', true);

  // partner categories: all eight, in the order of the spec
  const codes = (config.cooperativePartnerList ?? []).map((g) => g.code);
  if (codes.join() !== PARTNER_CATEGORY_ORDER.join()) fail(where, `partner categories are [${codes.join(', ')}]`);

  // documents: unique ids inside a list, English title present
  for (const [group, subs] of Object.entries(groups)) {
    for (const [sub, docs] of Object.entries(subs)) {
      const ids = new Set<string>();
      for (const d of docs) {
        if (ids.has(String(d.id))) fail(where, `contentGroups.${group}.${sub}: duplicate id ${d.id}`);
        ids.add(String(d.id));
        if (!d.titleEn) fail(where, `contentGroups.${group}.${sub} ${d.id}: no titleEn`);
        if (!d.content && !d.jumpUrl) fail(where, `contentGroups.${group}.${sub} ${d.id}: no content`);
      }
    }
  }
  const emptyEn = Object.entries(groups).flatMap(([g, subs]) =>
    Object.entries(subs).flatMap(([s, docs]) => docs.filter((d) => !d.contentEn).map((d) => `${g}.${s} ${d.id}`)),
  );
  console.log(
    `${where}: ${images.size} images, ${names.size} routes; documents without contentEn (English falls back to Chinese): ${emptyEn.join(', ') || 'none'}`,
  );
}

// ------------------------------------------------------------------------------------------- race.json
{
  const raw = readJson('race.json') as { race?: RaceInfo; bindings?: RaceBinding[] };
  const race = raw.race;
  if (!race?.raceId || !race.raceName) fail('race.json', 'race.raceId and race.raceName are required');
  else {
    for (const key of [
      'startTime',
      'endTime',
      'signUpStartTime',
      'signUpEndTime',
      'showSignUpStartTime',
      'showSignUpEndTime',
    ] as const) {
      const v = race[key];
      if (v !== undefined && !DATE.test(v)) fail('race.json', `race.${key} "${v}" is not YYYY-MM-DD HH:mm:ss`);
    }
    for (const img of (race.imgDetail ?? '').split(',').filter(Boolean)) {
      if (!existsSync(join(FILES, img)))
        fail('race.json', `imgDetail image ${img} is missing under server/seed/files/`);
    }
  }
  const bindings = raw.bindings ?? [];
  if (!bindings.length) fail('race.json', 'no bindings');
  for (const b of bindings) {
    if (b.raceId !== race?.raceId) fail('race.json', `binding ${b.domainName} points to ${b.raceId}`);
    if (!existsSync(join(configDir, `${b.domainName}.json`)))
      fail('race.json', `no site-configs/${b.domainName}.json for binding ${b.domainName}`);
  }
}

// ------------------------------------------------------------------------------------------- translations
const builtInKeys = new Set<string>();
const collectKeys = (node: unknown, prefix: string) => {
  if (typeof node === 'string') builtInKeys.add(prefix);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) collectKeys(v, prefix ? `${prefix}.${k}` : k);
};
for (const lang of ['zh', 'en']) {
  collectKeys(JSON.parse(readFileSync(join(import.meta.dirname, `../../src/locales/${lang}/common.json`), 'utf8')), '');
}
for (const name of ['common.json', 'website.json']) {
  const file = readJson(`i18n/${name}`) as TranslationFile;
  for (const [key, value] of Object.entries(file)) {
    // Remote translations reword the UI only: text of one event (organiser, hotline…) belongs in its site config.
    if (!builtInKeys.has(key)) fail(`i18n/${name}`, `key ${key} is not a UI text of src/locales/*/common.json`);
    if (typeof value?.zh !== 'string' || typeof value.en !== 'string' || !value.zh || !value.en)
      fail(`i18n/${name}`, `${key} needs non-empty zh and en`);
  }
}

// ------------------------------------------------------------------------------------------- cloud config
{
  const cloud = readJson('cloud-config.json') as CloudConfigIndex;
  if (!['aliyun', 'huoshanyun', 'tencentyun'].includes(cloud.cloudType))
    fail('cloud-config.json', `cloudType ${cloud.cloudType}`);
}

// ------------------------------------------------------------------------------------------- registration forms
{
  const formDir = join(SEED, 'registration-forms');
  const raceId = (readJson('race.json') as { race?: RaceInfo }).race?.raceId;
  const channels = new Set<string>();
  for (const file of readdirSync(formDir).filter((f) => f.endsWith('.json'))) {
    const where = `registration-forms/${file}`;
    const { form, problems: formProblems } = checkFormDocument(readJson(where));
    for (const p of formProblems) fail(where, `${p.path}: ${p.message}`);
    if (!form) continue;
    if (form.raceId !== raceId) fail(where, `raceId "${form.raceId}" is not the seed race "${String(raceId)}"`);
    const channel = formChannel(form);
    if (channels.has(channel)) fail(where, `a second form for channel "${channel}"`);
    channels.add(channel);
    // The public form and the direct-pass form (/direct, the screen that submits) each use every field type.
    if (channel === 'public' || channel === 'direct') {
      const unused = FIELD_TYPES.filter((type) => !form.fields.some((f) => f.type === type));
      if (unused.length > 0) fail(where, `the demo form uses every field type; missing ${unused.join(', ')}`);
    }
  }
  if (!channels.has('public')) fail('registration-forms', 'no public form for the demo race');
  if (!channels.has('direct')) fail('registration-forms', 'no direct-pass form for the demo race (/direct)');
  console.log(`registration forms: ${[...channels].join(', ')}`);
}

// ------------------------------------------------------------------------------------------- image sizes
{
  const list = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? list(join(dir, n)) : [join(dir, n)]));
  const all = existsSync(FILES) ? list(FILES) : [];
  let total = 0;
  let videos = 0;
  for (const f of all) {
    const size = statSync(f).size;
    if (VIDEO.test(f)) {
      videos += size;
      if (size > VIDEO_LIMIT) fail('files', `${relative(FILES, f)} is ${size} bytes (limit 300 KB)`);
      continue;
    }
    total += size;
    if (size > 40 * 1024) fail('files', `${relative(FILES, f)} is ${size} bytes (limit 40 KB)`);
  }
  if (total > 1.5 * 1024 * 1024) fail('files', `total ${total} bytes exceeds 1.5 MB`);
  if (videos > 4 * VIDEO_LIMIT) fail('files', `videos ${videos} bytes exceed 1.2 MB`);
  console.log(
    `files: ${all.length} files, ${(total / 1024).toFixed(1)} KB of images and ${(videos / 1024).toFixed(1)} KB of video`,
  );
}

if (problems.length) {
  console.error(`seed check failed (${problems.length}):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('seed check passed');
