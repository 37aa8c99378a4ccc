import { useEffect, type RefObject } from 'react';
import { announce } from '@/lib/announce';

/**
 * antd shows a field's message under it (linked by aria-describedby) but does not announce it. This reads
 * each new message of the forms inside `root` through the page's live region, while `active` (the
 * element exists: e.g. the drawer is open).
 */
export function useAnnounceFormErrors(root: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const node = root.current;
    if (!active || !node) return undefined;
    let pending: number | undefined;
    const said = new Set<string>();
    const observer = new MutationObserver(() => {
      window.clearTimeout(pending);
      // antd debounces and animates its messages: read them once they have settled.
      pending = window.setTimeout(() => {
        const messages = [...node.querySelectorAll('.ant-form-item-explain-error')]
          .map((el) => el.textContent?.trim() ?? '')
          .filter(Boolean);
        const fresh = messages.filter((m) => !said.has(m));
        said.clear();
        messages.forEach((m) => said.add(m));
        if (fresh.length) announce(fresh.join('; '));
      }, 150);
    });
    observer.observe(node, { childList: true, subtree: true });
    return () => {
      window.clearTimeout(pending);
      observer.disconnect();
    };
  }, [root, active]);
}
