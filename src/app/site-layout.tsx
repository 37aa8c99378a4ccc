import { Layout, type LayoutProps } from '@/components/layouts/layout';
import { AuthOverlays } from '@/features/auth/components/auth-overlays';
import { useLogout } from '@/lib/logout';

/** The layout shell with the account feature plugged in: login drawer, re-login confirm and logout. */
export function SiteLayout(props: Omit<LayoutProps, 'overlays' | 'onLogout'>) {
  const logout = useLogout();
  return <Layout {...props} overlays={<AuthOverlays />} onLogout={logout} />;
}
