import { KEY_ROOTS, rawKeysIn } from '../../tests/e2e/raw-keys';
import { flattenTexts, placeholders, PLURAL, type Texts } from '../../tests/locale-texts';

const files = import.meta.glob<Texts>('./*/*.json', { eager: true, import: 'default' });
const LANGUAGES = ['zh', 'en'] as const;
const FILE_NAMES = [...new Set(Object.keys(files).map((file) => file.split('/')[2]))].sort();

const base = (key: string) => key.replace(PLURAL, '');

/** Per key without its plural suffix: the placeholders its texts use. */
function keysOf(language: string, file: string): Map<string, string[]> {
  const texts = files[`./${language}/${file}`];
  expect(texts, `${language}/${file}`).toBeDefined();
  const out = new Map<string, string[]>();
  for (const [key, text] of flattenTexts(texts)) {
    out.set(base(key), [...new Set([...(out.get(base(key)) ?? []), ...placeholders(text)])].sort());
  }
  return out;
}

describe('locale files: zh and en', () => {
  it('have the same files', () => {
    for (const language of LANGUAGES) {
      const own = Object.keys(files).filter((file) => file.startsWith(`./${language}/`));
      expect(own.map((file) => file.split('/')[2]).sort()).toEqual(FILE_NAMES);
    }
    expect(FILE_NAMES).toContain('common.json');
  });

  it.each(FILE_NAMES)(
    '%s: the same keys in both languages (plural forms aside), with the same placeholders',
    (file) => {
      const zh = keysOf('zh', file);
      const en = keysOf('en', file);
      expect(
        [...en.keys()].filter((key) => !zh.has(key)),
        'missing in zh',
      ).toEqual([]);
      expect(
        [...zh.keys()].filter((key) => !en.has(key)),
        'missing in en',
      ).toEqual([]);
      const differing = [...zh].filter(([key, names]) => names.join() !== en.get(key)!.join()).map(([key]) => key);
      expect(differing, 'placeholders differ').toEqual([]);
    },
  );

  it.each(FILE_NAMES)('%s: every English plural has its one and other forms', (file) => {
    const keys = [...flattenTexts(files[`./en/${file}`]).keys()];
    const plurals = keys.filter((key) => PLURAL.test(key)).map(base);
    for (const key of plurals) expect(keys, key).toEqual(expect.arrayContaining([`${key}_one`, `${key}_other`]));
  });
});

describe("the browser tests' raw-key guard (tests/e2e/raw-keys.ts)", () => {
  it('knows the root of every key: each feature file and each top-level key of common.json', () => {
    const common = files['./zh/common.json'];
    const features = FILE_NAMES.filter((file) => file !== 'common.json').map((file) => file.replace('.json', ''));
    expect([...KEY_ROOTS].sort()).toEqual([...new Set([...Object.keys(common), ...features])].sort());
    expect(KEY_ROOTS).toEqual(expect.arrayContaining(['centre', 'entry', 'registration', 'app', 'form']));
  });

  it('catches a raw key of every root on the page, plural forms included', () => {
    for (const root of KEY_ROOTS) expect(rawKeysIn(`标题 ${root}.someText 其余`)).toEqual([`${root}.someText`]);
    expect(rawKeysIn('centre.menu.myIndex entry.signUp.hours_one registration.form.submit search.found_other')).toEqual(
      ['centre.menu.myIndex', 'entry.signUp.hours_one', 'registration.form.submit', 'search.found_other'],
    );
  });

  it('leaves host names, paths, e-mail addresses and plain words alone', () => {
    expect(rawKeysIn('www.home.com /content.json help@entry.cn centre registration. Entry.Form')).toEqual([]);
  });
});
