/**
 * One polite live region for the whole page: what is put into it is read by screen readers without
 * moving focus (search results found, form messages). Created on the first announcement and kept.
 */
let region: HTMLElement | null = null;
let timer: number | undefined;

export function announce(text: string): void {
  if (typeof document === 'undefined' || !text) return;
  if (!region?.isConnected) {
    region = document.createElement('div');
    region.className = 'visually-hidden';
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    region.dataset.testid = 'announcer';
    document.body.append(region);
  }
  // Emptied first and filled a moment later, so a new region is registered before it speaks and the
  // same text said twice is read twice.
  region.textContent = '';
  window.clearTimeout(timer);
  timer = window.setTimeout(() => {
    if (region) region.textContent = text;
  }, 100);
}
