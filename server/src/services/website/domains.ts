/**
 * The organiser's domains (the CLI's `site list`, `bind`, `unbind`; `publish`: site-drafts.ts): which race each domain is
 * bound to, its published site configuration, and the published registration forms. What the public site
 * answers from them is in site-configs.ts.
 */
import type { PublishedForm } from '#contract/registration-form';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { Repositories } from '../../db/repositories.ts';

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
  | { ok: false; reason: 'noRace' };

/** Binds `domainName` to race `raceId` (replacing its binding): the race, the race it was bound to, and whether it has a site configuration. */
export async function bindDomain(
  repos: Repositories,
  domainName: string,
  raceId: string,
  now: number,
): Promise<BindOutcome> {
  const race = await repos.races.findById(raceId);
  if (!race) return { ok: false, reason: 'noRace' };
  const previous = await repos.bindings.findByDomain(domainName);
  await repos.bindings.bind(domainName, raceId, now);
  const hasSiteConfig = (await repos.siteConfigs.latestForDomain(domainName)) !== undefined;
  return { ok: true, race, previousRaceId: previous?.raceId, hasSiteConfig };
}

/** Removes the binding of `domainName`; false when it had none. */
export const unbindDomain = (repos: Repositories, domainName: string): Promise<boolean> =>
  repos.bindings.unbind(domainName);
