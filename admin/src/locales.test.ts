/**
 * The console's texts: zh and en have the same files, the same keys and the same placeholders, and every
 * literal key the console's code asks for (`t('shell.signIn.heading')`) exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { flattenTexts, placeholders, PLURAL, type Texts } from '../../tests/locale-texts';
import { CONSOLE_RESOURCES } from './i18n';

function keyed(language: 'zh' | 'en'): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, text] of flattenTexts(CONSOLE_RESOURCES[language] as Texts)) {
    const base = key.replace(PLURAL, '');
    out.set(base, [...new Set([...(out.get(base) ?? []), ...placeholders(text).sort()])].sort());
  }
  return out;
}

/** Every source file of the console (tests aside). */
function sources(dir = path.join(import.meta.dirname)): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("the console's texts", () => {
  it('are the same keys with the same placeholders in zh and en', () => {
    const zh = keyed('zh');
    const en = keyed('en');
    expect(zh.size).toBeGreaterThan(0);
    expect([...en.entries()].sort()).toEqual([...zh.entries()].sort());
  });

  it('hold every literal key the code asks for', () => {
    const known = new Set(
      [...flattenTexts(CONSOLE_RESOURCES.zh as Texts).keys()].map((key) => key.replace(PLURAL, '')),
    );
    const asked = sources().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([\w-]+(?:\.[\w-]+)+)'/g)].map((m) => `${m[1]}`),
    );
    expect(asked.length).toBeGreaterThan(10);
    expect(asked.filter((key) => !known.has(key))).toEqual([]);
  });
});
