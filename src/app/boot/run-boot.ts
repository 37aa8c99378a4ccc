/**
 * The start-up pipeline (spec §1, §4, §7), in order: mobile redirect; language; token check; restore
 * user data; then cloud config, translations and the site for this host (fetched together, applied in
 * that order). Each step is a small function of its own (./*.ts) with its own test. The console's preview of
 * a site draft has its own start-up (./site-preview.ts, a chunk loaded only then).
 */
import i18n from 'i18next';
import { getEnv } from '@/config/env';
import { applyLanguage, readLanguageCookie } from '@/lib/language';
import { markMobileSite, readSiteChoice } from '@/lib/mobile-site';
import { isOnMobileSite } from '@/lib/mobile-redirect';
import { notify } from '@/lib/notify';
import { clearUserData, readLoginToken } from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { initI18n } from '@/app/i18n';
import { checkToken } from './check-token';
import { redirectMobile } from './detect-mobile';
import { loadCloudConfig } from './load-cloud-config';
import { loadTranslations } from './load-translations';
import { resolveSite } from './resolve-site';
import { restoreUser } from './restore-user';

export type BootResult = { status: 'ready' } | { status: 'leaving' };

export async function runBoot(hostname = window.location.hostname): Promise<BootResult> {
  // The console's preview of a site draft (contract/preview.ts): a start-up of its own, loaded only then.
  if (/[?&]preview=site(?:&|$)/.test(window.location.search)) {
    const preview = await (await import('./site-preview')).runSitePreviewBoot();
    if (preview) return preview;
  }
  const env = getEnv();
  const onMobileSite = isOnMobileSite(window.location.pathname, window.location.href, env.mobileSiteUrl);
  if (
    redirectMobile({
      userAgent: navigator.userAgent,
      mobileSiteUrl: env.mobileSiteUrl,
      onMobileSite,
      choice: readSiteChoice(),
      hash: window.location.hash,
    })
  )
    return { status: 'leaving' };
  // Before the first render: the mobile CSS is scoped under html[data-site='mobile'].
  markMobileSite();

  const language = readLanguageCookie();
  await initI18n(language);
  await applyLanguage(language);

  const storedToken = readLoginToken();
  if (storedToken && (await checkToken(storedToken)) === 'invalid') clearUserData();

  if (restoreUser().reloading) return { status: 'leaving' };

  const [cloud, , site] = await Promise.all([
    loadCloudConfig(Date.now(), hostname),
    loadTranslations(env.i18nFiles, Date.now(), hostname),
    resolveSite(hostname),
  ]);

  useAppStore.getState().setRace({
    raceId: site.mode === 'bound' ? site.binding.raceId : null,
    domainName: hostname,
    imgDetail: site.mode === 'bound' ? (site.race?.imgDetail ?? null) : null,
  });
  useSiteStore.getState().setSite({
    mode: site.mode,
    previewReason: site.mode === 'preview' ? site.reason : null,
    config: site.config,
    race: site.mode === 'bound' ? site.race : null,
    problems: site.problems,
    cloudType: cloud?.cloudType ?? 'aliyun',
  });
  if (site.mode === 'preview' && site.reason === 'unbound') notify.warning(i18n.t('errors.unbound'), 5);
  return { status: 'ready' };
}
