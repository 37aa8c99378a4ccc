/**
 * The organiser's SMS templates (issue 31 §4): which approved template of the provider each kind of message
 * (lib/sms/kinds.ts) is sent with, and which of the message's variables it takes. One variable,
 * SMS_TEMPLATES, holds them: a JSON object, or the path of a JSON file holding it (docs/sms-providers.md):
 *
 *   {
 *     "loginCode": "SMS_123",                                   // every variable of the kind, in its order
 *     "ballotWon": { "template": "SMS_456", "params": ["race", "entryNo", "deadline"],
 *                    "international": { "template": "SMS_789", "params": ["raceEn", "entryNo"] } },
 *     "bibAssigned": { "template": "1234567", "params": { "name": "entryNo", "no": "bib" } },
 *     "packShipped": false                                      // this kind is not sent by SMS
 *   }
 *
 * `params` is a list of the kind's variables (the template's variables have the same names; Tencent's
 * TemplateParamSet takes their values in this order) or an object naming, for each variable of the template,
 * the kind's variable that fills it. Mainland China numbers get `template`; other numbers `international`,
 * and without one the message is recorded as failed (noInternationalTemplate), never dropped unseen.
 *
 * With a real provider every kind must be listed (a template, or false on purpose): a kind left out, an
 * unknown kind or variable, stops the start naming SMS_TEMPLATES and what is wrong.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SMS_KIND_NAMES, SMS_KINDS, isSmsKind, type SmsKind } from './kinds.ts';

/** One template: its code (Aliyun SMS_…, Tencent's template ID) and its variables, [template's, ours]. */
export interface SmsTemplate {
  code: string;
  params: [templateVariable: string, variable: string][];
}

export interface KindTemplates {
  mainland: SmsTemplate;
  international?: SmsTemplate;
}

/** Kind → its templates, or null: not sent by SMS (the organiser said false). */
export type SmsTemplates = Record<SmsKind, KindTemplates | null>;

/** The start-up problems of SMS_TEMPLATES, each naming the variable. */
export class SmsTemplatesError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'SmsTemplatesError';
  }
}

const TEMPLATE_CODE = /^[\w.-]{1,64}$/;

function readTemplate(kind: SmsKind, where: string, value: unknown, problems: string[]): SmsTemplate | undefined {
  const variables: readonly string[] = SMS_KINDS[kind];
  const spec = typeof value === 'string' ? { template: value } : value;
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    problems.push(`SMS_TEMPLATES: ${where} must be a template code, an object { "template", "params" } or false`);
    return undefined;
  }
  const { template, params, ...rest } = spec as { template?: unknown; params?: unknown };
  for (const key of Object.keys(rest)) {
    if (!(where === kind && key === 'international')) problems.push(`SMS_TEMPLATES: ${where}.${key} is not a setting`);
  }
  if (typeof template !== 'string' || !TEMPLATE_CODE.test(template.trim())) {
    problems.push(`SMS_TEMPLATES: ${where}.template must be the provider's template code (e.g. SMS_123456789)`);
    return undefined;
  }
  let pairs: [string, string][];
  if (params === undefined) pairs = variables.map((name) => [name, name]);
  else if (Array.isArray(params)) pairs = params.map((name) => [String(name), String(name)]);
  else if (params !== null && typeof params === 'object') {
    pairs = Object.entries(params).map(([name, ours]) => [name, String(ours)]);
  } else {
    problems.push(`SMS_TEMPLATES: ${where}.params must be a list of variables or an object`);
    return undefined;
  }
  for (const [, ours] of pairs) {
    if (!variables.includes(ours)) {
      problems.push(
        `SMS_TEMPLATES: ${where}.params names "${ours}", not a variable of ${kind} (${variables.join(', ')})`,
      );
    }
  }
  return { code: template.trim(), params: pairs };
}

/** The templates of SMS_TEMPLATES (JSON, or a file path); throws SmsTemplatesError naming every problem. */
export function parseSmsTemplates(raw: string | undefined): SmsTemplates {
  const problems: string[] = [];
  const text = raw?.trim() ?? '';
  if (text === '') {
    throw new SmsTemplatesError([
      `SMS_TEMPLATES must be set with a real SMS provider: the template of each kind of message ` +
        `(${SMS_KIND_NAMES.join(', ')}), as JSON or the path of a JSON file (docs/sms-providers.md)`,
    ]);
  }
  let json: unknown;
  let source = text;
  if (!text.startsWith('{')) {
    if (!existsSync(text))
      throw new SmsTemplatesError([`SMS_TEMPLATES: no file ${text} (JSON, or a JSON file's path)`]);
    source = readFileSync(text, 'utf8');
  }
  try {
    json = JSON.parse(source);
  } catch (error) {
    throw new SmsTemplatesError([`SMS_TEMPLATES is not valid JSON: ${(error as Error).message}`]);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new SmsTemplatesError(['SMS_TEMPLATES must be a JSON object: kind → template']);
  }
  const given = json as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!isSmsKind(name))
      problems.push(`SMS_TEMPLATES: "${name}" is not a kind of message (${SMS_KIND_NAMES.join(', ')})`);
  }
  const templates = {} as SmsTemplates;
  for (const kind of SMS_KIND_NAMES) {
    const value = given[kind];
    if (value === undefined) {
      problems.push(`SMS_TEMPLATES: ${kind} has no template (give its template code, or false not to send it by SMS)`);
      continue;
    }
    if (value === false) {
      templates[kind] = null;
      continue;
    }
    const mainland = readTemplate(kind, kind, value, problems);
    const intlSpec =
      typeof value === 'object' && value !== null ? (value as { international?: unknown }).international : undefined;
    const international =
      intlSpec === undefined ? undefined : readTemplate(kind, `${kind}.international`, intlSpec, problems);
    if (mainland) templates[kind] = { mainland, ...(international ? { international } : {}) };
  }
  if (problems.length > 0) throw new SmsTemplatesError(problems);
  return templates;
}

/** The template a message to `phone` goes with, or why none. */
export function templateFor(
  templates: SmsTemplates,
  kind: SmsKind,
  mainland: boolean,
): { ok: true; template: SmsTemplate } | { ok: false; reason: 'kindNotSent' | 'noInternationalTemplate' } {
  const entry = templates[kind];
  if (!entry) return { ok: false, reason: 'kindNotSent' };
  if (mainland) return { ok: true, template: entry.mainland };
  return entry.international
    ? { ok: true, template: entry.international }
    : { ok: false, reason: 'noInternationalTemplate' };
}
