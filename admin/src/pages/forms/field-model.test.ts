/**
 * The form editor's pieces: a new field of every type passes the form checks as it is (contract
 * checkFormDocument), keys stay unique, a field moves. (Each problem's place in the text: lib/json-paths.test.ts.)
 */
import { checkFormDocument, FIELD_TYPES } from '#contract/registration-form';
import { documentOf, freeKey, moved, newField, type EditedField } from './field-model';

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
