/**
 * Moves the keyboard focus to where the page's result now is (a saved participant's card, the signed letter,
 * the pick-up pass, a confirmation's button), so it never drops to <body> when the control that had it goes
 * away. The place often appears a render later: it is looked for on each animation frame, for about a second.
 * Each target is a CSS selector, an element or a function finding one; the first that is in the page and
 * enabled takes the focus. An element that is not focusable of itself (a heading, a message) is made
 * focusable by script only (tabindex -1), so it does not join the Tab order.
 */
export type FocusTarget = string | HTMLElement | null | undefined | (() => HTMLElement | null | undefined);

const FRAMES = 60;

function find(target: FocusTarget): HTMLElement | null {
  const el =
    typeof target === 'string'
      ? document.querySelector<HTMLElement>(target)
      : typeof target === 'function'
        ? target()
        : target;
  if (!el?.isConnected || el.matches(':disabled') || el.closest('[inert]')) return null;
  return el;
}

/** Focuses the element now; false when it is not in the page. */
export function focusElement(target: FocusTarget): boolean {
  const el = find(target);
  if (!el) return false;
  if (el.tabIndex < 0 && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
  return document.activeElement === el;
}

/** Focuses the first target found, now or on one of the next frames. */
export function moveFocus(...targets: FocusTarget[]): void {
  if (typeof window === 'undefined') return;
  let frames = FRAMES;
  const step = () => {
    if (targets.some((target) => focusElement(target))) return;
    frames -= 1;
    if (frames > 0) window.requestAnimationFrame(step);
  };
  window.requestAnimationFrame(step);
}
