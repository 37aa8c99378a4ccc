import { Suspense, lazy, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ModuleIcon } from '@/components/ui/icons';
import { pickLang } from '@/lib/pick-lang';
import { resolveWebLink } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import type { SearchConfig } from '@/features/site-config/site-config-schema';

const NoticeDialog = lazy(() => import('./notice-dialog'));

const ICONS = { 1: 'signup', 2: 'registration', 3: 'score', 4: 'photo' } as const;

/**
 * Search modules (searchConfigList, spec §2 Home page): open ones follow jumpType (1 external in a new
 * tab, 2 internal route); closed ones (openStatus 0) show their dialogText, or 'Not open yet, stay tuned'.
 */
export function SearchModules({ modules }: { modules: SearchConfig[] }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<string | null>(null);
  if (!modules.length) return null;

  const open = (module: SearchConfig) => {
    if (module.openStatus !== 1) {
      setDialog(pickLang(language, module.dialogText, module.dialogTextEn) || t('home.search.closed'));
      return;
    }
    if (module.jumpType === 1) {
      const href = resolveWebLink(module.jumpUrl);
      if (href) window.open(href, '_blank', 'noopener,noreferrer');
      else setDialog(t('home.search.closed'));
      return;
    }
    const path = module.jumpUrl?.trim();
    if (path && path.startsWith('/')) navigate(path);
    else setDialog(t('home.search.closed'));
  };

  return (
    <section className="search-modules container" data-testid="search-modules">
      {modules.map((module) => (
        <button
          type="button"
          key={module.id}
          className={`search-module search-module--${module.moduleType}${module.openStatus === 1 ? '' : ' search-module--closed'}`}
          onClick={() => open(module)}
        >
          <span className="search-module__icon" aria-hidden>
            <ModuleIcon kind={ICONS[module.moduleType]} />
          </span>
          <span className="search-module__text">
            <span className="search-module__title">{pickLang(language, module.title, module.titleEn)}</span>
            <span className="search-module__sub">{pickLang(language, module.subTitle, module.subTitleEn)}</span>
          </span>
          {module.openStatus === 1 ? null : <span className="search-module__badge">{t('home.search.badgeClosed')}</span>}
        </button>
      ))}
      {dialog !== null ? (
        <Suspense fallback={null}>
          <NoticeDialog text={dialog} onClose={() => setDialog(null)} />
        </Suspense>
      ) : null}
    </section>
  );
}
