/**
 * The registration-form document (issue 13 §1-2, spec §2 "Registration screens", §5): the ordered fields an
 * organiser defines per race (and per entry channel), and the rules a submission must pass. One module for
 * the SPA (the form renderer checks each field on blur and the whole form on submit), the reference server
 * (every submission) and the organiser CLI (`site form-validate`, `site form-publish`), so a value the SPA
 * refuses is refused by the server with the same message code. Organisers read docs/registration-form.md.
 *
 * - `checkFormDocument(doc)`: every problem of a document with its JSON path (English, for the organiser).
 * - `visibleFields(form, values)`: the fields shown for these values (showWhen).
 * - `checkField(form, key, values, context)`: the refusal of one field, or null.
 * - `checkSubmission(form, values, context)`: one refusal per failing visible field.
 * - `cleanSubmission(form, values)`: the values to keep: visible fields only, nothing the runner may not set.
 * - `fieldDependencies(field)`: the other fields whose change calls for re-checking this one.
 * The labels of the gender and certificate-type choices are contract/enums.ts GENDER_LABELS and
 * CERTIFICATE_TYPE_LABELS; the region check the SPA and server pass in is contract/region-data.ts regionExists.
 *
 * Values, per field type (what the SPA submits and the server stores):
 *   input, textarea, email, phone, url, certificateNumber  string
 *   number              number (or a string holding one)
 *   gender              0 | 1 | 2 (GENDERS)
 *   certificateType     1 | 2 | 3 | 4 (CERTIFICATE_TYPES)
 *   radio, picker       the chosen option's value (string)
 *   checkbox            the chosen options' values (string[])
 *   country             the country item's twoCode ('CN', 'HK' …)
 *   date                'YYYY-MM-DD'
 *   image, file         the uploaded files' URLs, comma-separated (spec §3 "Upload value")
 *   region              [provinceCode, cityCode, districtCode]
 *   clothingSize        the chosen size's code
 *   pastEvents          result ids (`raceId:bib`, the history lookup's certificate id) of the runner's own finishes
 *   scoreVerification   ScoreClaim
 *   scoreValidationPaid 'unpaid' | 'paid' | 'waived', set by the server only (a submitted value is refused)
 */
import { CERTIFICATE_TYPES, GENDERS, isCertificateType, type CertificateType, type Gender } from '#contract/enums';
import { isMessageCode, type MessageCode, type MessageParams, type Refusal } from '#contract/messages';
import {
  checkCertificateNumber,
  checkEmail,
  checkPhone,
  checkPositiveInteger,
  checkRequiredText,
  checkUploadCount,
  checkUploadExtension,
  checkUrl,
  FILE_EXTENSIONS,
  IMAGE_EXTENSIONS,
  isValidUrl,
  normalizeName,
  SIZE_UNITS,
  type SizeLimit,
} from '#contract/rules';
import { formatJsonPath, type ConfigProblem } from '#contract/site-config/document-limits';
import { joinUploadValue, splitUploadValue } from '#contract/upload-value';
import { isRegionEmpty } from '#contract/region';

// ---------------------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------------------

export const FORM_DOCUMENT_VERSION = 1;

/** The channel of a document without one: the public registration. */
export const DEFAULT_FORM_CHANNEL = 'public';
/** A channel name: lower-case letters, digits and '-', starting with a letter ('public', 'direct', 'sponsor-a'). */
export const CHANNEL_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
export const isFormChannel = (value: unknown): value is string =>
  typeof value === 'string' && CHANNEL_PATTERN.test(value);

/** A field key: a letter, then letters, digits or '_', at most 40 characters. */
export const FIELD_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

/** At most this many fields in a document, options in a field, sizes in a chart. */
export const FORM_LIMITS = { fields: 200, options: 200, sizes: 50, textLength: 2000, optionValueLength: 64 } as const;

/** The field types of spec §2, plus the certificate type and number pair of §5. */
export const FIELD_TYPES = [
  'input',
  'number',
  'email',
  'phone',
  'gender',
  'radio',
  'checkbox',
  'picker',
  'country',
  'date',
  'textarea',
  'url',
  'image',
  'file',
  'region',
  'clothingSize',
  'pastEvents',
  'scoreVerification',
  'scoreValidationPaid',
  'certificateType',
  'certificateNumber',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const isFieldType = (value: unknown): value is FieldType =>
  typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);

/** A text in both languages. */
export interface LocalText {
  zh: string;
  en: string;
}

export type ScalarValue = string | number | boolean;

/** Show the field only while the EARLIER field `field` is shown and its value equals `equals` (or one of them). */
export interface ShowWhen {
  field: string;
  equals: ScalarValue | ScalarValue[];
}

export interface FieldOption {
  value: string;
  label: LocalText;
}

/** The rules of spec §5 a field may add to its type's own check; `message` replaces the default message. */
export type FieldRule =
  | { rule: 'requiredText'; message?: MessageCode }
  | { rule: 'positiveInteger'; message?: MessageCode }
  | { rule: 'differsFrom'; field: string; message?: MessageCode }
  | { rule: 'minLength' | 'maxLength'; value: number; message?: MessageCode }
  | { rule: 'min' | 'max'; value: number; message?: MessageCode };
export type RuleName = FieldRule['rule'];
export const RULE_NAMES = [
  'requiredText',
  'positiveInteger',
  'differsFrom',
  'minLength',
  'maxLength',
  'min',
  'max',
] as const satisfies readonly RuleName[];

/** The field types each rule applies to. */
export const RULE_FIELD_TYPES: Record<RuleName, readonly FieldType[]> = {
  requiredText: ['input', 'textarea'],
  positiveInteger: ['input', 'number'],
  differsFrom: ['input', 'textarea', 'phone', 'email', 'certificateNumber'],
  minLength: ['input', 'textarea', 'checkbox', 'pastEvents'],
  maxLength: ['input', 'textarea', 'checkbox', 'pastEvents'],
  min: ['number'],
  max: ['number'],
};

interface FieldCommon {
  key: string;
  label: LocalText;
  help?: LocalText;
  placeholder?: LocalText;
  required?: boolean;
  showWhen?: ShowWhen;
  rules?: FieldRule[];
}

export interface PlainField extends FieldCommon {
  type:
    | 'input'
    | 'number'
    | 'email'
    | 'phone'
    | 'gender'
    | 'country'
    | 'url'
    | 'region'
    | 'pastEvents'
    | 'scoreValidationPaid'
    | 'certificateType';
}

export interface OptionsField extends FieldCommon {
  type: 'radio' | 'checkbox' | 'picker';
  options: FieldOption[];
}

export interface DateField extends FieldCommon {
  type: 'date';
  /** Earliest and latest date, 'YYYY-MM-DD'. */
  min?: string;
  max?: string;
}

export interface TextareaField extends FieldCommon {
  type: 'textarea';
  /** Characters (counter in the SPA); none when absent. */
  maxLength?: number;
}

export interface UploadConfig {
  /** Largest file; a size of 0 is no limit. */
  maxSize: SizeLimit;
  /** Most files; 0 is no limit. */
  maxCount: number;
  /** Exact image size in px (image fields only, both or neither). */
  width?: number;
  height?: number;
  /** Ask '您上传的文件是否保证真实有效？' after choosing a file. */
  confirmAuthenticity?: boolean;
}

/** The longest race name and item text of an outside score claim (the SPA's inputs and the check). */
export const SCORE_CLAIM_LENGTHS = { raceName: 100, item: 64 } as const;

/** The certificate image of an outside score claim: one image of at most 10 MB (the SPA's field and the server's check). */
export const SCORE_CERTIFICATE_UPLOAD = {
  maxSize: { size: 10, unit: 'MB' },
  maxCount: 1,
} as const satisfies UploadConfig;

export interface UploadField extends FieldCommon {
  type: 'image' | 'file';
  upload: UploadConfig;
}

export interface ClothingSize {
  code: string;
  label: LocalText;
  /** Chest and length in cm (the size chart). */
  chest?: number;
  length?: number;
  /** Pieces on offer; none when absent (unlimited). */
  stock?: number;
}

export interface ClothingSizeField extends FieldCommon {
  type: 'clothingSize';
  sizes: ClothingSize[];
}

export interface ScoreVerificationField extends FieldCommon {
  type: 'scoreVerification';
  /** The race items an outside result may name; any text when absent. */
  items?: FieldOption[];
}

export interface CertificateNumberField extends FieldCommon {
  type: 'certificateNumber';
  /** The key of the certificateType field whose type this number has. */
  typeField: string;
}

export type FormField =
  | PlainField
  | OptionsField
  | DateField
  | TextareaField
  | UploadField
  | ClothingSizeField
  | ScoreVerificationField
  | CertificateNumberField;
export type FieldOfType<T extends FieldType> = Extract<FormField, { type: T }>;

export interface RegistrationForm {
  version: 1;
  raceId: string;
  /** Absent: DEFAULT_FORM_CHANNEL. */
  channel?: string;
  title?: LocalText;
  fields: FormField[];
}

/** A published registration form: the document and its publication (the registrationForm call's answer). */
export interface PublishedForm {
  raceId: string;
  channel: string;
  /** 1 for the first publication of this race and channel, then 2, 3 … */
  version: number;
  md5: string;
  publishedAt: number;
  form: RegistrationForm;
}

/** The channel of a document. */
export const formChannel = (form: Pick<RegistrationForm, 'channel'>): string => form.channel ?? DEFAULT_FORM_CHANNEL;

/** A claimed qualifying result: one of the organiser's own results, or an outside one with its certificate. */
export type ScoreClaim =
  | { source: 'own'; resultId: string }
  | { source: 'outside'; raceName: string; item: string; chipTime: string; raceDate: string; certificateImage: string };

export const SCORE_FEE_STATES = ['unpaid', 'paid', 'waived'] as const;
export type ScoreFeeState = (typeof SCORE_FEE_STATES)[number];

/** The value of each field type (see the head of this file). */
export interface FieldValueOfType {
  input: string;
  number: number | string;
  email: string;
  phone: string;
  gender: Gender;
  radio: string;
  checkbox: string[];
  picker: string;
  country: string;
  date: string;
  textarea: string;
  url: string;
  image: string;
  file: string;
  region: [string, string, string];
  clothingSize: string;
  pastEvents: string[];
  scoreVerification: ScoreClaim;
  scoreValidationPaid: ScoreFeeState;
  certificateType: CertificateType;
  certificateNumber: string;
}

/** Field types whose value the runner never sets. */
export const READ_ONLY_FIELD_TYPES: readonly FieldType[] = ['scoreValidationPaid'];

// ---------------------------------------------------------------------------------------------------------
// Small value rules
// ---------------------------------------------------------------------------------------------------------

/** A calendar date 'YYYY-MM-DD' that exists (no 2027-02-30). */
export function isValidDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A chip time H:MM:SS (or HH:MM:SS), under 24 hours. */
export const CHIP_TIME_PATTERN = /^([0-9]|1[0-9]|2[0-3]):[0-5]\d:[0-5]\d$/;

/** A result id as the history lookup answers it (`certificate.id`): `raceId:bib`. */
export const RESULT_ID_PATTERN = /^[^\s:]{1,64}:[A-Za-z0-9]{1,20}$/;

/** The region codes of the province-city-district picker: six digits each. */
export const REGION_CODE_PATTERN = /^\d{6}$/;

/** The URLs of an upload value (contract/upload-value.ts); none when it is not text. */
const uploadUrls = (value: unknown): string[] => (typeof value === 'string' ? splitUploadValue(value) : []);

/**
 * An uploaded file's URL: http(s), or a path on the file host as the upload calls answer it
 * ('uploads/<name>', or '/files/uploads/<name>'): letters, digits and . _ ~ % - between slashes, no '..'.
 */
function isUploadUrl(url: string): boolean {
  if (/^https?:\/\//i.test(url)) return !/[\s,"'<>\\]/.test(url) && isValidUrl(url);
  return /^\/?[\w.~%-]+(\/[\w.~%-]+)*$/.test(url) && !url.split('/').includes('..');
}

/** The file name part of an upload URL (for its extension). */
const fileNameOf = (url: string): string => url.split(/[?#]/)[0]!.split('/').pop() ?? '';

const refuse = (code: MessageCode, params?: MessageParams): Refusal => (params ? { code, params } : { code });

const isBlank = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------------------
// checkFormDocument
// ---------------------------------------------------------------------------------------------------------

type Path = readonly PropertyKey[];

const COMMON_KEYS = ['key', 'type', 'label', 'help', 'placeholder', 'required', 'showWhen', 'rules'] as const;
const TYPE_KEYS: Partial<Record<FieldType, readonly string[]>> = {
  radio: ['options'],
  checkbox: ['options'],
  picker: ['options'],
  date: ['min', 'max'],
  textarea: ['maxLength'],
  image: ['upload'],
  file: ['upload'],
  clothingSize: ['sizes'],
  scoreVerification: ['items'],
  certificateNumber: ['typeField'],
};
const DOCUMENT_KEYS = ['version', 'raceId', 'channel', 'title', 'fields'];

/** Levenshtein distance, for "did you mean" (keys are short). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** "a date field", "an input field". */
const aField = (type: string) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} field`;

class DocumentChecker {
  readonly problems: ConfigProblem[] = [];

  problem(path: Path, message: string): void {
    this.problems.push({ path: formatJsonPath(path), message });
  }

  unknownKeys(value: Record<string, unknown>, known: readonly string[], path: Path, what: string): void {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const near =
        known.find((k) => k.toLowerCase() === key.toLowerCase()) ??
        known.find((k) => editDistance(k.toLowerCase(), key.toLowerCase()) <= 2);
      this.problem(
        [...path, key],
        near
          ? `unknown key "${key}"; did you mean "${near}"?`
          : `unknown key "${key}" in ${what}; the known keys are ${known.join(', ')}`,
      );
    }
  }

  text(value: unknown, path: Path, { required = true, max = FORM_LIMITS.textLength as number } = {}): value is string {
    if (typeof value !== 'string') {
      this.problem(path, 'must be a string');
      return false;
    }
    if (required && value.trim() === '') {
      this.problem(path, 'must not be empty');
      return false;
    }
    if (value.length > max) {
      this.problem(path, `must be at most ${max} characters (it has ${value.length})`);
      return false;
    }
    return true;
  }

  localText(value: unknown, path: Path): void {
    if (!isObject(value)) {
      this.problem(path, 'must be an object { "zh": "…", "en": "…" }');
      return;
    }
    this.unknownKeys(value, ['zh', 'en'], path, 'a text');
    this.text(value.zh, [...path, 'zh']);
    this.text(value.en, [...path, 'en']);
  }

  integer(value: unknown, path: Path, min: number): value is number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      this.problem(path, min === 0 ? 'must be a whole number, 0 or more' : `must be a whole number, ${min} or more`);
      return false;
    }
    return true;
  }

  positiveNumber(value: unknown, path: Path): void {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      this.problem(path, 'must be a number above 0');
  }

  date(value: unknown, path: Path): value is string {
    if (!isValidDate(value)) {
      this.problem(path, 'must be a date "YYYY-MM-DD"');
      return false;
    }
    return true;
  }

  options(value: unknown, path: Path, what: string): void {
    if (!Array.isArray(value) || value.length === 0) {
      this.problem(path, `must be a list of at least one ${what} { "value", "label": { "zh", "en" } }`);
      return;
    }
    if (value.length > FORM_LIMITS.options) this.problem(path, `at most ${FORM_LIMITS.options} ${what}s are allowed`);
    const seen = new Map<string, number>();
    value.forEach((option, i) => {
      const at = [...path, i];
      if (!isObject(option)) {
        this.problem(at, `must be an object { "value", "label": { "zh", "en" } }`);
        return;
      }
      this.unknownKeys(option, ['value', 'label'], at, `an ${what}`);
      if (this.text(option.value, [...at, 'value'], { max: FORM_LIMITS.optionValueLength })) {
        const first = seen.get(option.value);
        if (first !== undefined) {
          this.problem([...at, 'value'], `"${option.value}" is already the value of ${what} ${first}`);
        } else seen.set(option.value, i);
      }
      this.localText(option.label, [...at, 'label']);
    });
  }

  upload(value: unknown, path: Path, type: 'image' | 'file'): void {
    if (!isObject(value)) {
      this.problem(path, 'must be an object { "maxSize": { "size", "unit" }, "maxCount" }');
      return;
    }
    const known = ['maxSize', 'maxCount', 'confirmAuthenticity', ...(type === 'image' ? ['width', 'height'] : [])];
    this.unknownKeys(value, known, path, `the upload of ${type === 'image' ? 'an image' : 'a file'} field`);
    const { maxSize } = value;
    if (!isObject(maxSize)) {
      this.problem([...path, 'maxSize'], 'must be { "size": number (0 = no limit), "unit": "B" | "KB" | "MB" | "GB" }');
    } else {
      this.unknownKeys(maxSize, ['size', 'unit'], [...path, 'maxSize'], 'maxSize');
      if (typeof maxSize.size !== 'number' || !Number.isFinite(maxSize.size) || maxSize.size < 0) {
        this.problem([...path, 'maxSize', 'size'], 'must be a number, 0 or more (0 = no limit)');
      }
      if (typeof maxSize.unit !== 'string' || !Object.hasOwn(SIZE_UNITS, maxSize.unit)) {
        this.problem([...path, 'maxSize', 'unit'], `must be one of ${Object.keys(SIZE_UNITS).join(', ')}`);
      }
    }
    this.integer(value.maxCount, [...path, 'maxCount'], 0);
    if (value.confirmAuthenticity !== undefined && typeof value.confirmAuthenticity !== 'boolean') {
      this.problem([...path, 'confirmAuthenticity'], 'must be true or false');
    }
    if (type === 'image' && (value.width !== undefined || value.height !== undefined)) {
      if (value.width === undefined || value.height === undefined) {
        this.problem(path, 'give both width and height (the exact image size in px), or neither');
      }
      if (value.width !== undefined) this.integer(value.width, [...path, 'width'], 1);
      if (value.height !== undefined) this.integer(value.height, [...path, 'height'], 1);
    }
  }

  sizes(value: unknown, path: Path): void {
    if (!Array.isArray(value) || value.length === 0) {
      this.problem(path, 'must be a list of at least one size { "code", "label": { "zh", "en" } }');
      return;
    }
    if (value.length > FORM_LIMITS.sizes) this.problem(path, `at most ${FORM_LIMITS.sizes} sizes are allowed`);
    const seen = new Map<string, number>();
    value.forEach((size, i) => {
      const at = [...path, i];
      if (!isObject(size)) {
        this.problem(at, 'must be an object { "code", "label", "chest"?, "length"?, "stock"? }');
        return;
      }
      this.unknownKeys(size, ['code', 'label', 'chest', 'length', 'stock'], at, 'a size');
      if (this.text(size.code, [...at, 'code'], { max: FORM_LIMITS.optionValueLength })) {
        const first = seen.get(size.code);
        if (first !== undefined) this.problem([...at, 'code'], `"${size.code}" is already the code of size ${first}`);
        else seen.set(size.code, i);
      }
      this.localText(size.label, [...at, 'label']);
      if (size.chest !== undefined) this.positiveNumber(size.chest, [...at, 'chest']);
      if (size.length !== undefined) this.positiveNumber(size.length, [...at, 'length']);
      if (size.stock !== undefined) this.integer(size.stock, [...at, 'stock'], 0);
    });
  }
}

const isScalar = (value: unknown): value is ScalarValue =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

function checkRuleList(
  checker: DocumentChecker,
  rules: unknown,
  path: Path,
  type: FieldType,
  key: unknown,
  allKeys: ReadonlySet<string>,
): void {
  if (!Array.isArray(rules)) {
    checker.problem(path, 'must be a list of rules, e.g. [{ "rule": "requiredText" }]');
    return;
  }
  const bounds: Partial<Record<RuleName, number>> = {};
  rules.forEach((rule, i) => {
    const at = [...path, i];
    if (!isObject(rule)) {
      checker.problem(at, 'must be an object { "rule": … }');
      return;
    }
    const name = rule.rule;
    if (typeof name !== 'string' || !(RULE_NAMES as readonly string[]).includes(name)) {
      checker.problem([...at, 'rule'], `must be one of ${RULE_NAMES.join(', ')}`);
      return;
    }
    const ruleName = name as RuleName;
    const valueKeys =
      ruleName === 'differsFrom' ? ['field'] : ['requiredText', 'positiveInteger'].includes(ruleName) ? [] : ['value'];
    checker.unknownKeys(rule, ['rule', 'message', ...valueKeys], at, `the rule ${ruleName}`);
    if (!RULE_FIELD_TYPES[ruleName].includes(type)) {
      checker.problem(
        [...at, 'rule'],
        `${ruleName} does not apply to ${aField(type)}; it applies to ${RULE_FIELD_TYPES[ruleName].join(', ')}`,
      );
    }
    if (rule.message !== undefined && !isMessageCode(rule.message)) {
      checker.problem([...at, 'message'], `"${String(rule.message)}" is not a message code of contract/messages.ts`);
    }
    if (ruleName === 'differsFrom') {
      if (typeof rule.field !== 'string' || !allKeys.has(rule.field)) {
        checker.problem([...at, 'field'], `must be the key of another field of this form`);
      } else if (rule.field === key) {
        checker.problem([...at, 'field'], 'must name another field, not this one');
      }
    } else if (valueKeys.includes('value')) {
      const ok =
        ruleName === 'min' || ruleName === 'max'
          ? typeof rule.value === 'number' && Number.isFinite(rule.value)
          : typeof rule.value === 'number' && Number.isInteger(rule.value) && rule.value >= 0;
      if (!ok) {
        checker.problem(
          [...at, 'value'],
          ruleName === 'min' || ruleName === 'max' ? 'must be a number' : 'must be a whole number, 0 or more',
        );
      } else {
        bounds[ruleName] = rule.value as number;
      }
    }
  });
  if (bounds.minLength !== undefined && bounds.maxLength !== undefined && bounds.minLength > bounds.maxLength) {
    checker.problem(path, `minLength ${bounds.minLength} is above maxLength ${bounds.maxLength}`);
  }
  if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
    checker.problem(path, `min ${bounds.min} is above max ${bounds.max}`);
  }
}

function checkFieldDefinition(
  checker: DocumentChecker,
  field: unknown,
  index: number,
  earlier: ReadonlyMap<string, unknown>,
  allKeys: ReadonlySet<string>,
  typeOfKey: ReadonlyMap<string, unknown>,
): void {
  const at: PropertyKey[] = ['fields', index];
  if (!isObject(field)) {
    checker.problem(at, 'must be an object { "key", "type", "label", … }');
    return;
  }
  const { key, type } = field;
  if (typeof key !== 'string' || !FIELD_KEY_PATTERN.test(key)) {
    checker.problem([...at, 'key'], 'must be a letter, then letters, digits or "_" (at most 40 characters)');
  }
  if (!isFieldType(type)) {
    checker.problem([...at, 'type'], `must be one of ${FIELD_TYPES.join(', ')}`);
    checker.unknownKeys(field, [...COMMON_KEYS, ...new Set(Object.values(TYPE_KEYS).flat())], at, 'a field');
    return;
  }
  checker.unknownKeys(field, [...COMMON_KEYS, ...(TYPE_KEYS[type] ?? [])], at, aField(type));
  checker.localText(field.label, [...at, 'label']);
  if (field.help !== undefined) checker.localText(field.help, [...at, 'help']);
  if (field.placeholder !== undefined) checker.localText(field.placeholder, [...at, 'placeholder']);
  if (field.required !== undefined && typeof field.required !== 'boolean') {
    checker.problem([...at, 'required'], 'must be true or false');
  }
  if (READ_ONLY_FIELD_TYPES.includes(type) && field.required === true) {
    checker.problem(
      [...at, 'required'],
      `${aField(type)} is set by the server, never by the runner: it cannot be required`,
    );
  }

  if (field.showWhen !== undefined) {
    const sw = field.showWhen;
    const swAt = [...at, 'showWhen'];
    if (!isObject(sw)) {
      checker.problem(
        swAt,
        'must be an object { "field": key of an earlier field, "equals": value or list of values }',
      );
    } else {
      checker.unknownKeys(sw, ['field', 'equals'], swAt, 'showWhen');
      if (typeof sw.field !== 'string' || !earlier.has(sw.field)) {
        checker.problem(
          [...swAt, 'field'],
          typeof sw.field === 'string' && allKeys.has(sw.field)
            ? `"${sw.field}" comes after this field; showWhen must name an earlier field`
            : 'must be the key of an earlier field of this form',
        );
      } else if (READ_ONLY_FIELD_TYPES.includes(earlier.get(sw.field) as FieldType)) {
        // A read-only field has no runner value; a condition on it could never hold while filling in.
        checker.problem([...swAt, 'field'], `"${sw.field}" is set by the server and cannot control another field`);
      }
      const equals = sw.equals;
      const fine = Array.isArray(equals) ? equals.length > 0 && equals.every(isScalar) : isScalar(equals);
      if (!fine) {
        checker.problem([...swAt, 'equals'], 'must be a string, number or boolean, or a non-empty list of them');
      }
    }
  }
  if (field.rules !== undefined) checkRuleList(checker, field.rules, [...at, 'rules'], type, key, allKeys);

  switch (type) {
    case 'radio':
    case 'checkbox':
    case 'picker':
      checker.options(field.options, [...at, 'options'], 'option');
      break;
    case 'date': {
      const min = field.min !== undefined && checker.date(field.min, [...at, 'min']) ? field.min : undefined;
      const max = field.max !== undefined && checker.date(field.max, [...at, 'max']) ? field.max : undefined;
      if (min !== undefined && max !== undefined && min > max) checker.problem([...at, 'max'], `is before min ${min}`);
      break;
    }
    case 'textarea':
      if (field.maxLength !== undefined) checker.integer(field.maxLength, [...at, 'maxLength'], 1);
      break;
    case 'image':
    case 'file':
      checker.upload(field.upload, [...at, 'upload'], type);
      break;
    case 'clothingSize':
      checker.sizes(field.sizes, [...at, 'sizes']);
      break;
    case 'scoreVerification':
      if (field.items !== undefined) checker.options(field.items, [...at, 'items'], 'item');
      break;
    case 'certificateNumber':
      if (typeof field.typeField !== 'string' || typeOfKey.get(field.typeField) !== 'certificateType') {
        checker.problem([...at, 'typeField'], 'must be the key of a certificateType field of this form');
      }
      break;
    default:
      break;
  }
}

/**
 * Checks a parsed registration-form document: every problem with its JSON path ($.fields[3].options[0].value)
 * and an English message for the organiser. `form` is the document, typed, when there is no problem. Never
 * throws, whatever the input.
 */
export function checkFormDocument(doc: unknown): { form?: RegistrationForm; problems: ConfigProblem[] } {
  const checker = new DocumentChecker();
  if (!isObject(doc)) {
    checker.problem([], 'the registration form must be a JSON object { "version": 1, "raceId", "fields": [...] }');
    return { problems: checker.problems };
  }
  checker.unknownKeys(doc, DOCUMENT_KEYS, [], 'the document');
  if (doc.version !== FORM_DOCUMENT_VERSION) checker.problem(['version'], `must be ${FORM_DOCUMENT_VERSION}`);
  checker.text(doc.raceId, ['raceId'], { max: 64 });
  if (doc.channel !== undefined && !isFormChannel(doc.channel)) {
    checker.problem(
      ['channel'],
      'must be lower-case letters, digits or "-", starting with a letter (e.g. "public", "direct")',
    );
  }
  if (doc.title !== undefined) checker.localText(doc.title, ['title']);
  const fields = doc.fields;
  if (!Array.isArray(fields) || fields.length === 0) {
    checker.problem(['fields'], 'must be a list of at least one field');
  } else {
    if (fields.length > FORM_LIMITS.fields)
      checker.problem(['fields'], `at most ${FORM_LIMITS.fields} fields are allowed`);
    const firstIndex = new Map<string, number>();
    const typeOfKey = new Map<string, unknown>();
    fields.forEach((field, i) => {
      const key = isObject(field) ? field.key : undefined;
      if (typeof key !== 'string') return;
      if (firstIndex.has(key)) {
        checker.problem(['fields', i, 'key'], `"${key}" is already the key of $.fields[${firstIndex.get(key)}]`);
      } else {
        firstIndex.set(key, i);
        typeOfKey.set(key, (field as Record<string, unknown>).type);
      }
    });
    const allKeys = new Set(firstIndex.keys());
    const earlier = new Map<string, unknown>();
    fields.forEach((field, i) => {
      checkFieldDefinition(checker, field, i, earlier, allKeys, typeOfKey);
      if (isObject(field) && typeof field.key === 'string' && !earlier.has(field.key))
        earlier.set(field.key, field.type);
    });
  }
  const problems = checker.problems;
  if (problems.length > 0) return { problems };
  return { form: JSON.parse(JSON.stringify(doc)) as RegistrationForm, problems };
}

// ---------------------------------------------------------------------------------------------------------
// Submissions
// ---------------------------------------------------------------------------------------------------------

/** What only the caller knows: the lists and records a value must be found in. Each check is skipped when absent. */
export interface SubmissionContext {
  /** The three codes name a district of a city of a province of the region data. */
  regionExists?(codes: readonly [string, string, string]): boolean;
  /** The twoCode is on the country list. */
  countryExists?(code: string): boolean;
  /** The result id is one of the runner's own finishes in the organiser's races (pastEvents, own score claims). */
  ownResult?(resultId: string): boolean;
  /** Pieces of a size still on offer (the server counts the registrations); default: the size's stock. */
  sizeLeft?(fieldKey: string, size: ClothingSize): number | undefined;
}

export type SubmissionValues = Readonly<Record<string, unknown>>;

const sameScalar = (a: unknown, b: ScalarValue): boolean => isScalar(a) && String(a) === String(b);

function conditionHolds(value: unknown, equals: ShowWhen['equals']): boolean {
  const wanted = Array.isArray(equals) ? equals : [equals];
  const given = Array.isArray(value) ? value : [value];
  return given.some((v) => wanted.some((w) => sameScalar(v, w)));
}

/**
 * The fields shown for these values, in order: a field with showWhen is shown while its controlling (earlier)
 * field is shown and holds one of the wanted values (for a checkbox: any chosen option).
 */
export function visibleFields(form: RegistrationForm, values: SubmissionValues): FormField[] {
  const shown = new Set<string>();
  const visible: FormField[] = [];
  for (const field of form.fields) {
    const sw = field.showWhen;
    if (sw && !(shown.has(sw.field) && conditionHolds(values[sw.field], sw.equals))) continue;
    shown.add(field.key);
    visible.push(field);
  }
  return visible;
}

/** The message of a rule: the rule's own when it names one, else the default. */
const ruleRefusal = (rule: FieldRule, code: MessageCode, params?: MessageParams): Refusal =>
  refuse(rule.message ?? code, params);

const textLength = (value: string) => [...value].length;

/** The required message of a field type. */
function requiredRefusal(field: FormField): Refusal {
  switch (field.type) {
    case 'phone':
      return refuse('phoneRequired');
    case 'email':
      return refuse('emailRequired');
    case 'certificateNumber':
      return refuse('certificateRequired');
    case 'input':
    case 'textarea': {
      const requiredText = field.rules?.find((r) => r.rule === 'requiredText');
      return requiredText?.message === 'nameInvalid' ? refuse('nameRequired') : refuse('fieldRequired');
    }
    case 'number':
    case 'url':
    case 'date':
      return refuse('fieldRequired');
    case 'image':
    case 'file':
      return refuse('uploadRequired');
    case 'region':
      return refuse('regionIncomplete');
    case 'scoreVerification':
      return refuse('scoreClaimRequired');
    default:
      return refuse('choiceRequired');
  }
}

const asText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

function checkScoreClaim(field: ScoreVerificationField, value: unknown, context: SubmissionContext): Refusal | null {
  if (!isObject(value)) return refuse('scoreClaimRequired');
  if (value.source === 'own') {
    const id = value.resultId;
    if (typeof id !== 'string' || !RESULT_ID_PATTERN.test(id)) return refuse('scoreClaimRequired');
    if (context.ownResult && !context.ownResult(id)) return refuse('badPastEvent');
    return null;
  }
  if (value.source !== 'outside') return refuse('scoreClaimRequired');
  const { raceName, item, chipTime, raceDate, certificateImage } = value;
  if (typeof raceName !== 'string' || raceName.trim() === '') return refuse('scoreRaceRequired');
  if (raceName.length > SCORE_CLAIM_LENGTHS.raceName) {
    return refuse('textTooLong', { count: SCORE_CLAIM_LENGTHS.raceName });
  }
  if (typeof item !== 'string' || item.trim() === '') return refuse('scoreItemRequired');
  if (field.items && !field.items.some((o) => o.value === item)) return refuse('badChoice');
  if (!field.items && item.length > SCORE_CLAIM_LENGTHS.item) {
    return refuse('textTooLong', { count: SCORE_CLAIM_LENGTHS.item });
  }
  if (typeof chipTime !== 'string' || !CHIP_TIME_PATTERN.test(chipTime)) return refuse('badChipTime');
  if (!isValidDate(raceDate)) return refuse('badRaceDate');
  const urls = uploadUrls(certificateImage);
  if (urls.length === 0) return refuse('certificateImageRequired');
  if (urls.length > 1) return refuse('tooManyFiles', { count: 1 });
  if (!isUploadUrl(urls[0]!)) return refuse('badUpload');
  return checkUploadExtension(fileNameOf(urls[0]!), IMAGE_EXTENSIONS);
}

/** The type's own check of a present (non-blank) value. */
function checkTypedValue(
  field: FormField,
  value: unknown,
  values: SubmissionValues,
  context: SubmissionContext,
): Refusal | null {
  switch (field.type) {
    case 'input':
    case 'textarea': {
      if (typeof value !== 'string') return refuse('invalidValue');
      if (field.type === 'textarea' && field.maxLength !== undefined && textLength(value) > field.maxLength) {
        return refuse('textTooLong', { count: field.maxLength });
      }
      return textLength(value) > FORM_LIMITS.textLength
        ? refuse('textTooLong', { count: FORM_LIMITS.textLength })
        : null;
    }
    case 'number': {
      const text = asText(value)?.trim();
      return text !== undefined && /^-?\d+(\.\d+)?$/.test(text) ? null : refuse('badNumber');
    }
    case 'email':
      return typeof value === 'string' ? checkEmail(value, 'account') : refuse('badEmail');
    case 'phone':
      return typeof value === 'string' ? checkPhone(value, { strict: true }) : refuse('badPhone');
    case 'url':
      return typeof value === 'string' ? checkUrl(value) : refuse('badUrl');
    case 'gender':
      return (Object.values(GENDERS) as unknown[]).includes(value) ? null : refuse('badChoice');
    case 'certificateType':
      return isCertificateType(value) ? null : refuse('badCertificateType');
    case 'certificateNumber': {
      if (typeof value !== 'string') return refuse('certificateRequired');
      const type = values[field.typeField];
      // Without a valid type the type field carries the refusal; the number is read as an ID card's.
      return checkCertificateNumber(isCertificateType(type) ? type : CERTIFICATE_TYPES.idCard, value);
    }
    case 'radio':
    case 'picker':
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? null : refuse('badChoice');
    case 'checkbox': {
      if (
        !Array.isArray(value) ||
        value.some((v) => typeof v !== 'string' || !field.options.some((o) => o.value === v))
      ) {
        return refuse('badChoice');
      }
      return new Set(value).size === value.length ? null : refuse('badChoice');
    }
    case 'country':
      if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) return refuse('badCountry');
      return context.countryExists && !context.countryExists(value) ? refuse('badCountry') : null;
    case 'date': {
      if (!isValidDate(value)) return refuse('badDate');
      if (field.min !== undefined && value < field.min) return refuse('dateTooEarly', { date: field.min });
      if (field.max !== undefined && value > field.max) return refuse('dateTooLate', { date: field.max });
      return null;
    }
    case 'image':
    case 'file': {
      if (typeof value !== 'string') return refuse('badUpload');
      const urls = uploadUrls(value);
      const tooMany = checkUploadCount(urls.length, field.upload.maxCount);
      if (tooMany) return tooMany;
      for (const url of urls) {
        if (!isUploadUrl(url)) return refuse('badUpload');
        const wrongType = checkUploadExtension(
          fileNameOf(url),
          field.type === 'image' ? IMAGE_EXTENSIONS : FILE_EXTENSIONS,
        );
        if (wrongType) return wrongType;
      }
      return null;
    }
    case 'region': {
      if (
        !Array.isArray(value) ||
        value.length !== 3 ||
        !value.every((c) => typeof c === 'string' && REGION_CODE_PATTERN.test(c))
      ) {
        return refuse('regionIncomplete');
      }
      const codes = value as [string, string, string];
      return context.regionExists && !context.regionExists(codes) ? refuse('regionUnknown') : null;
    }
    case 'clothingSize': {
      const size = typeof value === 'string' ? field.sizes.find((s) => s.code === value) : undefined;
      if (!size) return refuse('badClothingSize');
      const left = context.sizeLeft ? context.sizeLeft(field.key, size) : size.stock;
      return left !== undefined && left <= 0 ? refuse('sizeSoldOut') : null;
    }
    case 'pastEvents': {
      if (!Array.isArray(value) || value.some((id) => typeof id !== 'string' || !RESULT_ID_PATTERN.test(id))) {
        return refuse('badPastEvent');
      }
      if (new Set(value).size !== value.length) return refuse('badPastEvent');
      return context.ownResult && !value.every((id: string) => context.ownResult!(id)) ? refuse('badPastEvent') : null;
    }
    case 'scoreVerification':
      return checkScoreClaim(field, value, context);
    case 'scoreValidationPaid':
      return refuse('readOnlyField');
  }
}

/** The field's extra rules, in order; the first that fails answers. */
function checkFieldRules(field: FormField, value: unknown, values: SubmissionValues): Refusal | null {
  for (const rule of field.rules ?? []) {
    switch (rule.rule) {
      case 'requiredText': {
        const refusal = checkRequiredText(asText(value), { required: 'fieldRequired', invalid: 'textInvalid' });
        if (refusal?.code === 'textInvalid') return ruleRefusal(rule, 'textInvalid');
        break;
      }
      case 'positiveInteger':
        if (checkPositiveInteger(asText(value))) return ruleRefusal(rule, 'positiveInteger');
        break;
      case 'differsFrom': {
        const other = asText(values[rule.field]);
        const own = asText(value);
        if (
          other !== undefined &&
          own !== undefined &&
          other.trim() !== '' &&
          own.trim().toLowerCase() === other.trim().toLowerCase()
        ) {
          return ruleRefusal(rule, 'valueRepeated');
        }
        break;
      }
      case 'minLength':
      case 'maxLength': {
        const isList = Array.isArray(value);
        const length = isList ? value.length : typeof value === 'string' ? textLength(value) : 0;
        const params = { count: rule.value };
        if (rule.rule === 'minLength' && length < rule.value) {
          return ruleRefusal(rule, isList ? 'tooFewChoices' : 'textTooShort', params);
        }
        if (rule.rule === 'maxLength' && length > rule.value) {
          return ruleRefusal(rule, isList ? 'tooManyChoices' : 'textTooLong', params);
        }
        break;
      }
      case 'min':
      case 'max': {
        const number = Number(asText(value));
        if (rule.rule === 'min' && number < rule.value) return ruleRefusal(rule, 'numberTooSmall', { min: rule.value });
        if (rule.rule === 'max' && number > rule.value) return ruleRefusal(rule, 'numberTooLarge', { max: rule.value });
        break;
      }
    }
  }
  return null;
}

/** No answer: blank text, an empty list, a region without codes, an upload value without URLs. */
function isUnanswered(field: FormField, value: unknown): boolean {
  if (isBlank(value)) return true;
  if (field.type === 'region') return isRegionEmpty(value);
  return (
    (field.type === 'image' || field.type === 'file') && typeof value === 'string' && uploadUrls(value).length === 0
  );
}

function refusalOf(field: FormField, values: SubmissionValues, context: SubmissionContext): Refusal | null {
  const value = values[field.key];
  if (READ_ONLY_FIELD_TYPES.includes(field.type)) return value === undefined ? null : refuse('readOnlyField');
  const blank = isUnanswered(field, value);
  if (blank) return field.required ? requiredRefusal(field) : null;
  return checkTypedValue(field, value, values, context) ?? checkFieldRules(field, value, values);
}

/**
 * The keys of the other fields a field's check reads (differsFrom, the certificate number's type field), and
 * of the field that shows or hides it: the SPA re-checks the field when one of them changes (antd's
 * `dependencies`).
 */
export function fieldDependencies(field: FormField): string[] {
  const keys = new Set<string>();
  if (field.showWhen) keys.add(field.showWhen.field);
  if (field.type === 'certificateNumber') keys.add(field.typeField);
  for (const rule of field.rules ?? []) if (rule.rule === 'differsFrom') keys.add(rule.field);
  return [...keys];
}

/**
 * The refusal of one field for these values (the SPA on blur), or null: none for a hidden field or an unknown
 * key. Required, then the type's own check, then the field's rules.
 */
export function checkFieldValue(
  form: RegistrationForm,
  key: string,
  values: SubmissionValues,
  context: SubmissionContext = {},
): Refusal | null {
  const field = visibleFields(form, values).find((f) => f.key === key);
  return field ? refusalOf(field, values, context) : null;
}

/**
 * Every refusal of a submission, one per failing visible field, keyed by field key (empty when it passes).
 * Hidden fields are not checked (cleanSubmission drops their values); a value for a read-only field is refused.
 */
export function checkSubmission(
  form: RegistrationForm,
  values: SubmissionValues,
  context: SubmissionContext = {},
): Record<string, Refusal> {
  const refusals: Record<string, Refusal> = {};
  for (const field of visibleFields(form, values)) {
    const refusal = refusalOf(field, values, context);
    if (refusal) refusals[field.key] = refusal;
  }
  return refusals;
}

/**
 * The values to keep of a submission that passed: those of visible fields, blank ones left out, never a
 * read-only field's or an unknown key's; text trimmed, and a one-line text (`input`: a name as on a passport)
 * with each run of spaces inside made one.
 */
export function cleanSubmission(form: RegistrationForm, values: SubmissionValues): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const field of visibleFields(form, values)) {
    if (READ_ONLY_FIELD_TYPES.includes(field.type)) continue;
    const value = values[field.key];
    if (isUnanswered(field, value)) continue;
    if (field.type === 'image' || field.type === 'file') {
      const urls = uploadUrls(value);
      if (urls.length > 0) kept[field.key] = joinUploadValue(urls);
      continue;
    }
    if (typeof value === 'string') kept[field.key] = field.type === 'input' ? normalizeName(value) : value.trim();
    else kept[field.key] = value;
  }
  return kept;
}
