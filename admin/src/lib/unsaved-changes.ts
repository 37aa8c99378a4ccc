/**
 * A page with unsaved changes asks before the member leaves it: closing or reloading the tab (the browser's
 * own question), and following a link of the console (the menu, the brand, the member's name: a link to
 * another hash route is held and `confirm` decides) or choosing another race in the top bar (the shell asks the
 * store's leaveGuard). The console's router is a plain HashRouter (no data router, no useBlocker), so links are
 * caught in the capture phase before the router sees them.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useConsole } from '../store';

export function useUnsavedChanges(dirty: boolean, confirm: (leave: () => void) => void) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!dirty) return undefined;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when a value is set.
      event.returnValue = '';
    };
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href^="#/"]');
      if (!link) return;
      const target = link.getAttribute('href')!.slice(1);
      if (target === window.location.hash.slice(1)) return;
      event.preventDefault();
      event.stopPropagation();
      confirm(() => navigate(target));
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    useConsole.getState().setLeaveGuard(confirm);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
      useConsole.getState().setLeaveGuard(null);
    };
  }, [dirty, confirm, navigate]);
}
