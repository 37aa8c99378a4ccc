import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PATHS } from '@/config/paths';
import { ModuleIcon } from '@/components/ui/icons';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import type { SearchConfig } from '#contract/site-config/schema';
import { useModuleAction } from '../hooks/use-module-action';
import { useNow } from '../hooks/use-now';
import { moduleAction } from '../utils/module-action';
import { getSignUpInfo, signUpState } from '@/lib/sign-up-state';
import { signUpAction } from '../utils/sign-up';
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
 * The sign-up module (1) follows the sign-up state of the home page (utils/sign-up.ts): once sign-up has
 * closed (its window, `site entry-close`) it reads closed and says so.
 */
export function SearchModules({ modules }: { modules: SearchConfig[] }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const { run, notice, closeNotice } = useModuleAction();
  const scoreSearch = useSiteStore((s) => s.config?.scoreSearch);
  const config = useSiteStore((s) => s.config);
  const race = useSiteStore((s) => s.race);
  const now = useNow(60 * 1000);
  if (!modules.length) return null;
  const signUp = modules.some((m) => m.moduleType === 1) ? getSignUpInfo(config, race) : null;
  const signUpNow = signUp ? signUpState(signUp, now) : null;
  const closedText = t('home.search.closed');
  /** Whether a module reads closed, with the badge it shows then, and what choosing it does. */
  const view = (module: SearchConfig) => {
    if (module.moduleType === 1 && signUp && signUpNow === 'closed') {
      const action = signUpAction(signUp, signUpNow, language, {
        notOpen: closedText,
        closed: t('home.signUp.closedNotice'),
      });
      return { closed: true, badge: t('home.signUp.state.closed'), action };
    }
    return {
      closed: module.openStatus !== 1,
      badge: t('home.search.badgeClosed'),
      action: moduleAction(module, language, closedText),
    };
  };
  // Personal bests and historical scores have no module of their own: linked while score search is open.
  const scoreOpen = modules.some((m) => m.moduleType === 3 && m.openStatus === 1) && scoreSearch?.openStatus !== 0;

  return (
    <nav className="search-modules container" aria-label={t('home.search.label')} data-testid="search-modules">
      {modules.map((module) => {
        const { closed, badge, action } = view(module);
        return (
          <button
            type="button"
            key={module.id}
            className={`search-module search-module--${module.moduleType}${closed ? ' search-module--closed' : ''}`}
            data-testid={`search-module-${module.moduleType}`}
            data-closed={closed}
            onClick={() => run(action)}
          >
            <span className="search-module__icon" aria-hidden>
              <ModuleIcon kind={ICONS[module.moduleType]} />
            </span>
            <span className="search-module__text">
              <span className="search-module__title">{pickLang(language, module.title, module.titleEn)}</span>
              <ModuleSubtitle text={pickLang(language, module.subTitle, module.subTitleEn)} />
            </span>
            {closed ? <span className="search-module__badge">{badge}</span> : null}
          </button>
        );
      })}
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
