/**
 * The organiser's domains (the CLI's `site list`, `bind`, `unbind`, `publish`): which race each domain is
 * bound to, its published site configuration, and the published registration forms. What the public site
 * answers from them is in site-configs.ts.
 */
import type { PublishedForm } from '#contract/registration-form';
import type { OrganiserRace } from '#contract/race-admin';
import type { RaceInfo } from '#contract/site-config/race-types';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../../db/repositories.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';

/** One domain as `site list` shows it: its binding (with the race, when it still exists) and its latest publication. */
export interface DomainOverview {
  domainName: string;
  binding: { raceId: string; race: RaceInfo | undefined } | undefined;
  published: { md5: string; publishedAt: number } | undefined;
}

/** Every domain bound or published (by name), and the latest registration form of each race and channel. */
export async function domainsOverview(
  repos: Repositories,
): Promise<{ domains: DomainOverview[]; forms: Omit<PublishedForm, 'form'>[] }> {
  const bindings = new Map((await repos.bindings.list()).map((b) => [b.domainName, b]));
  const published = new Map((await repos.siteConfigs.listLatest()).map((p) => [p.domainName, p]));
  const domains: DomainOverview[] = [];
  for (const domainName of [...new Set([...bindings.keys(), ...published.keys()])].sort()) {
    const binding = bindings.get(domainName);
    const config = published.get(domainName);
    domains.push({
      domainName,
      binding: binding ? { raceId: binding.raceId, race: await repos.races.findById(binding.raceId) } : undefined,
      published: config ? { md5: config.md5, publishedAt: config.publishedAt } : undefined,
    });
  }
  return { domains, forms: await repos.registrationForms.listLatest() };
}

export type BindOutcome =
  | { ok: true; race: RaceInfo; previousRaceId: string | undefined; hasSiteConfig: boolean }
  | { ok: false; reason: 'noRace' }
  | { ok: false; reason: 'boundElsewhere' | 'forbidden'; raceId: string };

export interface BindOptions {
  /** Who binds (domain.bind in the audit log, in the same transaction). */
  actor: AuditActor;
  /**
   * Whether a domain bound to another race moves to this one (the CLI's `bind` replaces; the console asks
   * first and says so); false: refused as boundElsewhere, naming that race.
   */
  move: boolean;
  /** The races the actor may change (null: every race): a domain of another race is refused as forbidden. */
  allowedRaces?: string[] | null;
}

/**
 * Binds `domainName` to race `raceId`: the race, the race it was bound to, and whether it has a site
 * configuration. A domain bound to another race moves only with `move`.
 */
export async function bindDomain(
  repos: Repositories,
  domainName: string,
  raceId: string,
  now: number,
  options: BindOptions,
): Promise<BindOutcome> {
  const { actor, move, allowedRaces = null } = options;
  return repos.transaction(async (tx) => {
    await tx.db.lock(`domain-bind:${domainName}`);
    const race = await tx.races.findById(raceId);
    if (!race) return { ok: false, reason: 'noRace' };
    const previous = await tx.bindings.findByDomain(domainName);
    if (previous && previous.raceId !== raceId) {
      if (allowedRaces !== null && !allowedRaces.includes(previous.raceId)) {
        return { ok: false, reason: 'forbidden', raceId: previous.raceId };
      }
      if (!move) return { ok: false, reason: 'boundElsewhere', raceId: previous.raceId };
    }
    await tx.bindings.bind(domainName, raceId, now);
    if (previous?.raceId !== raceId) {
      await appendAudit(
        tx,
        actor,
        {
          action: 'domain.bind',
          raceId,
          target: domainName,
          before: previous ? { raceId: previous.raceId } : null,
          after: { raceId },
        },
        now,
      );
    }
    const hasSiteConfig = (await tx.siteConfigs.latestForDomain(domainName)) !== undefined;
    return { ok: true, race, previousRaceId: previous?.raceId, hasSiteConfig };
  });
}

export type UnbindOutcome =
  { ok: true; raceId: string } | { ok: false; reason: 'notBound' } | { ok: false; reason: 'forbidden'; raceId: string };

/** Removes the binding of `domainName` (domain.unbind in the audit log); notBound when it had none. */
export async function unbindDomain(
  repos: Repositories,
  domainName: string,
  now: number,
  options: { actor: AuditActor; allowedRaces?: string[] | null },
): Promise<UnbindOutcome> {
  const { actor, allowedRaces = null } = options;
  return repos.transaction(async (tx) => {
    await tx.db.lock(`domain-bind:${domainName}`);
    const previous = await tx.bindings.findByDomain(domainName);
    if (!previous) return { ok: false, reason: 'notBound' };
    if (allowedRaces !== null && !allowedRaces.includes(previous.raceId)) {
      return { ok: false, reason: 'forbidden', raceId: previous.raceId };
    }
    if (!(await tx.bindings.unbind(domainName))) return { ok: false, reason: 'notBound' };
    await appendAudit(
      tx,
      actor,
      {
        action: 'domain.unbind',
        raceId: previous.raceId,
        target: domainName,
        before: { raceId: previous.raceId },
        after: null,
      },
      now,
    );
    return { ok: true, raceId: previous.raceId };
  });
}

/** The organiser's races (those of `allowed`, or all) with their domains and whether each has a published site. */
export async function organiserRaces(repos: Repositories, allowed: string[] | null): Promise<OrganiserRace[]> {
  const bindings = await repos.bindings.list();
  const published = new Map((await repos.siteConfigs.listLatest()).map((p) => [p.domainName, p.publishedAt]));
  return (await repos.races.list())
    .filter((race) => allowed === null || allowed.includes(race.raceId))
    .map((race) => ({
      raceId: race.raceId,
      raceName: { zh: race.raceName, en: race.raceNameEn || race.raceName },
      startTime: race.startTime ?? null,
      timeZone: raceTimeZone(race),
      place: race.detailAddress ?? null,
      signUpOpen: race.signUpOpenStatus === 1,
      itemCount: race.entry?.items.length ?? 0,
      domains: bindings
        .filter((b) => b.raceId === race.raceId)
        .map((b) => ({
          domainName: b.domainName,
          boundAt: b.boundAt,
          publishedAt: published.get(b.domainName) ?? null,
        })),
    }));
}
