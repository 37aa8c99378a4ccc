/**
 * The sign-up form's draft (issue #28): what a runner has typed, kept in browser storage per race, item and
 * account for DRAFT_DAYS, so Back, a reload or a closed tab loses nothing. Personal numbers never go into
 * browser storage: the values of certificate-number and phone fields are left out of every draft and the
 * runner types them again. Uploaded files are kept as their URLs. One storage key (ENTRY_DRAFTS_KEY) holds
 * every draft; a successful submission removes its draft and logging out (clearUserData) removes them all.
 * What is read back goes through a schema: corrupt or foreign data, or an expired draft, is removed.
 */
import * as z from 'zod/mini';
import { PARTICIPANT_KEYS } from '#contract/entry';
import type { RegistrationForm } from '#contract/registration-form';
import { localStore, type KeyValueStore } from '@/lib/storage';
import { ENTRY_DRAFTS_KEY, readUserData } from '@/lib/user-data';
import type { FormValues } from '../components/registration-form';

/** Days a draft is kept after its last change. */
export const DRAFT_DAYS = 7;
const DRAFT_MS = DRAFT_DAYS * 24 * 60 * 60 * 1000;

/** Field types whose values never go into browser storage. */
const SECRET_TYPES: readonly string[] = ['certificateNumber', 'phone'];

const valuesSchema = z.record(z.string(), z.unknown());
const draftSchema = z.object({
  savedAt: z.number(),
  /** The people saved so far (a race that allows several). */
  people: z.array(valuesSchema),
  /** The open form's values. */
  current: valuesSchema,
});
const draftsSchema = z.object({ v: z.literal(1), drafts: z.record(z.string(), draftSchema) });

export type EntryDraft = z.infer<typeof draftSchema>;
type Drafts = z.infer<typeof draftsSchema>;

/** Whose draft: the logged-in account (its id in the stored user data). */
function accountOf(storage: KeyValueStore): string {
  try {
    const data = readUserData(storage);
    const id = data?.accountInfo?.accountId ?? data?.accountInfo?.userId ?? data?.userInfo?.userId;
    return id === undefined || id === null ? 'account' : String(id);
  } catch {
    return 'account'; // corrupt user data is the start-up's to remove
  }
}

export function draftKey(raceId: string, itemCode: string, storage: KeyValueStore = localStore): string {
  return `${raceId}|${itemCode}|${accountOf(storage)}`;
}

/** Every stored draft still valid at `now`; corrupt data is removed, expired drafts are dropped. */
function readDrafts(storage: KeyValueStore, now: number): Drafts {
  const raw = storage.getItem(ENTRY_DRAFTS_KEY);
  if (raw === null) return { v: 1, drafts: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const result = draftsSchema.safeParse(parsed);
  if (!result.success) {
    storage.removeItem(ENTRY_DRAFTS_KEY);
    return { v: 1, drafts: {} };
  }
  const drafts = Object.fromEntries(
    Object.entries(result.data.drafts).filter(([, d]) => d.savedAt <= now && now - d.savedAt < DRAFT_MS),
  );
  return { v: 1, drafts };
}

function writeDrafts(storage: KeyValueStore, drafts: Drafts): void {
  if (Object.keys(drafts.drafts).length) storage.setItem(ENTRY_DRAFTS_KEY, JSON.stringify(drafts));
  else storage.removeItem(ENTRY_DRAFTS_KEY);
}

/** A person's values without the fields never kept in browser storage. */
export function withoutSecrets(form: RegistrationForm, values: FormValues): FormValues {
  const secret = new Set(secretFields(form).map((f) => f.key));
  return Object.fromEntries(Object.entries(values).filter(([key]) => !secret.has(key)));
}

/** The form's fields a restored draft leaves empty (the runner types them again). */
export function secretFields(form: RegistrationForm): RegistrationForm['fields'] {
  return form.fields.filter((f) => SECRET_TYPES.includes(f.type));
}

export function readDraft(key: string, { storage = localStore as KeyValueStore, now = Date.now() } = {}) {
  return readDrafts(storage, now).drafts[key];
}

export function saveDraft(
  key: string,
  form: RegistrationForm,
  draft: { people: FormValues[]; current: FormValues },
  { storage = localStore as KeyValueStore, now = Date.now() } = {},
): void {
  const all = readDrafts(storage, now);
  // The item is the draft's key, not a value typed: a form with nothing else typed is no draft.
  const kept = (values: FormValues) => {
    const { [PARTICIPANT_KEYS.item]: _item, ...rest } = withoutSecrets(form, values);
    return rest;
  };
  const people = draft.people.map(kept);
  const current = kept(draft.current);
  if (people.length || Object.keys(current).length) all.drafts[key] = { savedAt: now, people, current };
  else delete all.drafts[key];
  writeDrafts(storage, all);
}

export function removeDraft(key: string, { storage = localStore as KeyValueStore, now = Date.now() } = {}): void {
  const all = readDrafts(storage, now);
  delete all.drafts[key];
  writeDrafts(storage, all);
}

/** The item of the account's latest draft for the race (the sign-up page opens on it), if any. */
export function latestDraftItem(
  raceId: string,
  { storage = localStore as KeyValueStore, now = Date.now() } = {},
): string | undefined {
  const prefix = `${raceId}|`;
  const suffix = `|${accountOf(storage)}`;
  let latest: { item: string; savedAt: number } | undefined;
  for (const [key, draft] of Object.entries(readDrafts(storage, now).drafts)) {
    if (!key.startsWith(prefix) || !key.endsWith(suffix)) continue;
    const item = key.slice(prefix.length, key.length - suffix.length);
    if (!latest || draft.savedAt > latest.savedAt) latest = { item, savedAt: draft.savedAt };
  }
  return latest?.item;
}
