/**
 * Publishing a registration-form document (contract/registration-form.ts): check it, then record it as the
 * next version of its race and entry channel. The CLI (`site form-validate`, `site form-publish`) and the
 * demo seed (`<SEED_DIR>/registration-forms/*.json`) both go through here.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  checkFormDocument,
  DEFAULT_FORM_CHANNEL,
  formChannel,
  isFormChannel,
  type RegistrationForm,
} from '#contract/registration-form';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import { parseJsonText } from '../lib/json-text.ts';
import type { Repositories } from './repositories.ts';

/** A form document is at most this many bytes. */
export const FORM_DOCUMENT_MAX_BYTES = 1024 * 1024;

export class FormRejectedError extends Error {
  constructor(
    readonly problems: ConfigProblem[],
    source: string,
  ) {
    super(
      `${source} is not a valid registration form:\n` + problems.map((p) => `  ${p.path}: ${p.message}`).join('\n'),
    );
    this.name = 'FormRejectedError';
  }
}

/** The document in a file's bytes, or every problem with its JSON path (size, JSON syntax, the document's rules). */
export function inspectFormBytes(bytes: Buffer): { form?: RegistrationForm; problems: ConfigProblem[] } {
  if (bytes.length > FORM_DOCUMENT_MAX_BYTES) {
    const message = `the document is ${bytes.length} bytes; at most ${FORM_DOCUMENT_MAX_BYTES} are allowed`;
    return { problems: [{ path: '$', message }] };
  }
  const parsed = parseJsonText(bytes.toString('utf8'));
  if (!parsed.ok) return { problems: [{ path: '$', message: parsed.message }] };
  return checkFormDocument(parsed.value);
}

export interface FormPublication {
  raceId: string;
  channel: string;
  version: number;
  md5: string;
  /** The same document was already the published one: nothing was recorded. */
  unchanged: boolean;
}

/**
 * Every problem of a document for a race and channel (the argument, else the document's, else 'public'): the
 * document's own (size, JSON syntax, its rules, each with its JSON path), then a raceId or channel that
 * differs from the arguments, a race that does not exist. The checks of `form-publish` and the console's.
 */
export async function checkFormForRace(input: {
  repos: Pick<Repositories, 'races'>;
  raceId: string;
  channel?: string;
  bytes: Buffer;
}): Promise<{ form?: RegistrationForm; problems: ConfigProblem[] }> {
  const { form, problems } = inspectFormBytes(input.bytes);
  if (!form) return { problems };
  const refused: ConfigProblem[] = [];
  if (form.raceId !== input.raceId) {
    refused.push({
      path: '$.raceId',
      message: `is "${form.raceId}", but the form is published for race "${input.raceId}"`,
    });
  }
  if (input.channel !== undefined && !isFormChannel(input.channel)) {
    refused.push({ path: '$', message: `the channel "${input.channel}" must be lower-case letters, digits or "-"` });
  } else if (input.channel !== undefined && form.channel !== undefined && form.channel !== input.channel) {
    refused.push({
      path: '$.channel',
      message: `is "${form.channel}", but the form is published for channel "${input.channel}"`,
    });
  }
  if (refused.length === 0 && !(await input.repos.races.findById(input.raceId))) {
    refused.push({
      path: '$.raceId',
      message: `no race "${input.raceId}"; add it first with: site add-race <race.json>`,
    });
  }
  return refused.length > 0 ? { problems: refused } : { form, problems: [] };
}

/** The document as stored and served: the checked document with its channel spelled out, and its md5. */
export function storedForm(form: RegistrationForm, channel: string): { documentJson: string; md5: string } {
  const documentJson = JSON.stringify({ ...form, channel });
  return { documentJson, md5: createHash('md5').update(documentJson).digest('hex') };
}

/**
 * Checks a document for a race (and channel: the argument, else the document's, else 'public') and publishes
 * it. Throws FormRejectedError with every problem (checkFormForRace).
 */
export async function publishRegistrationForm(input: {
  repos: Pick<Repositories, 'races' | 'registrationForms'>;
  raceId: string;
  channel?: string;
  bytes: Buffer;
  now: number;
  /** Names the document in error messages (a file path). */
  source?: string;
  /** The staff member publishing from the console (absent: the CLI, the seed). */
  publishedBy?: number | null;
}): Promise<FormPublication> {
  const source = input.source ?? 'The document';
  const { form, problems } = await checkFormForRace(input);
  if (!form) throw new FormRejectedError(problems, source);

  const channel = input.channel ?? formChannel(form);
  const { documentJson, md5 } = storedForm(form, channel);
  const { version, unchanged } = await input.repos.registrationForms.publish({
    raceId: input.raceId,
    channel,
    documentJson,
    md5,
    now: input.now,
    publishedBy: input.publishedBy ?? null,
  });
  return { raceId: input.raceId, channel, version, md5, unchanged };
}

/**
 * The demo forms, published when no form is published yet (so an existing data folder gains them on its next
 * start): every `*.json` of `<seedDir>/registration-forms/`, each naming its race and channel. An invalid
 * document, or one for a race that is not there, stops start-up with its problems.
 */
export async function seedRegistrationFormsIfEmpty(input: {
  repos: Repositories;
  seedDir: string;
  now: number;
}): Promise<FormPublication[]> {
  const folder = path.join(input.seedDir, 'registration-forms');
  if (!existsSync(folder) || (await input.repos.registrationForms.count()) > 0) return [];
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const documents = files.map((name) => {
    const file = path.join(folder, name);
    const bytes = readFileSync(file);
    const { form, problems } = inspectFormBytes(bytes);
    if (!form) throw new FormRejectedError(problems, file);
    return { file, bytes, raceId: form.raceId, channel: form.channel ?? DEFAULT_FORM_CHANNEL };
  });
  return input.repos.transaction(async (repos) => {
    await repos.db.lock('seed');
    if ((await repos.registrationForms.count()) > 0) return [];
    const published: FormPublication[] = [];
    for (const doc of documents) {
      published.push(
        await publishRegistrationForm({
          repos,
          raceId: doc.raceId,
          channel: doc.channel,
          bytes: doc.bytes,
          now: input.now,
          source: doc.file,
        }),
      );
    }
    return published;
  });
}
