/**
 * The organiser's commands of the registration screens (issue 13 §4), run by site.ts: the direct-pass review
 * (direct-list, direct-show, direct-approve, direct-reject with a reason the runner reads in /direct). Each
 * answers the lines to print, or the lines of its refusal. The race-pack mailing commands are in
 * mailing-commands.ts.
 *
 * Personal numbers stay masked in what these commands print.
 */
import { isDirectStatus, type DirectStatus } from '#contract/registration-screens';
import { formatRaceTime } from '#contract/race-clock';
import { raceTimeZone } from '#contract/time-zone';
import type { Repositories } from '../db/repositories.ts';
import { formatDuration, maskName } from '../lib/race-center.ts';
import {
  directApplicationById,
  directApplicationForReview,
  directApplicationsOf,
  maskValues,
  reviewApplication,
} from '../services/registration/direct-applications.ts';
import { resultOfClaim } from '../services/registration/own-results.ts';

export type CommandOutcome = { ok: true; lines: string[] } | { ok: false; lines: string[] };

const done = (...lines: string[]): CommandOutcome => ({ ok: true, lines });
const refused = (...lines: string[]): CommandOutcome => ({ ok: false, lines });

/** The statuses as the organiser reads them. */
export const DIRECT_STATUS_NAMES: Record<DirectStatus, string> = {
  0: 'waiting to submit',
  1: 'submitted, awaiting review',
  2: 'approved',
  3: 'rejected',
};

/** '--status' of direct-list: 0-3, or undefined when the text is none of them. */
export function parseDirectStatus(text: string): DirectStatus | undefined {
  const n = /^[0-3]$/.test(text) ? Number(text) : NaN;
  return isDirectStatus(n) ? n : undefined;
}

/** '--id' arguments: a positive whole number. */
const applicationId = (text: string) => (/^[1-9]\d{0,15}$/.test(text) ? Number(text) : undefined);

export const REJECT_REASON_MAX = 500;

export async function directList(repos: Repositories, raceId: string, status?: DirectStatus): Promise<CommandOutcome> {
  const found = await directApplicationsOf(repos, raceId, status);
  if (!found) return refused(`No race "${raceId}".`);
  const { race, applications } = found;
  const zone = raceTimeZone(race);
  if (applications.length === 0) {
    return done(
      status === undefined
        ? `No direct-pass application for ${raceId}.`
        : `No direct-pass application for ${raceId} with status ${status} (${DIRECT_STATUS_NAMES[status]}).`,
    );
  }
  return done(
    `${applications.length} direct-pass application${applications.length === 1 ? '' : 's'} for ${raceId} (times: race clock, ${zone}):`,
    ...applications.map((a) => {
      const submitted =
        a.submittedAt === null ? 'not submitted' : `submitted ${formatRaceTime(a.submittedAt, undefined, zone)}`;
      return `  ${a.id}  ${a.status} ${DIRECT_STATUS_NAMES[a.status]}  ${maskName(a.name) || '(no name)'}  ${submitted}`;
    }),
  );
}

/** One value as the organiser reads it (lists joined, a claimed result spelled out). */
async function shownValue(repos: Repositories, value: unknown): Promise<string> {
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (value && typeof value === 'object') {
    const claim = value as Record<string, unknown>;
    if (claim.source === 'own' && typeof claim.resultId === 'string') {
      const row = await resultOfClaim(repos, claim.resultId);
      return row
        ? `own result ${claim.resultId}: ${row.item} ${formatDuration(row.chip_ms)} (verified against our results)`
        : `own result ${claim.resultId} (no longer in our results)`;
    }
    if (claim.source === 'outside') {
      return `outside result: ${String(claim.raceName)} ${String(claim.raceDate)}, ${String(claim.item)} ${String(claim.chipTime)}, certificate ${String(claim.certificateImage)} (check it)`;
    }
    return JSON.stringify(value);
  }
  return String(value);
}

export async function directShow(repos: Repositories, idText: string): Promise<CommandOutcome> {
  const id = applicationId(idText);
  const found = id === undefined ? undefined : await directApplicationForReview(repos, id);
  if (!found) return refused(`No direct-pass application ${idText}.`);
  const { record, race, form } = found;
  const zone = raceTimeZone(race);
  const time = (ms: number | null) => (ms === null ? '-' : formatRaceTime(ms, undefined, zone));
  const lines = [
    `direct-pass application ${record.id} for ${record.raceId}`,
    `  status:    ${record.status} ${DIRECT_STATUS_NAMES[record.status]}`,
    `  created:   ${time(record.createdAt)}`,
    `  updated:   ${time(record.updatedAt)}`,
    `  submitted: ${time(record.submittedAt)}`,
    `  reviewed:  ${time(record.reviewedAt)}`,
  ];
  if (record.status === 3 && record.rejectReason) lines.push(`  reason:    ${record.rejectReason}`);
  lines.push('values (certificate and phone numbers masked):');
  const masked = maskValues(form, record.values);
  const labels = new Map(form?.fields.map((f) => [f.key, f.label.en]) ?? []);
  for (const [key, value] of Object.entries(masked)) {
    lines.push(`  ${key}${labels.has(key) ? ` (${labels.get(key)})` : ''}: ${await shownValue(repos, value)}`);
  }
  return done(...lines);
}

export async function directReview(
  repos: Repositories,
  idText: string,
  outcome: { status: 2 } | { status: 3; reason: string },
  now: number,
): Promise<CommandOutcome> {
  const id = applicationId(idText);
  const record = id === undefined ? undefined : await directApplicationById(repos, id);
  if (!record) return refused(`No direct-pass application ${idText}.`);
  const reviewed = await reviewApplication(repos, record.id, outcome, now, { actor: { kind: 'cli' } });
  if (!reviewed.ok) {
    const current = reviewed.reason === 'notAwaiting' ? reviewed.status : record.status;
    return refused(
      `Application ${record.id} is not awaiting review (status ${current}: ${DIRECT_STATUS_NAMES[current]}); only a submitted application (status 1) can be approved or rejected.`,
    );
  }
  return done(
    outcome.status === 2
      ? `approved direct-pass application ${record.id} (${maskName(record.name)})`
      : `rejected direct-pass application ${record.id} (${maskName(record.name)}); the runner reads the reason in /direct`,
  );
}
