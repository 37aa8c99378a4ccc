/**
 * The console's preview of a site draft (issue 33 §2; contract/preview.ts `?preview=site&domain=…&lang=…`): the
 * start-up of run-boot.ts, but with the domain's draft (read from the console's API with the staff member's own
 * session cookie) instead of its published document, and that domain for the binding, the race info and the
 * translations. No mobile redirect (the console frames the desktop and the phone site itself), the language from
 * the address without writing the language cookie, and a fixed ribbon "草稿预览 / Draft preview" with the
 * validator's counts. A draft that cannot be shown lists the validator's problems in the ribbon over the
 * preview configuration, never a blank page. Loaded only in preview mode (run-boot.ts imports it lazily), so
 * the home page's code does not grow.
 */
import { readPreview, SITE_PREVIEW_PATH, type PreviewLanguage } from '#contract/preview';
import type { ConfigProblem, SiteConfig } from '#contract/site-config/schema';
import { getEnv } from '@/config/env';
import { initI18n } from '@/app/i18n';
import { applyLanguage } from '@/lib/language';
import { markMobileSite } from '@/lib/mobile-site';
import zhTexts from '@/locales/zh/preview/site.json';
import enTexts from '@/locales/en/preview/site.json';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { loadCloudConfig } from './load-cloud-config';
import { loadTranslations } from './load-translations';
import { previewConfig } from './preview-config';
import { fetchRaceBinding, fetchRaceInfo } from './resolve-site';
import type { BootResult } from './run-boot';

type Texts = typeof zhTexts;

/** The ribbon's texts in the preview's language, `{{name}}` filled in. */
export function previewText(language: PreviewLanguage, key: keyof Texts, params: Record<string, string | number> = {}) {
  const texts: Texts = language === 'en' ? enTexts : zhTexts;
  return texts[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** What the console's API answers for a domain's draft (server/src/services/website/site-drafts.ts SiteDraftView). */
interface DraftView {
  text: string;
  raceId: string;
  report: { errors: ConfigProblem[]; warnings: ConfigProblem[] };
}

export type DraftRead = { ok: true; view: DraftView } | { ok: false; reason: 'noAccess' | 'notBound' | 'failed' };

/** Reads the draft of `domain` with the staff session (same origin). */
export async function fetchSiteDraft(domain: string, fetcher: typeof fetch = fetch): Promise<DraftRead> {
  try {
    const res = await fetcher(`${SITE_PREVIEW_PATH}?${new URLSearchParams({ domain }).toString()}`, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    const body = (await res.json()) as { code?: number; data?: DraftView | null };
    if (body.code === 0 && body.data && typeof body.data.text === 'string') return { ok: true, view: body.data };
    if (body.code === 401 || body.code === 403) return { ok: false, reason: 'noAccess' };
    if (body.code === 404) return { ok: false, reason: 'notBound' };
    return { ok: false, reason: 'failed' };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}

export type DraftConfig =
  { ok: true; config: SiteConfig; dropped: ConfigProblem[] } | { ok: false; problems: ConfigProblem[] };

/**
 * The configuration a draft shows: its text parsed by the app's own tolerant parser, or the validator's
 * problems when it does not parse (the server's report names the line and column) or is unusable.
 */
export async function draftConfig(view: DraftView): Promise<DraftConfig> {
  let document: unknown;
  try {
    document = JSON.parse(view.text);
  } catch {
    const problems = view.report.errors.length > 0 ? view.report.errors : [{ path: '$', message: 'not JSON' }];
    return { ok: false, problems };
  }
  const { parseSiteConfigTolerant } = await import('#contract/site-config/schema');
  const parsed = parseSiteConfigTolerant(document);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  return { ok: true, config: parsed.config, dropped: parsed.problems };
}

/** The fixed ribbon: what this is, the validator's counts, and the problems when the draft cannot be shown. */
export function showRibbon(
  language: PreviewLanguage,
  content: { errors: number; warnings: number; message?: string; problems?: ConfigProblem[] },
  root: HTMLElement = document.body,
): HTMLElement {
  const ribbon = document.createElement('aside');
  ribbon.className = 'draft-preview-ribbon';
  ribbon.setAttribute('role', 'note');
  ribbon.setAttribute('aria-label', previewText(language, 'ribbon'));
  ribbon.setAttribute('lang', language === 'en' ? 'en' : 'zh-CN');
  ribbon.dataset.testid = 'draft-preview-ribbon';
  Object.assign(ribbon.style, {
    position: 'fixed',
    left: '12px',
    bottom: '12px',
    zIndex: '2000',
    maxWidth: 'min(480px, calc(100vw - 24px))',
    maxHeight: '60vh',
    overflow: 'auto',
    padding: '8px 12px',
    borderRadius: '6px',
    background: '#7a1c12',
    color: '#ffffff',
    font: '14px/1.5 system-ui, sans-serif',
    boxShadow: '0 2px 8px rgba(0, 0, 0, 0.3)',
  });
  const title = document.createElement('strong');
  title.textContent = previewText(language, 'ribbon');
  ribbon.append(title);
  const line = document.createElement('div');
  line.textContent = [
    previewText(language, 'ribbonHint'),
    previewText(language, 'errors', { count: content.errors }),
    previewText(language, 'warnings', { count: content.warnings }),
  ].join(' · ');
  ribbon.append(line);
  if (content.message) {
    const message = document.createElement('p');
    message.style.margin = '6px 0 0';
    message.textContent = content.message;
    ribbon.append(message);
  }
  if (content.problems && content.problems.length > 0) {
    const list = document.createElement('ul');
    list.setAttribute('aria-label', previewText(language, 'problems'));
    Object.assign(list.style, { margin: '4px 0 0', paddingLeft: '18px' });
    for (const problem of content.problems.slice(0, 20)) {
      const item = document.createElement('li');
      const path = document.createElement('code');
      path.textContent = problem.path;
      path.style.color = '#ffffff';
      item.append(path, `: ${problem.message}`);
      list.append(item);
    }
    ribbon.append(list);
  }
  root.append(ribbon);
  return ribbon;
}

/**
 * The preview's start-up, or null when the address is not a site preview (the normal start-up then runs).
 * Stores the draft's configuration (or the preview configuration with the problems) like run-boot.ts does.
 */
export async function runSitePreviewBoot(search = window.location.search): Promise<BootResult | null> {
  const request = readPreview(search);
  if (!request || request.kind !== 'site') return null;
  const { domain, language } = request;
  // Before the first render: the phone site's CSS is scoped under html[data-site='mobile'] (/m/).
  markMobileSite();
  await initI18n(language);
  await applyLanguage(language); // never saved in the language cookie

  const now = Date.now();
  const [cloud, , draft, binding] = await Promise.all([
    loadCloudConfig(now, domain),
    loadTranslations(getEnv().i18nFiles, now, domain),
    fetchSiteDraft(domain),
    fetchRaceBinding(domain).catch(() => null),
  ]);
  const race = binding ? await fetchRaceInfo(binding.raceId).catch(() => null) : null;
  const shown = draft.ok ? await draftConfig(draft.view) : undefined;
  const config = shown?.ok ? shown.config : previewConfig();

  useAppStore.getState().setRace({
    raceId: binding?.raceId ?? null,
    domainName: domain,
    imgDetail: race?.imgDetail ?? null,
  });
  useSiteStore.getState().setSite({
    mode: shown?.ok ? 'bound' : 'preview',
    previewReason: shown?.ok ? null : 'failed',
    config,
    race,
    problems: shown?.ok ? shown.dropped : [],
    cloudType: cloud?.cloudType ?? 'aliyun',
  });

  if (!draft.ok) {
    showRibbon(language, {
      errors: 0,
      warnings: 0,
      message: previewText(language, draft.reason, { domain }),
    });
  } else {
    const { errors, warnings } = draft.view.report;
    showRibbon(language, {
      errors: errors.length,
      warnings: warnings.length,
      ...(shown && !shown.ok ? { message: previewText(language, 'unusable'), problems: shown.problems } : {}),
    });
  }
  return { status: 'ready' };
}
