/**
 * A page with unsaved changes asks before the member leaves it, with the console's one question (shell.unsaved:
 * "Leave this page?", Stay / Discard and leave): closing or reloading the tab gets the browser's own question;
 * following a link of the console (the menu, the brand, the member's name, a link in the page: a link to another
 * hash route is held and the question decides); choosing another race in the top bar or signing out (the shell
 * asks the store's leaveGuard). The console's router is a plain HashRouter (no data router, no useBlocker), so
 * links are caught in the capture phase before the router sees them. The returned `confirmLeave(leave)` asks the
 * same question for a move inside the page that loses the changes (another channel, another domain) and leaves
 * at once when there is nothing unsaved.
 */
import { App } from 'antd';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useConsole } from '../store';

export function useUnsavedChanges(dirty: boolean): (leave: () => void) => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const ask = useCallback(
    (leave: () => void) => {
      modal.confirm({
        title: t('shell.unsaved.title'),
        content: t('shell.unsaved.content'),
        okText: t('shell.unsaved.leave'),
        okButtonProps: { danger: true },
        cancelText: t('shell.unsaved.stay'),
        onOk: leave,
      });
    },
    [modal, t],
  );

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
      if (!link || link.getAttribute('target') === '_blank') return;
      const target = link.getAttribute('href')!.slice(1);
      if (target === window.location.hash.slice(1)) return;
      event.preventDefault();
      event.stopPropagation();
      ask(() => navigate(target));
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    useConsole.getState().setLeaveGuard(ask);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
      useConsole.getState().setLeaveGuard(null);
    };
  }, [dirty, ask, navigate]);

  return useCallback((leave: () => void) => (dirty ? ask(leave) : leave()), [dirty, ask]);
}
