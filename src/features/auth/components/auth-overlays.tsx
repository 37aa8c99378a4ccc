import { Suspense, lazy, useState } from 'react';
import { loadTexts } from '@/lib/locale-bundles';
import { useAppStore } from '@/stores/app-store';

// The drawer and the re-login confirm bring antd and the account texts with them: loaded only once they
// are first needed, and shown only once both are in (never a raw key).
const withAuthTexts = <T,>(load: () => Promise<T>) => Promise.all([load(), loadTexts('auth')]).then(([m]) => m);
const LoginDrawer = lazy(() => withAuthTexts(() => import('./login-drawer')));
const ReloginConfirm = lazy(() => withAuthTexts(() => import('./relogin-confirm')));

/** Mounts the login drawer once it has been opened, and the re-login confirm once it has been asked for. */
export function AuthOverlays() {
  const drawerOpen = useAppStore((s) => s.loginDrawerOpen);
  const reloginOpen = useAppStore((s) => s.reloginConfirmOpen);
  const [drawerUsed, setDrawerUsed] = useState(drawerOpen);
  const [reloginUsed, setReloginUsed] = useState(reloginOpen);
  if (drawerOpen && !drawerUsed) setDrawerUsed(true);
  if (reloginOpen && !reloginUsed) setReloginUsed(true);
  return (
    <Suspense fallback={null}>
      {drawerUsed ? <LoginDrawer /> : null}
      {reloginUsed ? <ReloginConfirm /> : null}
    </Suspense>
  );
}
