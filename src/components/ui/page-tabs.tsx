import EllipsisOutlined from '@ant-design/icons/EllipsisOutlined';
import { Tabs, type TabsProps } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * antd's Tabs with its overflow button named in the page's language. antd renders that button (with an
 * icon it labels "ellipsis" in English) while it measures whether the tabs fit, so every tab bar on the
 * site goes through here. `moreLabel` names the button for a bar whose overflow means something specific.
 */
export function PageTabs({ moreLabel, ...props }: TabsProps & { moreLabel?: string }) {
  const { t } = useTranslation();
  return <Tabs more={{ icon: <EllipsisOutlined aria-label={moreLabel ?? t('layout.tabsMore')} /> }} {...props} />;
}
