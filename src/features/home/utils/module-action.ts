import { pickLang } from '@/lib/pick-lang';
import { resolveWebLink } from '@/lib/url';
import type { Language } from '@/stores/app-store';
import { PATHS } from '@/config/paths';
import type { SearchConfig, SiteConfig } from '#contract/site-config/schema';

/** What a module does when chosen: open an external page, go to a route, or show a notice. */
export type ModuleAction =
  { kind: 'external'; href: string } | { kind: 'internal'; to: string } | { kind: 'notice'; text: string };

export type ActionSource = Pick<SearchConfig, 'openStatus' | 'jumpType' | 'jumpUrl' | 'dialogText' | 'dialogTextEn'>;

/**
 * Spec §2/§4 search modules: an open module follows its jumpType (1 external in a new tab, 2 internal
 * route); a closed one (openStatus 0), or one whose link is unusable, shows its dialogText (English
 * dialogTextEn) or `closedText` ('Not open yet, stay tuned').
 */
export function moduleAction(module: ActionSource, language: Language, closedText: string): ModuleAction {
  const notice: ModuleAction = {
    kind: 'notice',
    text: pickLang(language, module.dialogText, module.dialogTextEn).trim() || closedText,
  };
  if (module.openStatus !== 1) return notice;
  if (module.jumpType === 1) {
    const href = resolveWebLink(module.jumpUrl);
    return href ? { kind: 'external', href } : { ...notice, text: closedText };
  }
  const path = module.jumpUrl?.trim();
  return path && path.startsWith('/') && !path.startsWith('//') && !/\s/.test(path)
    ? { kind: 'internal', to: path }
    : { ...notice, text: closedText };
}

/**
 * The registration search (2) or score search (3) entry: its searchConfigList item, else the config's
 * registrationSearch / scoreSearch switch, else the built-in page.
 */
export function searchEntry(
  config: Pick<SiteConfig, 'searchConfigList' | 'registrationSearch' | 'scoreSearch'> | null,
  moduleType: 2 | 3,
): ActionSource {
  const fallback = moduleType === 2 ? PATHS.registrationSearch : PATHS.scoreSearch;
  const module = config?.searchConfigList?.find((m) => m.moduleType === moduleType);
  if (module) return module;
  const toggle = moduleType === 2 ? config?.registrationSearch : config?.scoreSearch;
  if (toggle) return { ...toggle, jumpType: toggle.jumpType ?? 2, jumpUrl: toggle.jumpUrl?.trim() || fallback };
  return { openStatus: 1, jumpType: 2, jumpUrl: fallback };
}
