import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';
import { allowedValues, propertyNames } from './schema-completion';

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
