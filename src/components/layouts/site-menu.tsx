import { useMemo, useState } from 'react';
import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { pickLang } from '@/lib/pick-lang';
import { resolveWebLink } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';

/** One item of the menu tree (built from the site configuration by src/app/routes). */
export interface SiteMenuNode {
  key: string;
  title: string;
  titleEn?: string;
  path?: string;
  link?: string;
  children?: SiteMenuNode[];
}

/** The node or one of its children is the page shown (shared with the mobile menu sheet). */
export function isActive(node: SiteMenuNode, activeKey: string): boolean {
  if (node.path && (activeKey === node.path || activeKey.startsWith(`${node.path}/`))) return true;
  return !!node.children?.some((child) => isActive(child, activeKey));
}

/** One menu entry: an external link (new tab), a page, or a group (its first page). Shared with the mobile sheet. */
export function MenuLink({
  node,
  language,
  className,
  expanded,
}: {
  node: SiteMenuNode;
  language: 'zh' | 'en';
  className: string;
  /** A group's sub-menu is showing (groups only). */
  expanded?: boolean;
}) {
  const text = pickLang(language, node.title, node.titleEn);
  const href = node.link ? resolveWebLink(node.link) : undefined;
  if (href) {
    return (
      <a className={className} href={href} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    );
  }
  if (node.path && !node.children) {
    return (
      <NavLink className={className} to={node.path}>
        {text}
      </NavLink>
    );
  }
  // A group: hovering (or focusing) it opens its sub-menu; clicking goes to its first page.
  const first = node.children?.find((c) => c.path);
  return first?.path ? (
    <NavLink className={className} to={first.path} aria-haspopup="true" aria-expanded={expanded}>
      {text}
    </NavLink>
  ) : (
    <span className={className} aria-expanded={expanded}>
      {text}
    </span>
  );
}

/**
 * Horizontal hover menu (spec §2 Layout): titles in the active language (English falls back to Chinese),
 * sub-menus open on hover or keyboard focus (Escape closes one and returns focus to its group, which
 * tells its state with aria-expanded), external links open in a new tab. `activeKey` is the path
 * of the item to highlight (a hidden route passes its activeMenu).
 */
export function SiteMenu({ nodes, activeKey }: { nodes: SiteMenuNode[]; activeKey: string }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const active = useMemo(
    () => new Set(nodes.filter((n) => isActive(n, activeKey)).map((n) => n.key)),
    [nodes, activeKey],
  );
  // The group under the pointer, the one holding focus, and one closed with Escape until both leave it.
  const [hovered, setHovered] = useState<string | null>(null);
  const [focused, setFocused] = useState<string | null>(null);
  const [closed, setClosed] = useState<string | null>(null);
  if (!nodes.length) return null;
  return (
    <nav className="site-menu" aria-label={t('layout.menu.ariaLabel')} data-testid="site-menu">
      <ul className="site-menu__bar">
        {nodes.map((node) => (
          // The item's listeners only follow the pointer, focus and Escape; the links inside are the controls.
          // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
          <li
            key={node.key}
            className={[
              'site-menu__item',
              active.has(node.key) ? 'site-menu__item--active' : '',
              closed === node.key ? 'site-menu__item--closed' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            onMouseEnter={() => setHovered(node.key)}
            onMouseLeave={() => {
              setHovered(null);
              if (focused !== node.key) setClosed(null);
            }}
            onFocus={() => setFocused(node.key)}
            onBlur={(e) => {
              if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
              setFocused(null);
              if (hovered !== node.key) setClosed(null);
            }}
            onKeyDown={(e) => {
              if (e.key !== 'Escape' || !node.children) return;
              setClosed(node.key);
              e.currentTarget.querySelector<HTMLElement>('.site-menu__link')?.focus();
            }}
          >
            <MenuLink
              node={node}
              language={language}
              className="site-menu__link"
              expanded={
                node.children ? (hovered === node.key || focused === node.key) && closed !== node.key : undefined
              }
            />
            {node.children ? (
              <ul className="site-menu__popup">
                {node.children.map((child) => (
                  <li key={child.key}>
                    <MenuLink
                      node={child}
                      language={language}
                      className={
                        isActive(child, activeKey)
                          ? 'site-menu__sublink site-menu__sublink--active'
                          : 'site-menu__sublink'
                      }
                    />
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </nav>
  );
}
