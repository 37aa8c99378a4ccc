import { useEffect } from 'react';
import { announce } from '@/lib/announce';

/**
 * antd shows a field's message under it (linked by aria-describedby) but does not announce it. This reads
 * each new message of the forms inside `node` through the page's live region. Pass the element itself (a
 * callback ref's value): the drawer's content appears a render after the drawer opens.
 */
export function useAnnounceFormErrors(node: HTMLElement | null): void {
  useEffect(() => {
    if (!node) return undefined;
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
  }, [node]);
}
