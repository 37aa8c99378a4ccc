import { jsonLanguage } from '@codemirror/lang-json';
import { describe, expect, it } from 'vitest';
import { containerAt, parseJsonPath, rangeOfPath } from './json-paths';
import { allowedValues, propertyNames } from './schema-completion';
import { lineDiff } from './line-diff';

const TEXT = `{
  "version": "1",
  "websiteTitle": 7,
  "carouselList": [
    { "surfacePlotUrl": "/a.jpg" },
    { "surfacePlotUrl": "/b.jpg", "jumpUrl": "javascript:alert(1)" }
  ],
  "contentGroups": { "news": { "list-a": [] } }
}`;

const mapped = (text: string, path: string) => {
  const tree = jsonLanguage.parser.parse(text);
  const range = rangeOfPath(tree, (a, b) => text.slice(a, b), path);
  return { ...range, text: text.slice(range.from, range.to) };
};

describe('a validator path in the text', () => {
  it('reads the paths formatJsonPath writes', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.carouselList[1].jumpUrl')).toEqual(['carouselList', 1, 'jumpUrl']);
    expect(parseJsonPath('$.contentGroups.news["list-a"]')).toEqual(['contentGroups', 'news', 'list-a']);
    expect(parseJsonPath('carouselList')).toBeNull();
  });

  it('finds a property with its value, an item of a list, a key with an odd name', () => {
    expect(mapped(TEXT, '$.websiteTitle')).toMatchObject({ text: '"websiteTitle": 7', exact: true });
    expect(mapped(TEXT, '$.carouselList[1].jumpUrl')).toMatchObject({
      text: '"jumpUrl": "javascript:alert(1)"',
      exact: true,
    });
    expect(mapped(TEXT, '$.carouselList')).toMatchObject({ text: '"carouselList"', exact: true });
    expect(mapped(TEXT, '$.contentGroups.news["list-a"]')).toMatchObject({ text: '"list-a"', exact: true });
  });

  it('points a missing key at the nearest object there is', () => {
    const missing = mapped(TEXT, '$.carouselList[0].title');
    expect(missing.exact).toBe(false);
    expect(missing.from).toBe(TEXT.indexOf('{ "surfacePlotUrl": "/a.jpg" }'));
    expect(mapped(TEXT, '$.logo')).toMatchObject({ from: 0, exact: false });
    expect(mapped(TEXT, '$.carouselList[9]')).toMatchObject({ from: TEXT.indexOf('['), exact: false });
  });

  it('still maps the parts of a text that does not parse', () => {
    const broken = '{\n  "version": "1"\n  "websiteTitle": 7,\n  "logo": ""\n}';
    expect(mapped(broken, '$.version')).toMatchObject({ text: '"version": "1"', exact: true });
  });

  it('gives the path of the object around a place (the completion’s)', () => {
    const tree = jsonLanguage.parser.parse(TEXT);
    const at = containerAt(tree, (a, b) => TEXT.slice(a, b), TEXT.indexOf('"jumpUrl"'));
    expect(at?.path).toEqual(['carouselList', 1]);
    expect(at?.node.name).toBe('Object');
  });
});

describe('completion from docs/site-config.schema.json', () => {
  it('proposes the keys of the object at a path and the values of an enumerated key', () => {
    const top = propertyNames([]).map((p) => p.name);
    expect(top).toEqual(expect.arrayContaining(['websiteTitle', 'carouselList', 'menuGroups']));
    expect(propertyNames([]).find((p) => p.name === 'websiteTitle')).toMatchObject({ required: true });
    expect(propertyNames(['carouselList', 0]).map((p) => p.name)).toContain('surfacePlotUrl');
    expect(allowedValues(['searchConfigList', 0, 'jumpType'])).toEqual([1, 2]);
    expect(allowedValues(['searchConfigList', 0, 'moduleType'])).toEqual([1, 2, 3, 4]);
    // Through the routeItem definition ($ref), nested children too.
    expect(propertyNames(['menuGroups', 0, 'children', 0]).map((p) => p.name)).toContain('component');
  });
});

describe('line diff', () => {
  it('marks added and removed lines and keeps the rest, with line numbers', () => {
    const diff = lineDiff('a\nb\nc\nd', 'a\nc\nx\nd');
    expect(diff.map((l) => `${l.kind[0]}${l.text}`)).toEqual(['sa', 'rb', 'sc', 'ax', 'sd']);
    expect(diff.find((l) => l.text === 'x')).toMatchObject({ newLine: 3 });
    expect(diff.find((l) => l.text === 'b')).toMatchObject({ oldLine: 2 });
    expect(lineDiff('same', 'same')).toEqual([{ kind: 'same', text: 'same', oldLine: 1, newLine: 1 }]);
    expect(
      lineDiff('', 'a')
        .filter((l) => l.kind !== 'same')
        .map((l) => l.kind),
    ).toEqual(['removed', 'added']);
  });
});
