/**
 * antd's theme and locale for the components inside (spec §4: antd's locale follows the language).
 * Wrap each antd-using piece in it; antd then loads with that piece, not with the first paint.
 */
import { ConfigProvider, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { useEffect } from 'react';
import { useAppStore } from '@/stores/app-store';
import { hideDecorativeIcons } from './decorative-icons';

const FONTS = {
  zh: '-apple-system, BlinkMacSystemFont, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei", "Helvetica Neue", Arial, sans-serif',
  // English first takes Latin fonts, as the page itself does (global.css).
  en: '"Helvetica Neue", Helvetica, Arial, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", "DejaVu Sans", "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif',
};

// colorError is the site's strong lantern red: antd's #ff4d4f reads at 3.3:1 on white, form errors need 4.5:1.
const TOKENS = { colorPrimary: '#0b3d6b', colorLink: '#0b5fa5', colorError: '#c13a22', borderRadius: 6 };

const themes: Record<'zh' | 'en', ThemeConfig> = {
  zh: { token: { ...TOKENS, fontFamily: FONTS.zh } },
  en: { token: { ...TOKENS, fontFamily: FONTS.en } },
};

export function AntdScope({ children }: { children: React.ReactNode }) {
  const language = useAppStore((s) => s.language);
  // antd's icons are named in English for screen readers; where antd draws them they are decoration.
  useEffect(hideDecorativeIcons, []);
  return (
    <ConfigProvider locale={language === 'en' ? enUS : zhCN} theme={themes[language]}>
      {children}
    </ConfigProvider>
  );
}
