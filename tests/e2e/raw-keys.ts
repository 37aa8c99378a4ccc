/** A translation key shown as text (`search.form.name`) means a page rendered before its texts arrived. */
import type { Page } from 'playwright-core';

// Every text lives in one namespace (src/lib/locale-bundles.ts): common.json's own top-level keys (`app`,
// `layout`, ...), and one key per feature file, named after it (`centre.json` -> `centre.*`).
const LOCALE_FILES = import.meta.glob<Record<string, unknown>>('../../src/locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** The first part of every translation key, from the locale files (zh and en), so a new file is guarded too. */
export const KEY_ROOTS: readonly string[] = [
  ...new Set(
    Object.entries(LOCALE_FILES).flatMap(([file, texts]) => {
      const name = file.slice(file.lastIndexOf('/') + 1, -'.json'.length);
      return name === 'common' ? Object.keys(texts) : [name];
    }),
  ),
].sort();

// Not part of a host name or path (www.home.com, /content.json).
const RAW_KEY = new RegExp(`(?<![\\w.@/-])(?:${KEY_ROOTS.join('|')})(?:\\.[a-z][A-Za-z0-9_]*)+\\b`, 'g');

/** The raw keys in a text. */
export function rawKeysIn(text: string): string[] {
  return [...new Set(text.match(RAW_KEY) ?? [])];
}

/** The raw keys visible on the page (text, and the labels a screen reader reads). */
export async function rawKeysOn(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')].map((el) =>
      ['aria-label', 'title', 'placeholder', 'alt'].map((name) => el.getAttribute(name) ?? '').join(' '),
    );
    return `${document.body.innerText}\n${labels.join('\n')}`;
  });
  return rawKeysIn(text);
}
