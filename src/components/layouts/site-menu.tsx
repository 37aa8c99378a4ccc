import { useMemo } from 'react';
import { Menu, type MenuProps } from 'antd';
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

type Items = NonNullable<MenuProps['items']>;

function toItems(nodes: SiteMenuNode[], language: 'zh' | 'en'): Items {
  return nodes.map((node) => {
    const text = pickLang(language, node.title, node.titleEn);
    const href = node.link ? resolveWebLink(node.link) : undefined;
    const label = href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    ) : node.path && !node.children ? (
      <NavLink to={node.path}>{text}</NavLink>
    ) : (
      <span>{text}</span>
    );
    return node.children
      ? { key: node.key, label, children: toItems(node.children, language), popupClassName: 'site-menu__popup' }
      : { key: node.key, label };
  });
}

/** Horizontal hover menu (spec §2 Layout). `activeKey` is the path of the item to highlight. */
export function SiteMenu({ nodes, activeKey }: { nodes: SiteMenuNode[]; activeKey: string }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const items = useMemo(() => toItems(nodes, language), [nodes, language]);
  const selected = useMemo(() => {
    const keys: string[] = [];
    const walk = (list: SiteMenuNode[]) => {
      for (const node of list) {
        if (node.path && (activeKey === node.path || activeKey.startsWith(`${node.path}/`))) keys.push(node.key);
        if (node.children) walk(node.children);
      }
    };
    walk(nodes);
    return keys;
  }, [nodes, activeKey]);
  if (!nodes.length) return null;
  return (
    <nav className="site-menu" aria-label={t('layout.menu.ariaLabel')} data-testid="site-menu">
      <div className="site-menu__inner">
        <Menu
          mode="horizontal"
          theme="dark"
          triggerSubMenuAction="hover"
          selectedKeys={selected}
          items={items}
          disabledOverflow
        />
      </div>
    </nav>
  );
}
