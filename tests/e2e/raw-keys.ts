/** A translation key shown as text (`search.form.name`) means a page rendered before its texts arrived. */
import type { Page } from 'playwright-core';

const NAMESPACE_ROOTS = ['app', 'errors', 'layout', 'pages', 'messages', 'enums', 'home', 'content', 'auth', 'search'];
// Not part of a host name or path (www.home.com, /content.json).
const RAW_KEY = new RegExp(`(?<![\\w.@/-])(?:${NAMESPACE_ROOTS.join('|')})(?:\\.[a-z][A-Za-z0-9]*)+\\b`, 'g');

/** The raw keys visible on the page (text, and the labels a screen reader reads). */
export async function rawKeysOn(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')].map((el) =>
      ['aria-label', 'title', 'placeholder', 'alt'].map((name) => el.getAttribute(name) ?? '').join(' '),
    );
    return `${document.body.innerText}\n${labels.join('\n')}`;
  });
  return [...new Set(text.match(RAW_KEY) ?? [])];
}
