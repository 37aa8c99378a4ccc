import { ConfigProvider, App as AntdApp, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useAppStore } from '@/stores/app-store';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0b3d6b',
    colorLink: '#0b5fa5',
    borderRadius: 6,
    fontFamily:
      '-apple-system, BlinkMacSystemFont, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei", "Helvetica Neue", Arial, sans-serif',
  },
  components: {
    Menu: {
      darkItemBg: '#0b3d6b',
      darkPopupBg: '#0b3d6b',
      darkSubMenuItemBg: '#0b3d6b',
      darkItemSelectedBg: '#1a9c8c',
      darkItemColor: 'rgba(255,255,255,0.88)',
      darkItemHoverColor: '#ffffff',
      darkItemHoverBg: '#0e4d86',
      itemHeight: 52,
      horizontalLineHeight: '52px',
    },
  },
};

/** antd's locale follows the language (spec §4). */
export function AppProvider({ children }: { children: React.ReactNode }) {
  const language = useAppStore((s) => s.language);
  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={theme}>
      <AntdApp>{children}</AntdApp>
    </ConfigProvider>
  );
}
