/**
 * The site page of the console (issue 33 §2): a domain's draft site configuration, checked, previewed and
 * published, and every publication kept as a version to compare and roll back to. The draft is stored as typed
 * (its text, even when it does not parse: nothing is lost); a publication goes through the same checks as the
 * CLI's `site publish` (db/site-config-publisher.ts), which publishes through publishSite below as well. Every
 * change is in the audit log: site.draft (save, discard), site.publish, site.rollback.
 */
import { createHash } from 'node:crypto';
import type { ConsoleMessageCode } from '#contract/console-messages';
import type { MessageParams } from '#contract/messages';
import type { SiteConfigReport } from '#contract/site-config/checks';
import type { SiteAuthor, SiteDomain, SiteDraftView, SiteVersion } from '#contract/site-drafts';
import { DOCUMENT_LIMITS } from '#contract/site-config/document-limits';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../../db/repositories.ts';
import {
  inspectSiteConfigBytes,
  publishSiteConfig,
  SiteConfigRejectedError,
  type PublishResult,
} from '../../db/site-config-publisher.ts';
import { siteConfigKey, type FileStore } from '../../lib/file-store.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

export interface SiteDraftDeps {
  repos: Repositories;
  files: FileStore;
  now: () => number;
}

export type SiteOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; code: ConsoleMessageCode; params?: MessageParams; report?: SiteConfigReport };

const refuse = (status: number, code: ConsoleMessageCode, params?: MessageParams): SiteOutcome<never> => ({
  ok: false,
  status,
  code,
  ...(params ? { params } : {}),
});

const md5Of = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('hex');

export type { SiteAuthor, SiteDomain, SiteDraftView, SiteVersion };

const author = (id: number | null, name: string | null): SiteAuthor => (id === null ? null : { id, name: name ?? '' });

/** The report of a draft's text: size, JSON syntax (line and column), schema, routes, unknown keys. */
export const checkSiteDraftText = (text: string): SiteConfigReport => inspectSiteConfigBytes(Buffer.from(text, 'utf8'));

/**
 * A new domain's first document, from the race's own data: its names as the site's title, nothing of the demo
 * (no logo, news, partners…); it passes the validator, and the organiser fills in the rest.
 */
export function starterSiteConfig(race: Pick<RaceInfo, 'raceName' | 'raceNameEn'>): string {
  const document = {
    version: '1',
    websiteTitle: race.raceName,
    websiteTitleEn: race.raceNameEn?.trim() ? race.raceNameEn : race.raceName,
    logo: '',
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** The domains bound to a race, each with its latest publication and draft. */
export async function raceSiteDomains(repos: Repositories, raceId: string): Promise<SiteDomain[]> {
  const domains: SiteDomain[] = [];
  for (const binding of await repos.bindings.list()) {
    if (binding.raceId !== raceId) continue;
    const published = await repos.siteConfigs.latestForDomain(binding.domainName);
    const draft = await repos.siteDrafts.find(binding.domainName);
    domains.push({
      domain: binding.domainName,
      published: published ? { md5: published.md5, publishedAt: published.publishedAt } : null,
      draft: draft ? { savedAt: draft.savedAt } : null,
    });
  }
  return domains;
}

/** The race a domain is bound to: refused unless it is `raceId` (when given). */
async function boundRace(repos: Repositories, domain: string, raceId?: string): Promise<SiteOutcome<RaceInfo>> {
  const binding = await repos.bindings.findByDomain(domain);
  if (!binding || (raceId !== undefined && binding.raceId !== raceId)) {
    return refuse(404, 'siteDomainNotBound', { domain });
  }
  const race = await repos.races.findById(binding.raceId);
  return race ? { ok: true, value: race } : refuse(404, 'siteDomainNotBound', { domain });
}

/** The race a domain is bound to (the SPA's preview knows only the domain; the route checks this race). */
export async function siteDomainRace(repos: Repositories, domain: string): Promise<string | undefined> {
  return (await repos.bindings.findByDomain(domain))?.raceId;
}

async function publishedText(files: FileStore, md5: string): Promise<string | undefined> {
  return (await files.get(siteConfigKey(md5)))?.toString('utf8');
}

/**
 * The draft of a domain bound to `raceId`: the saved draft, else the latest publication's text, else a starter
 * document from the race's data. Nothing is stored until the draft is saved.
 */
export async function readSiteDraft(
  deps: Pick<SiteDraftDeps, 'repos' | 'files'>,
  input: { raceId?: string; domain: string },
): Promise<SiteOutcome<SiteDraftView>> {
  const race = await boundRace(deps.repos, input.domain, input.raceId);
  if (!race.ok) return race;
  const published = await deps.repos.siteConfigs.latestForDomain(input.domain);
  const latest = published ? { md5: published.md5, publishedAt: published.publishedAt } : null;
  const saved = await deps.repos.siteDrafts.find(input.domain);
  let view: Omit<SiteDraftView, 'matchesPublished' | 'report'>;
  const common = { domain: input.domain, raceId: race.value.raceId, published: latest };
  if (saved) {
    view = {
      ...common,
      text: saved.text,
      source: 'draft',
      baseMd5: saved.baseMd5,
      savedAt: saved.savedAt,
      savedBy: author(saved.savedBy, saved.savedByName),
    };
  } else {
    const text = published ? await publishedText(deps.files, published.md5) : undefined;
    view =
      published && text !== undefined
        ? { ...common, text, source: 'published', baseMd5: published.md5, savedAt: null, savedBy: null }
        : {
            ...common,
            text: starterSiteConfig(race.value),
            source: 'starter',
            baseMd5: null,
            savedAt: null,
            savedBy: null,
          };
  }
  return {
    ok: true,
    value: {
      ...view,
      matchesPublished: latest !== null && md5Of(Buffer.from(view.text, 'utf8')) === latest.md5,
      report: checkSiteDraftText(view.text),
    },
  };
}

/** Saves the draft of a domain as typed (refused over the document's size limit). Audited as site.draft. */
export async function saveSiteDraft(
  deps: SiteDraftDeps,
  input: { raceId: string; domain: string; text: string; baseMd5: string | null; actor: AuditActor },
): Promise<SiteOutcome<SiteDraftView>> {
  const race = await boundRace(deps.repos, input.domain, input.raceId);
  if (!race.ok) return race;
  const bytes = Buffer.byteLength(input.text, 'utf8');
  if (bytes > DOCUMENT_LIMITS.maxBytes) {
    return refuse(413, 'siteDraftTooLarge', { bytes, max: DOCUMENT_LIMITS.maxBytes });
  }
  const now = deps.now();
  const report = checkSiteDraftText(input.text);
  await deps.repos.transaction(async (tx) => {
    await tx.siteDrafts.save({
      domainName: input.domain,
      text: input.text,
      baseMd5: input.baseMd5,
      savedBy: input.actor.kind === 'staff' ? input.actor.staffId : null,
      savedAt: now,
    });
    await appendAudit(
      tx,
      input.actor,
      {
        action: 'site.draft',
        raceId: input.raceId,
        target: input.domain,
        after: { bytes, md5: md5Of(input.text), errors: report.errors.length, warnings: report.warnings.length },
      },
      now,
    );
  });
  return readSiteDraft(deps, input);
}

/** Discards the draft of a domain (the next read starts from the latest publication). Audited as site.draft. */
export async function discardSiteDraft(
  deps: SiteDraftDeps,
  input: { raceId: string; domain: string; actor: AuditActor },
): Promise<SiteOutcome<SiteDraftView>> {
  const race = await boundRace(deps.repos, input.domain, input.raceId);
  if (!race.ok) return race;
  await deps.repos.transaction(async (tx) => {
    const draft = await tx.siteDrafts.find(input.domain);
    if (!(await tx.siteDrafts.remove(input.domain))) return;
    await appendAudit(
      tx,
      input.actor,
      {
        action: 'site.draft',
        raceId: input.raceId,
        target: input.domain,
        before: { md5: md5Of(draft?.text ?? '') },
        after: { discarded: true },
      },
      deps.now(),
    );
  });
  return readSiteDraft(deps, input);
}

/**
 * Publishes a document for a domain after the same checks as the CLI's (errors refuse it, with the report) and
 * records who did it; audited as `action` (site.publish, or site.rollback with the version rolled back to).
 * The CLI's `site publish` and the console both publish through here.
 */
export async function publishSite(
  deps: SiteDraftDeps,
  input: {
    domain: string;
    bytes: Buffer;
    actor: AuditActor;
    source: string;
    action?: 'site.publish' | 'site.rollback';
  },
): Promise<SiteOutcome<PublishResult & { bound: boolean }>> {
  const { repos, files } = deps;
  const now = deps.now();
  const before = await repos.siteConfigs.latestForDomain(input.domain);
  const binding = await repos.bindings.findByDomain(input.domain);
  let result: PublishResult;
  try {
    result = await publishSiteConfig({
      siteConfigs: repos.siteConfigs,
      files,
      domainName: input.domain,
      bytes: input.bytes,
      now,
      source: input.source,
      publishedBy: input.actor.kind === 'staff' ? input.actor.staffId : null,
    });
  } catch (error) {
    if (error instanceof SiteConfigRejectedError) {
      const report = { errors: error.problems, warnings: inspectSiteConfigBytes(input.bytes).warnings };
      return { ok: false, status: 400, code: 'siteDraftInvalid', params: { count: error.problems.length }, report };
    }
    throw error;
  }
  await appendAudit(
    repos,
    input.actor,
    {
      action: input.action ?? 'site.publish',
      raceId: binding?.raceId ?? null,
      target: input.domain,
      before: before ? { md5: before.md5 } : null,
      after: { md5: result.md5, bytes: input.bytes.length, warnings: result.warnings.length },
    },
    now,
  );
  return { ok: true, value: { ...result, bound: binding !== undefined } };
}

/** Publishes the saved draft of a domain; the draft then starts from the new publication. */
export async function publishSiteDraft(
  deps: SiteDraftDeps,
  input: { raceId: string; domain: string; actor: AuditActor },
): Promise<SiteOutcome<{ published: PublishResult; draft: SiteDraftView }>> {
  const race = await boundRace(deps.repos, input.domain, input.raceId);
  if (!race.ok) return race;
  const draft = await deps.repos.siteDrafts.find(input.domain);
  if (!draft) return refuse(400, 'siteDraftMissing');
  const published = await publishSite(deps, {
    domain: input.domain,
    bytes: Buffer.from(draft.text, 'utf8'),
    actor: input.actor,
    source: 'The draft',
  });
  if (!published.ok) return published;
  await deps.repos.siteDrafts.save({
    domainName: draft.domainName,
    text: draft.text,
    baseMd5: published.value.md5,
    savedBy: draft.savedBy,
    savedAt: draft.savedAt,
  });
  const view = await readSiteDraft(deps, input);
  if (!view.ok) return view;
  return { ok: true, value: { published: published.value, draft: view.value } };
}

/** Every publication of a domain, newest first. */
export async function siteVersions(
  deps: Pick<SiteDraftDeps, 'repos'>,
  input: { raceId: string; domain: string },
): Promise<SiteOutcome<SiteVersion[]>> {
  const race = await boundRace(deps.repos, input.domain, input.raceId);
  if (!race.ok) return race;
  const rows = await deps.repos.siteConfigs.listForDomain(input.domain);
  return {
    ok: true,
    value: rows.map((row, i) => ({
      md5: row.md5,
      publishedAt: row.publishedAt,
      publishedBy: author(row.publishedBy, row.publishedByName),
      bytes: row.byteLength,
      current: i === 0,
    })),
  };
}

/** The exact text of one publication of a domain. */
export async function siteVersionText(
  deps: Pick<SiteDraftDeps, 'repos' | 'files'>,
  input: { raceId: string; domain: string; md5: string },
): Promise<SiteOutcome<{ md5: string; text: string }>> {
  const race = await boundRace(deps.repos, input.domain, input.raceId);
  if (!race.ok) return race;
  const versions = await deps.repos.siteConfigs.listForDomain(input.domain);
  if (!versions.some((v) => v.md5 === input.md5)) return refuse(404, 'siteVersionNotFound');
  const text = await publishedText(deps.files, input.md5);
  return text === undefined ? refuse(404, 'siteVersionNotFound') : { ok: true, value: { md5: input.md5, text } };
}

/** Publishes an earlier version's exact bytes again, as a new publication. Audited as site.rollback. */
export async function rollbackSite(
  deps: SiteDraftDeps,
  input: { raceId: string; domain: string; md5: string; actor: AuditActor },
): Promise<SiteOutcome<PublishResult>> {
  const version = await siteVersionText(deps, input);
  if (!version.ok) return version;
  const bytes = await deps.files.get(siteConfigKey(input.md5));
  if (!bytes) return refuse(404, 'siteVersionNotFound');
  const published = await publishSite(deps, {
    domain: input.domain,
    bytes,
    actor: input.actor,
    source: `Version ${input.md5}`,
    action: 'site.rollback',
  });
  return published.ok ? { ok: true, value: published.value } : published;
}
