/**
 * The form editor's pieces: a new field of every type passes the form checks as it is (contract
 * checkFormDocument), keys stay unique, and each problem's JSON path is found in the text (json-paths.ts).
 */
import { checkFormDocument, FIELD_TYPES } from '#contract/registration-form';
import { documentOf, documentText, freeKey, moved, newField, type EditedField } from './field-model';
import { jsonPathRanges, rangeOfPath } from './json-paths';
import { problemDiagnostics } from './json-editor';

const label = { zh: '新字段', en: 'New field' };

describe('a new field', () => {
  it.each([...FIELD_TYPES])('of type %s passes the form checks as it is', (type) => {
    const fields: EditedField[] = [{ key: 'certificateType', type: 'certificateType', label }];
    fields.push(newField(type, fields, label));
    const { problems } = checkFormDocument({ version: 1, raceId: 'r', fields });
    expect(problems).toEqual([]);
  });

  it('gets a key not yet used', () => {
    const fields: EditedField[] = [
      { key: 'picker', type: 'picker', label },
      { key: 'picker2', type: 'picker', label },
    ];
    expect(freeKey(fields, 'picker')).toBe('picker3');
    expect(freeKey(fields, 'input')).toBe('input');
  });
});

describe('the document', () => {
  it('is read only when it is an object with a list of fields', () => {
    expect(documentOf('{"fields": []}')).toEqual({ fields: [] });
    expect(documentOf('{"fields": 1}')).toBeNull();
    expect(documentOf('[1]')).toBeNull();
    expect(documentOf('{"fields": [')).toBeNull();
  });

  it('moves a field', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
  });
});

describe('a problem’s place in the text', () => {
  const doc = { version: 1, raceId: 'r', fields: [{ key: 'a', type: 'input', label, requred: true }] };
  const text = documentText(doc as never);

  it('is the member its path names', () => {
    const ranges = jsonPathRanges(text);
    const range = rangeOfPath(ranges, '$.fields[0].requred')!;
    expect(text.slice(range.from, range.to)).toBe('"requred": true');
    const label0 = rangeOfPath(ranges, '$.fields[0].label.zh')!;
    expect(text.slice(label0.from, label0.to)).toBe('"zh": "新字段"');
  });

  it('is the nearest member that is there for a missing key', () => {
    const ranges = jsonPathRanges(text);
    const range = rangeOfPath(ranges, '$.fields[0].options')!;
    expect(text.slice(range.from, range.from + 1)).toBe('{');
    expect(text.slice(range.from, range.to)).toContain('"requred": true');
  });

  it('is marked by the editor, a problem of the whole document on its first character', () => {
    const marks = problemDiagnostics(text, [
      { path: '$.fields[0].requred', message: 'unknown key' },
      { path: '$', message: 'whole' },
    ]);
    expect(marks.map((m) => text.slice(m.from, m.to))).toEqual(['"requred": true', '{']);
    expect(problemDiagnostics('{"a": ', [{ path: '$', message: 'x' }])).toEqual([]);
  });
});
