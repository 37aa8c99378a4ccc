/** Locale files as flat maps, for the tests that compare zh and en (the site's and the console's). */
export type Texts = { [key: string]: string | Texts };

/** Every text of a file by its full key (`signUp.hours_one`). */
export function flattenTexts(texts: Texts, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(texts)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else for (const [k, v] of flattenTexts(value, full)) out.set(k, v);
  }
  return out;
}

// i18next's plural forms: English has `_one` and `_other`, Chinese one form (`_other`, or the bare key).
export const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The placeholders a text uses (`{{count}}`). */
export const placeholders = (text: string) => [...text.matchAll(/{{\s*([\w.]+)/g)].map((m) => m[1]!);
