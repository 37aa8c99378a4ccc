/**
 * Sorting partner profiles into the partner categories of spec §3 ("Partner categories in order"). A
 * profile's category is the category sub-group of the same content group that lists it (e.g.
 * sponsor.titleSponsor for a document of sponsor.all), else the cooperativePartnerList category whose
 * logo or name matches it. Profiles without a category form a last, untitled group.
 */
import { pickLang } from '@/lib/pick-lang';
import type { Language } from '@/stores/app-store';
import { PARTNER_CATEGORY_ORDER, type DocumentPage, type SiteConfig } from '#contract/site-config/schema';
import { isDocument, list, sameId, text } from './content-items';

export interface PartnerSection {
  /** Category code, or '' for profiles without a category. */
  code: string;
  /** Configured label in the active language; '' when the caller should use its built-in label. */
  label: string;
  /** Every configured label of the category (both languages), to spot a profile that repeats it. */
  labels: string[];
  docs: DocumentPage[];
}

type Cooperative = {
  code: string;
  label: string;
  labelEn: string;
  children: { src: string; name: string; nameEn: string }[];
};

function cooperativeList(config: SiteConfig | null): Cooperative[] {
  return list<Record<string, unknown> | null>(config?.cooperativePartnerList).flatMap((group) => {
    if (!group || typeof group !== 'object' || typeof group.code !== 'string') return [];
    return [
      {
        code: group.code,
        label: text(group.label),
        labelEn: text(group.labelEn),
        children: list<Record<string, unknown> | null>(group.children).flatMap((c) =>
          c && typeof c === 'object' ? [{ src: text(c.src), name: text(c.name), nameEn: text(c.nameEn) }] : [],
        ),
      },
    ];
  });
}

const same = (a: string, b: string) => a.trim() !== '' && a.trim() === b.trim();

export function groupPartners(
  config: SiteConfig | null,
  dataPath: string | undefined,
  docs: DocumentPage[],
  language: Language,
): PartnerSection[] {
  const [groupName = '', sub = ''] = typeof dataPath === 'string' ? dataPath.split('.') : [];
  const contentGroup = config?.contentGroups?.[groupName];
  const cooperative = cooperativeList(config);
  const known: readonly string[] = PARTNER_CATEGORY_ORDER;

  const categoryOf = (doc: DocumentPage): string => {
    if (known.includes(sub)) return sub;
    for (const code of PARTNER_CATEGORY_ORDER) {
      const members = contentGroup && typeof contentGroup === 'object' ? list(contentGroup[code]) : [];
      if (members.some((d) => isDocument(d) && sameId(d.id, doc.id))) return code;
    }
    for (const group of cooperative) {
      const hit = group.children.some(
        (c) => same(c.src, text(doc.icon)) || same(c.name, text(doc.title)) || same(c.nameEn, text(doc.titleEn)),
      );
      if (hit) return group.code;
    }
    return '';
  };

  const byCode = new Map<string, DocumentPage[]>();
  for (const doc of docs) {
    const code = categoryOf(doc);
    byCode.set(code, [...(byCode.get(code) ?? []), doc]);
  }
  const order = [...PARTNER_CATEGORY_ORDER, ...cooperative.map((c) => c.code), ...byCode.keys()];
  const seen = new Set<string>();
  const sections: PartnerSection[] = [];
  for (const code of order) {
    if (seen.has(code) || !byCode.has(code) || code === '') continue;
    seen.add(code);
    const configured = cooperative.find((c) => c.code === code);
    sections.push({
      code,
      label: configured ? pickLang(language, configured.label, configured.labelEn) : '',
      labels: configured ? [configured.label, configured.labelEn] : [],
      docs: byCode.get(code)!,
    });
  }
  if (byCode.has('')) sections.push({ code: '', label: '', labels: [], docs: byCode.get('')! });
  return sections;
}

/** Drops a leading "<p><strong>Category</strong></p>" line that only repeats the group's title. */
export function withoutLeadingLabel(html: string, labels: string[]): string {
  const match = /^\s*<p>\s*<strong>([^<]*)<\/strong>\s*<\/p>/i.exec(html);
  if (!match) return html;
  return labels.some((label) => same(label, match[1])) ? html.slice(match[0].length) : html;
}
