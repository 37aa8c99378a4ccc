/**
 * antd's own icons are pictures named in English: each is `<span role="img" aria-label="close-circle">`, and a
 * screen reader reads "close-circle", "down", "eye-invisible", "loading" in Chinese as in English (issue 28).
 * Where antd draws them (a select's arrow, a password toggle's eye, a button's spinner, a message's mark) they
 * are decoration beside a control that has its own name, and antd offers no prop to mark them so. This hides
 * them from assistive technology as they appear: an icon whose label is still its own icon name (the class
 * `anticon-<name>`) gets aria-hidden, unless it is all that names the control it sits in (an icon-only button
 * with no label of its own keeps its name, and needs a real one). An icon given a real label
 * (aria-label={t(...)}) keeps it. The steppers
 * of a number input (labelled "Increase Value" / "Decrease Value" in English only) are hidden likewise: they
 * take no focus, and the input itself steps with the arrow keys.
 */
const ICONS = '.anticon[role="img"][aria-label]:not([aria-hidden])';
const STEPPERS = '.ant-input-number-action[aria-label]:not([aria-hidden])';

const CONTROLS = 'button, a[href], [role="button"], [role="link"], [role="tab"], [role="menuitem"], [role="option"]';

/** Whether the control around an icon (if any) has a name besides the icon: a label, a title or text. */
function namedWithout(icon: Element): boolean {
  const control = icon.closest(CONTROLS);
  if (!control) return true;
  if (control.hasAttribute('aria-label') || control.hasAttribute('aria-labelledby')) return true;
  return control.hasAttribute('title') || (control.textContent ?? '').trim() !== '';
}

function hideIn(root: ParentNode) {
  for (const icon of root.querySelectorAll<HTMLElement>(ICONS)) {
    const ownName = icon.classList.contains(`anticon-${icon.getAttribute('aria-label') ?? ''}`);
    if (ownName && namedWithout(icon)) icon.setAttribute('aria-hidden', 'true');
  }
  for (const stepper of root.querySelectorAll<HTMLElement>(STEPPERS)) stepper.setAttribute('aria-hidden', 'true');
}

let observer: MutationObserver | undefined;

/**
 * Starts hiding antd's named icons in the whole document (once; later calls do nothing). The observer looks
 * once per batch of changes (one query of the document for icons not yet looked at), not once per change.
 */
export function hideDecorativeIcons(): void {
  if (observer || typeof MutationObserver === 'undefined') return;
  hideIn(document.body);
  observer = new MutationObserver((records) => {
    if (records.some((record) => record.addedNodes.length > 0)) hideIn(document.body);
  });
  observer.observe(document.body, { childList: true, subtree: true });
}
