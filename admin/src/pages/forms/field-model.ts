/**
 * The form document as the field list edits it: the fields read from the parsed document (kept as they are,
 * unknown keys included: the checks report those), a new field of each type that passes the checks as it is
 * (the organiser then names it), and the moves of the list.
 */
import {
  FIELD_TYPES,
  RULE_FIELD_TYPES,
  RULE_NAMES,
  type FieldType,
  type LocalText,
  type RuleName,
} from '#contract/registration-form';

/** A field as the editor holds it: an object with at least a key and a type (anything else kept). */
export type EditedField = Record<string, unknown> & { key: string; type: string };
/** The document, parsed: an object whose `fields` the list edits (every other key kept). */
export type EditedDocument = Record<string, unknown> & { fields: EditedField[] };

export { FIELD_TYPES, type FieldType };

/** The document of a text when it is an object with a list of fields, else null (the JSON view still edits it). */
export function documentOf(text: string): EditedDocument | null {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    const fields = (value as Record<string, unknown>).fields;
    if (!Array.isArray(fields) || !fields.every((f) => f && typeof f === 'object' && !Array.isArray(f))) return null;
    return value as EditedDocument;
  } catch {
    return null;
  }
}

/** The document as text: two-space JSON. */
export const documentText = (doc: EditedDocument) => `${JSON.stringify(doc, null, 2)}\n`;

const text = (zh: string, en: string): LocalText => ({ zh, en });

/** A key not yet used in the form: the type's name, then 2, 3 … */
export function freeKey(fields: readonly EditedField[], type: string): string {
  const taken = new Set(fields.map((f) => f.key));
  if (!taken.has(type)) return type;
  for (let n = 2; ; n += 1) if (!taken.has(`${type}${n}`)) return `${type}${n}`;
}

/** A new field of a type, with what that type needs to pass the checks (options, sizes, upload limits…). */
export function newField(type: FieldType, fields: readonly EditedField[], label: LocalText): EditedField {
  const field: EditedField = { key: freeKey(fields, type), type, label };
  switch (type) {
    case 'radio':
    case 'checkbox':
    case 'picker':
      field.options = [
        { value: 'a', label: text('选项一', 'Option 1') },
        { value: 'b', label: text('选项二', 'Option 2') },
      ];
      break;
    case 'textarea':
      field.maxLength = 500;
      break;
    case 'image':
      field.upload = { maxSize: { size: 2, unit: 'MB' }, maxCount: 1 };
      break;
    case 'file':
      field.upload = { maxSize: { size: 10, unit: 'MB' }, maxCount: 1 };
      break;
    case 'clothingSize':
      field.sizes = ['S', 'M', 'L', 'XL'].map((code) => ({ code, label: text(code, code) }));
      break;
    case 'certificateNumber':
      field.typeField = fields.find((f) => f.type === 'certificateType')?.key ?? 'certificateType';
      break;
    default:
      break;
  }
  return field;
}

/** The rules a field of this type may have. */
export const rulesFor = (type: string): RuleName[] =>
  RULE_NAMES.filter((rule) => (RULE_FIELD_TYPES[rule] as readonly string[]).includes(type));

/** The list with the field at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** The types with options, sizes, upload limits, date limits… (what the editor shows for each). */
export const OPTION_TYPES: readonly string[] = ['radio', 'checkbox', 'picker'];
export const UPLOAD_TYPES: readonly string[] = ['image', 'file'];
