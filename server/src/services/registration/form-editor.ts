/**
 * The registration form of each entry channel, edited in the console (issue 33 §3) and published from there or
 * from the CLI (`site form-publish`) through the same function. A draft per race and channel keeps the
 * document text as typed (even when it does not pass the checks yet: nothing typed is lost), with who saved it
 * and when; reading a channel without a draft starts from its latest published version, or from a starter form
 * for that channel. The checks are the CLI's (db/registration-form-publisher.ts checkFormForRace: the
 * document's rules, each problem with its JSON path, the race and the channel); publishing refuses a document
 * with any problem, records the next version with who published it, and drops the draft. The same document
 * as the published one publishes nothing new. Saving is audited as form.draft, publishing as form.publish.
 */
import { DIRECT_FORM_CHANNEL } from '#contract/registration-screens';
import {
  DEFAULT_FORM_CHANNEL,
  FORM_DOCUMENT_VERSION,
  isFormChannel,
  type FormField,
  type RegistrationForm,
} from '#contract/registration-form';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import type { RaceInfo } from '#contract/site-config/race-types';
import type {
  FormActor,
  FormChannelsAnswer,
  FormChannelSummary,
  FormDraftAnswer,
  FormPublishAnswer,
  FormVersionsAnswer,
} from '#contract/form-editor';
import {
  checkFormForRace,
  FormRejectedError,
  publishRegistrationForm,
  storedForm,
  type FormPublication,
} from '../../db/registration-form-publisher.ts';
import type { FormActorRecord } from '../../db/registration-forms-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

export type FormEditorOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; reason: 'noRace' | 'badChannel' }
  | { ok: false; reason: 'problems'; problems: ConfigProblem[] };

const actorOf = (record: FormActorRecord): FormActor =>
  record ? { staffId: record.staffId, name: record.name || record.email } : null;
const staffIdOf = (actor: AuditActor): number | null => (actor.kind === 'staff' ? actor.staffId : null);

/** The channels the race's settings name: its sign-up's form channel, and 'direct' when it has the application. */
export function raceChannels(race: RaceInfo): string[] {
  const channels = [race.entry?.formChannel ?? DEFAULT_FORM_CHANNEL];
  if ((race.directApplication || race.entry?.directPass) && !channels.includes(DIRECT_FORM_CHANNEL)) {
    channels.push(DIRECT_FORM_CHANNEL);
  }
  return channels;
}

const text = (zh: string, en: string) => ({ zh, en });

/**
 * A sensible first form for a channel, as docs/registration-form.md recommends: the race item (its items), name,
 * gender, certificate type and number, date of birth, mobile phone, e-mail and the emergency contact (which
 * must differ from the runner); the direct-pass application adds the qualifying result.
 */
export function starterForm(race: RaceInfo, channel: string): RegistrationForm {
  const items = race.entry?.items ?? [];
  const fields: FormField[] = [];
  if (items.length > 0) {
    fields.push({
      key: 'item',
      type: 'radio',
      label: text('报名项目', 'Race item'),
      required: true,
      options: items.map((item) => ({ value: item.code, label: { zh: item.name.zh, en: item.name.en } })),
    });
  }
  fields.push(
    {
      key: 'name',
      type: 'input',
      label: text('姓名', 'Name'),
      required: true,
      placeholder: text('请输入与证件一致的姓名', 'Your name as on your certificate'),
      rules: [
        { rule: 'requiredText', message: 'nameInvalid' },
        { rule: 'maxLength', value: 30 },
      ],
    },
    { key: 'gender', type: 'gender', label: text('性别', 'Gender'), required: true },
    { key: 'certificateType', type: 'certificateType', label: text('证件类型', 'Certificate type'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: text('证件号码', 'Certificate number'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: text('出生日期', 'Date of birth'), required: true },
    { key: 'phone', type: 'phone', label: text('手机号码', 'Mobile phone'), required: true },
    { key: 'email', type: 'email', label: text('电子邮箱', 'E-mail'), required: true },
    {
      key: 'emergencyName',
      type: 'input',
      label: text('紧急联系人姓名', 'Emergency contact name'),
      required: true,
      rules: [{ rule: 'requiredText' }, { rule: 'differsFrom', field: 'name', message: 'emergencyNameSame' }],
    },
    {
      key: 'emergencyPhone',
      type: 'phone',
      label: text('紧急联系人电话', 'Emergency contact phone'),
      required: true,
      rules: [{ rule: 'differsFrom', field: 'phone', message: 'emergencyPhoneSame' }],
    },
  );
  if (channel === DIRECT_FORM_CHANNEL) {
    fields.push({
      key: 'qualifyingResult',
      type: 'scoreVerification',
      label: text('资格成绩', 'Qualifying result'),
      required: true,
    });
  }
  return {
    version: FORM_DOCUMENT_VERSION,
    raceId: race.raceId,
    channel,
    title: text(`${race.raceName} 报名信息`, `${race.raceNameEn ?? race.raceName} entry form`),
    fields,
  };
}

/** The document text as the console shows it: two-space JSON. */
const formText = (form: RegistrationForm) => `${JSON.stringify(form, null, 2)}\n`;

/** The checks of `form-publish` on a text for a race and channel: every problem with its JSON path. */
export async function checkFormText(
  repos: Repositories,
  raceId: string,
  channel: string,
  documentText: string,
): Promise<{ form?: RegistrationForm; problems: ConfigProblem[]; md5?: string }> {
  const { form, problems } = await checkFormForRace({
    repos,
    raceId,
    channel,
    bytes: Buffer.from(documentText, 'utf8'),
  });
  return form ? { form, problems, md5: storedForm(form, channel).md5 } : { problems };
}

async function startOf(repos: Repositories, raceId: string, channel: string) {
  if (!isFormChannel(channel)) return { ok: false as const, reason: 'badChannel' as const };
  const race = await repos.races.findById(raceId);
  if (!race) return { ok: false as const, reason: 'noRace' as const };
  return { ok: true as const, race };
}

async function draftAnswer(
  repos: Repositories,
  race: RaceInfo,
  channel: string,
  draft: { text: string; source: FormDraftAnswer['source']; savedAt: number | null; savedBy: FormActor },
): Promise<FormDraftAnswer> {
  const published = await repos.registrationForms.latest(race.raceId, channel);
  const checked = await checkFormText(repos, race.raceId, channel, draft.text);
  return {
    raceId: race.raceId,
    channel,
    ...draft,
    publishedVersion: published?.version ?? null,
    samePublished: checked.md5 !== undefined && checked.md5 === published?.md5,
    problems: checked.problems,
    form: checked.form ? { ...checked.form, channel } : null,
  };
}

/** The draft of a race and channel: the saved one, else the latest published version, else the starter form. */
export async function readFormDraft(
  repos: Repositories,
  raceId: string,
  channel: string,
): Promise<FormEditorOutcome<FormDraftAnswer>> {
  const start = await startOf(repos, raceId, channel);
  if (!start.ok) return start;
  const saved = await repos.registrationForms.draft(raceId, channel);
  if (saved) {
    return {
      ok: true,
      value: await draftAnswer(repos, start.race, channel, {
        text: saved.text,
        source: 'draft',
        savedAt: saved.savedAt,
        savedBy: actorOf(saved.savedBy),
      }),
    };
  }
  const published = await repos.registrationForms.latest(raceId, channel);
  const value = await draftAnswer(repos, start.race, channel, {
    text: formText(published ? published.form : starterForm(start.race, channel)),
    source: published ? 'published' : 'starter',
    savedAt: null,
    savedBy: null,
  });
  return { ok: true, value };
}

/** Keeps the text as the draft of a race and channel (whatever its problems), audited as form.draft. */
export async function saveFormDraft(
  repos: Repositories,
  actor: AuditActor,
  input: { raceId: string; channel: string; text: string },
  now: number,
): Promise<FormEditorOutcome<FormDraftAnswer>> {
  const start = await startOf(repos, input.raceId, input.channel);
  if (!start.ok) return start;
  const { problems } = await checkFormText(repos, input.raceId, input.channel, input.text);
  await repos.transaction(async (tx) => {
    await tx.registrationForms.saveDraft({ ...input, savedBy: staffIdOf(actor), now });
    await appendAudit(
      tx,
      actor,
      {
        action: 'form.draft',
        raceId: input.raceId,
        target: `${input.raceId} ${input.channel}`,
        after: { characters: input.text.length, problems: problems.length },
      },
      now,
    );
  });
  return readFormDraft(repos, input.raceId, input.channel);
}

/** The checks on a text without saving it (the console's editor as the organiser types). */
export async function checkFormDraft(
  repos: Repositories,
  input: { raceId: string; channel: string; text: string },
): Promise<FormEditorOutcome<FormDraftAnswer>> {
  const start = await startOf(repos, input.raceId, input.channel);
  if (!start.ok) return start;
  const saved = await repos.registrationForms.draft(input.raceId, input.channel);
  return {
    ok: true,
    value: await draftAnswer(repos, start.race, input.channel, {
      text: input.text,
      source: saved ? 'draft' : 'published',
      savedAt: saved?.savedAt ?? null,
      savedBy: actorOf(saved?.savedBy ?? null),
    }),
  };
}

/**
 * Publishes a document text as the next version of a race and channel (the console and `site form-publish`):
 * refused with every problem (nothing published); the same document as the published one records nothing.
 * A publication is audited as form.publish. From the console it drops the channel's draft (the published text
 * supersedes it); from the CLI only a draft of the same document.
 * `channel` absent (the CLI without --channel): the document's own, else 'public'.
 */
export async function publishFormText(
  repos: Repositories,
  actor: AuditActor,
  input: { raceId: string; channel?: string; text: string; source?: string },
  now: number,
): Promise<FormEditorOutcome<FormPublishAnswer>> {
  if (input.channel !== undefined && !isFormChannel(input.channel)) return { ok: false, reason: 'badChannel' };
  try {
    const result: FormPublication = await repos.transaction(async (tx) => {
      const publication = await publishRegistrationForm({
        repos: tx,
        raceId: input.raceId,
        channel: input.channel,
        bytes: Buffer.from(input.text, 'utf8'),
        now,
        source: input.source,
        publishedBy: staffIdOf(actor),
      });
      // The console publishes the text it edits, which supersedes its draft; the CLI publishes a file, and a
      // console draft that is another document stays (nothing typed is lost).
      const draft = await tx.registrationForms.draft(publication.raceId, publication.channel);
      const supersedes =
        actor.kind === 'staff' ||
        (draft !== undefined &&
          (await checkFormText(tx, publication.raceId, publication.channel, draft.text)).md5 === publication.md5);
      if (draft && supersedes) await tx.registrationForms.removeDraft(publication.raceId, publication.channel);
      if (!publication.unchanged) {
        await appendAudit(
          tx,
          actor,
          {
            action: 'form.publish',
            raceId: publication.raceId,
            target: `${publication.raceId} ${publication.channel}`,
            after: { version: publication.version, md5: publication.md5 },
          },
          now,
        );
      }
      return publication;
    });
    return { ok: true, value: result };
  } catch (error) {
    if (error instanceof FormRejectedError) return { ok: false, reason: 'problems', problems: error.problems };
    throw error;
  }
}

/** The race's channels (those its settings name, those published, those with a draft), each with its state. */
export async function formChannels(
  repos: Repositories,
  raceId: string,
): Promise<FormEditorOutcome<FormChannelsAnswer>> {
  const race = await repos.races.findById(raceId);
  if (!race) return { ok: false, reason: 'noRace' };
  const named = raceChannels(race);
  const published = (await repos.registrationForms.listLatest()).filter((form) => form.raceId === raceId);
  const drafts = await repos.registrationForms.drafts(raceId);
  const all = [...named];
  for (const channel of [...published.map((p) => p.channel), ...drafts.map((d) => d.channel)]) {
    if (!all.includes(channel)) all.push(channel);
  }
  const channels: FormChannelSummary[] = [];
  for (const channel of all) {
    const latest = published.find((p) => p.channel === channel);
    const history = latest ? await repos.registrationForms.history(raceId, channel) : [];
    const draft = drafts.find((d) => d.channel === channel);
    const checked = draft ? await checkFormText(repos, raceId, channel, draft.text) : undefined;
    channels.push({
      channel,
      inRace: named.includes(channel),
      published: latest
        ? {
            version: latest.version,
            publishedAt: latest.publishedAt,
            publishedBy: actorOf(history[0]?.publishedBy ?? null),
          }
        : null,
      draft:
        draft && checked
          ? {
              savedAt: draft.savedAt,
              savedBy: actorOf(draft.savedBy),
              differs: checked.md5 === undefined || checked.md5 !== latest?.md5,
              problems: checked.problems.length,
            }
          : null,
    });
  }
  return { ok: true, value: { raceId, channels } };
}

/** Every version published of a race and channel, newest first, with when and who (null: the CLI). */
export async function formVersions(
  repos: Repositories,
  raceId: string,
  channel: string,
): Promise<FormEditorOutcome<FormVersionsAnswer>> {
  const start = await startOf(repos, raceId, channel);
  if (!start.ok) return start;
  const history = await repos.registrationForms.history(raceId, channel);
  return {
    ok: true,
    value: { versions: history.map((v) => ({ ...v, publishedBy: actorOf(v.publishedBy) })) },
  };
}
