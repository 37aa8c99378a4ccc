import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { isClickableLink, resolveImageUrl, resolveWebLink } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import { PARTNER_CATEGORY_ORDER, type PartnerGroup } from '#contract/site-config/schema';
import { SectionHead } from './section-head';

/** Logo box per tier: the title sponsor biggest, later categories smaller (logos are 2:1). */
const TIERS = [
  { width: 280, height: 140 },
  { width: 210, height: 105 },
  { width: 180, height: 90 },
  { width: 144, height: 72 },
] as const;

const rank = (code: string) => {
  const i = (PARTNER_CATEGORY_ORDER as readonly string[]).indexOf(code);
  return i < 0 ? PARTNER_CATEGORY_ORDER.length : i;
};

/** Groups in the category order of spec §3 (unknown categories last, in their own order), empty ones left out. */
export function orderPartnerGroups(groups: PartnerGroup[]): PartnerGroup[] {
  return groups
    .map((group, i) => ({ group, i }))
    .filter(({ group }) => group.children.some((logo) => resolveImageUrl(logo.src)))
    .sort((a, b) => rank(a.group.code) - rank(b.group.code) || a.i - b.i)
    .map(({ group }) => group);
}

/**
 * Partners (cooperativePartnerList) grouped by category: title sponsor first with the biggest logos.
 * A logo links to its partner in a new tab when its href is an http, https or // link.
 */
export function Partners({ groups }: { groups: PartnerGroup[] }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const ordered = orderPartnerGroups(groups);
  if (!ordered.length) return null;

  return (
    <section className="home-section partners" aria-labelledby="home-partners-title" data-testid="partners">
      <div className="container">
        <SectionHead id="home-partners-title" eyebrow={t('home.partners.eyebrow')} title={t('home.partners.title')} />
        <div className="partners__groups">
          {ordered.map((group) => {
            const tier = Math.min(rank(group.code), TIERS.length - 1);
            const size = TIERS[tier];
            const label = pickLang(language, group.label, group.labelEn);
            return (
              <div
                key={group.id}
                className={`partner-group partner-group--tier${tier}`}
                data-testid="partner-group"
                data-code={group.code}
              >
                <h3 className="partner-group__label">{label}</h3>
                <ul className="partner-group__logos">
                  {group.children.map((logo) => {
                    const src = resolveImageUrl(logo.src);
                    if (!src) return null;
                    const name = pickLang(language, logo.name, logo.nameEn).trim() || label;
                    const img = (
                      <img
                        src={src}
                        alt={name}
                        width={size.width}
                        height={size.height}
                        loading="lazy"
                        decoding="async"
                      />
                    );
                    const href = isClickableLink(logo.href) ? resolveWebLink(logo.href) : undefined;
                    return (
                      <li key={logo.id} className="partner-logo">
                        {href ? (
                          <a
                            href={href}
                            target="_blank"
                            rel="noopener noreferrer"
                            className="partner-logo__box partner-logo__box--link"
                            title={name}
                          >
                            {img}
                          </a>
                        ) : (
                          <span className="partner-logo__box">{img}</span>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
