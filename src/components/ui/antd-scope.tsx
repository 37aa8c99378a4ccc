/**
 * antd's theme and locale for the components inside (spec §4: antd's locale follows the language).
 * Wrap each antd-using piece in it; antd then loads with that piece, not with the first paint.
 */
import { ConfigProvider, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useAppStore } from '@/stores/app-store';

export const antdTheme: ThemeConfig = {
  token: {
    colorPrimary: '#0b3d6b',
    colorLink: '#0b5fa5',
    borderRadius: 6,
    fontFamily:
      '-apple-system, BlinkMacSystemFont, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei", "Helvetica Neue", Arial, sans-serif',
  },
};

export function AntdScope({ children }: { children: React.ReactNode }) {
  const language = useAppStore((s) => s.language);
  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={antdTheme}>
      {children}
    </ConfigProvider>
  );
}
