import { json, jsonLanguage } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { problemDiagnostics } from './json-editor';
import { containerAt, parseJsonPath, rangeOfPath } from './json-paths';

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

describe('a registration form problem in the editor', () => {
  const label = { zh: '新字段', en: 'New field' };
  const doc = { version: 1, raceId: 'r', fields: [{ key: 'a', type: 'input', label, requred: true }] };
  const text = `${JSON.stringify(doc, null, 2)}\n`;

  it('is the member its path names, or the nearest one there for a missing key', () => {
    expect(mapped(text, '$.fields[0].requred').text).toBe('"requred": true');
    expect(mapped(text, '$.fields[0].label.zh').text).toBe('"zh": "新字段"');
    const missing = mapped(text, '$.fields[0].options');
    expect(missing.exact).toBe(false);
    expect(text.slice(missing.from, missing.from + 1)).toBe('{');
    expect(missing.from).toBe(text.indexOf('{', text.indexOf('"fields"')));
  });

  it('is marked with its path and message, a problem of the whole document on its first character', () => {
    const state = EditorState.create({ doc: text, extensions: [json()] });
    const marks = problemDiagnostics(state, [
      { path: '$.fields[0].requred', message: 'unknown key' },
      { path: '$', message: 'whole' },
      { path: '$.fields', message: 'short', severity: 'warning' },
    ]);
    expect(marks.map((m) => text.slice(m.from, m.to))).toEqual(['"requred": true', '{', '"fields"']);
    expect(marks.map((m) => m.severity)).toEqual(['error', 'error', 'warning']);
    expect(marks[0]!.message).toBe('$.fields[0].requred: unknown key');
  });
});
