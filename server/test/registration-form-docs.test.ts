import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFormDocument, FIELD_TYPES, RULE_NAMES } from '#contract/registration-form';

const guide = readFileSync(path.resolve(import.meta.dirname, '../../docs/registration-form.md'), 'utf8');
const jsonBlocks = [...guide.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!) as unknown);

/** Fields the examples' showWhen and differsFrom name. */
const PRELUDE = [
  { key: 'name', type: 'input', label: { zh: '姓名', en: 'Name' } },
  { key: 'phone', type: 'phone', label: { zh: '手机', en: 'Phone' } },
  {
    key: 'item',
    type: 'radio',
    label: { zh: '项目', en: 'Item' },
    options: [{ value: 'M', label: { zh: '全程', en: 'Marathon' } }],
  },
];

describe('docs/registration-form.md, the organisers’ guide', () => {
  it('documents every field type and every rule', () => {
    expect(FIELD_TYPES.filter((type) => !guide.includes(`| \`${type}\``))).toEqual([]);
    expect(RULE_NAMES.filter((rule) => !guide.includes(`| \`${rule}\``))).toEqual([]);
  });

  it('has examples that pass form-validate', () => {
    expect(jsonBlocks.length).toBeGreaterThanOrEqual(5);
    for (const block of jsonBlocks) {
      const isDocument = typeof block === 'object' && block !== null && 'version' in block;
      const fields = Array.isArray(block) ? block : [block];
      const doc = isDocument
        ? block
        : {
            version: 1,
            raceId: 'r',
            fields: [...PRELUDE.filter((p) => !fields.some((f: { key: string }) => f.key === p.key)), ...fields],
          };
      expect(checkFormDocument(doc).problems, JSON.stringify(block).slice(0, 80)).toEqual([]);
    }
  });
});
