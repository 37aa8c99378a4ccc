import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '@/config/paths';
import { ModuleIcon } from '@/components/ui/icons';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import type { SearchConfig } from '#contract/site-config/schema';
import { useModuleAction } from '../hooks/use-module-action';
import { moduleAction } from '../utils/module-action';
import { Notice } from './notice';

const ICONS = { 1: 'signup', 2: 'registration', 3: 'score', 4: 'photo' } as const;

/** A subtitle; a list of names ('马拉松 · 半程马拉松 · 10公里') breaks only between names, never inside '10公里'. */
function ModuleSubtitle({ text }: { text: string }) {
  const list = /\s[·•|]\s/.test(text);
  return <span className={list ? 'search-module__sub keep-words' : 'search-module__sub'}>{text}</span>;
}

/**
 * Search modules (searchConfigList, spec §2 Home page): open ones follow jumpType (1 external in a new
 * tab, 2 internal route); closed ones (openStatus 0) show their dialogText, or 'Not open yet, stay tuned'.
 */
export function SearchModules({ modules }: { modules: SearchConfig[] }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const { run, notice, closeNotice } = useModuleAction();
  const scoreSearch = useSiteStore((s) => s.config?.scoreSearch);
  if (!modules.length) return null;
  // Personal bests and historical scores have no module of their own: linked while score search is open.
  const scoreOpen = modules.some((m) => m.moduleType === 3 && m.openStatus === 1) && scoreSearch?.openStatus !== 0;

  return (
    <nav className="search-modules container" aria-label={t('home.search.label')} data-testid="search-modules">
      {modules.map((module) => (
        <button
          type="button"
          key={module.id}
          className={`search-module search-module--${module.moduleType}${module.openStatus === 1 ? '' : ' search-module--closed'}`}
          onClick={() => run(moduleAction(module, language, t('home.search.closed')))}
        >
          <span className="search-module__icon" aria-hidden>
            <ModuleIcon kind={ICONS[module.moduleType]} />
          </span>
          <span className="search-module__text">
            <span className="search-module__title">{pickLang(language, module.title, module.titleEn)}</span>
            <ModuleSubtitle text={pickLang(language, module.subTitle, module.subTitleEn)} />
          </span>
          {module.openStatus === 1 ? null : (
            <span className="search-module__badge">{t('home.search.badgeClosed')}</span>
          )}
        </button>
      ))}
      {scoreOpen ? (
        <p className="search-modules__more" data-testid="search-modules-more">
          <span>{t('home.search.more')}</span>
          <Link to={PATHS.pbSearch}>{t('home.search.pb')}</Link>
          {scoreSearch?.useMultipleSearch ? (
            <Link to={PATHS.multipleScoreSearch}>{t('home.search.history')}</Link>
          ) : null}
        </p>
      ) : null}
      <Notice text={notice} onClose={closeNotice} />
    </nav>
  );
}
