/**
 * Unsaved changes: while `dirty`, leaving asks first. Closing or reloading the tab gets the browser's own
 * question (beforeunload); a click or Enter on a link or menu item outside `area` (the side menu, the race
 * picker, the top bar) asks `message` and, when the member stays, never reaches the console's router.
 */
import { useEffect, type RefObject } from 'react';

/** What counts as leaving: links and menu items, and the race picker's choices. */
const LEAVING =
  'a[href], .ant-menu-item, .ant-menu-submenu-title, .ant-select-item-option, [data-testid="console-sign-out"]';

export function useLeaveGuard(dirty: boolean, message: string, area: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!dirty) return;
    const unload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only with a returnValue.
      event.returnValue = message;
    };
    const intercept = (event: Event) => {
      if (event instanceof KeyboardEvent && event.key !== 'Enter') return;
      const target = event.target instanceof Element ? event.target.closest(LEAVING) : null;
      if (!target || area.current?.contains(target)) return;
      // A choice in a drop-down is leaving only in the top bar's race picker (this page's are drawn outside it).
      if (target.matches('.ant-select-item-option') && !document.activeElement?.closest('.console-header')) return;
      if (!window.confirm(message)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', unload);
    window.addEventListener('click', intercept, true);
    window.addEventListener('keydown', intercept, true);
    return () => {
      window.removeEventListener('beforeunload', unload);
      window.removeEventListener('click', intercept, true);
      window.removeEventListener('keydown', intercept, true);
    };
  }, [dirty, message, area]);
}
