import { useTranslation } from 'react-i18next';
import { JumpLink } from '@/components/ui/jump-link';
import { pickLang } from '@/lib/pick-lang';
import { isClickableLink, resolveImageUrl } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import type { AdItem } from '#contract/site-config/schema';

/**
 * An ad list of the home page (adListTop, adListBottom): full-width images. English uses jumpUrlEn when
 * present. An ad looks clickable only when its link begins with http, https or // (spec §5).
 */
export function AdList({ items, position }: { items: AdItem[]; position: 'top' | 'bottom' }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const ads = items.flatMap((ad) => {
    const src = resolveImageUrl(ad.surfacePlotUrl);
    return src ? [{ ad, src }] : [];
  });
  if (!ads.length) return null;

  return (
    <aside
      className={`ad-list ad-list--${position} container`}
      aria-label={t(position === 'top' ? 'home.ads.label' : 'home.ads.labelBottom')}
      data-testid={`ad-list-${position}`}
    >
      {ads.map(({ ad, src }, i) => {
        const link = language === 'en' && ad.jumpUrlEn?.trim() ? ad.jumpUrlEn : ad.jumpUrl;
        const alt = pickLang(language, ad.title, ad.titleEn) || t('home.ads.alt');
        // The first top ad sits at the fold of a desktop screen (and well inside a phone's zoomed-out view).
        const eager = position === 'top' && i === 0;
        const img = (
          <img src={src} alt={alt} width={1200} height={160} loading={eager ? 'eager' : 'lazy'} decoding="async" />
        );
        return isClickableLink(link) ? (
          <JumpLink
            key={`${ad.surfacePlotUrl}-${i}`}
            url={link}
            allowInternal={false}
            className="ad-list__item ad-list__item--link"
          >
            {img}
          </JumpLink>
        ) : (
          <div key={`${ad.surfacePlotUrl}-${i}`} className="ad-list__item">
            {img}
          </div>
        );
      })}
    </aside>
  );
}
