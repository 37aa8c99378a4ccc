/**
 * The console's registration-form editor (issue 33 §3): the calls under /api/admin/races/:raceId/forms (staff
 * with 'site'), read by the console's forms page and by the SPA's form preview (`?preview=form`, which shows
 * the draft as the runner will fill it). A draft is the document text as typed, kept even when it does not
 * pass the checks; publishing runs the same checks as the CLI's `form-publish` (contract/registration-form.ts
 * checkFormDocument, plus the race and the channel) and records the next version.
 */
import type { RegistrationForm } from './registration-form.ts';
import type { ConfigProblem } from './site-config/document-limits.ts';

/** Who saved or published: a staff member, or null for the command line (and the demo seed). */
export type FormActor = { staffId: number; name: string } | null;

/** The console's API paths of the form editor (under /api/admin). */
export const FORM_EDITOR_PATHS = {
  channels: (raceId: string) => `/races/${encodeURIComponent(raceId)}/forms`,
  draft: (raceId: string, channel: string) =>
    `/races/${encodeURIComponent(raceId)}/forms/${encodeURIComponent(channel)}/draft`,
  check: (raceId: string, channel: string) =>
    `/races/${encodeURIComponent(raceId)}/forms/${encodeURIComponent(channel)}/check`,
  publish: (raceId: string, channel: string) =>
    `/races/${encodeURIComponent(raceId)}/forms/${encodeURIComponent(channel)}/publish`,
  versions: (raceId: string, channel: string) =>
    `/races/${encodeURIComponent(raceId)}/forms/${encodeURIComponent(channel)}/versions`,
} as const;

/** The largest draft text the console takes (the CLI's document limit, in characters). */
export const FORM_DRAFT_MAX_CHARS = 1024 * 1024;

/** One entry channel of a race: its published version and its draft. */
export interface FormChannelSummary {
  channel: string;
  /** The race's settings name this channel (entry.formChannel, or 'direct' for the direct-pass application). */
  inRace: boolean;
  published: { version: number; publishedAt: number; publishedBy: FormActor } | null;
  /** A saved draft: `differs` when it is not the published document, `problems` how many the checks find. */
  draft: { savedAt: number; savedBy: FormActor; differs: boolean; problems: number } | null;
}

export interface FormChannelsAnswer {
  raceId: string;
  channels: FormChannelSummary[];
}

/** Where a draft's text came from: a saved draft, the latest published version, or the starter form. */
export type FormDraftSource = 'draft' | 'published' | 'starter';

/** GET …/draft, POST …/draft (save), POST …/check: the text, every problem by JSON path, the form when it passes. */
export interface FormDraftAnswer {
  raceId: string;
  channel: string;
  text: string;
  source: FormDraftSource;
  savedAt: number | null;
  savedBy: FormActor;
  /** The channel's published version (null: none yet). */
  publishedVersion: number | null;
  /** The text is the published document (nothing to publish). */
  samePublished: boolean;
  problems: ConfigProblem[];
  /** The checked document (null while there is a problem). */
  form: RegistrationForm | null;
}

/** POST …/publish: the version recorded (or the published one, when the document is already it). */
export interface FormPublishAnswer {
  raceId: string;
  channel: string;
  version: number;
  md5: string;
  unchanged: boolean;
}

/** The refusal of a publication with problems (code 422 formProblems): each problem by JSON path. */
export interface FormProblemsData {
  problems: ConfigProblem[];
}

export interface FormVersionsAnswer {
  versions: { version: number; md5: string; publishedAt: number; publishedBy: FormActor }[];
}
