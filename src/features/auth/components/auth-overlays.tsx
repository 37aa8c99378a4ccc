import { Suspense, lazy, useState } from 'react';
import { useAppStore } from '@/stores/app-store';

// The drawer and the re-login confirm bring antd with them: loaded only once they are first needed.
const LoginDrawer = lazy(() => import('./login-drawer'));
const ReloginConfirm = lazy(() => import('./relogin-confirm'));

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
