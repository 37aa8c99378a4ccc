/**
 * One entry as the organiser console shows it (issue 30 §5; contract/console-entry.ts): its person (certificate
 * number and phone masked), every answer of the registration form by the form's labels (the form the public
 * sign-up uses: the race's form channel, its latest publication), its orders with their payments and refunds,
 * the timeline with who took each step, the letter, the pick-up, the mailing and the refund or deferral
 * requests. The whole numbers are a separate read (entryPersonal), recorded in the audit log each time.
 */
import { letterVersionHash } from '#contract/after-entry';
import type {
  ConsoleEntryAnswer,
  ConsoleEntryDetail,
  ConsoleEntryPersonal,
  EntryStepActor,
} from '#contract/console-entry';
import type { TimelineStep } from '#contract/entry';
import type { FormField, LocalText } from '#contract/registration-form';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { EntryEvent, EntryRecord } from '../../db/entries-repository.ts';
import { refundCause } from '../entry/refunds-owed.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskDestination } from '../../lib/accounts.ts';
import { maskCertNo, maskMobile } from '../../lib/race-center.ts';
import { publishedForm } from '../registration/published-forms.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { formChannelOf, itemOf } from '../entry/views.ts';

/** The steps a runner takes themselves; every other step without an actor is the server's. */
const RUNNER_STEPS: ReadonlySet<TimelineStep> = new Set([
  'submitted',
  'paid',
  'refundRequested',
  'deferralRequested',
  'letterSigned',
  'pickupBooked',
]);

/** The race's entry `entryNo`, with the race; undefined when either is missing. */
export async function findRaceEntry(
  repos: Repositories,
  raceId: string,
  entryNo: string,
): Promise<{ race: RaceInfo; entry: EntryRecord } | undefined> {
  const entry = await repos.entries.findByNo(entryNo.trim().toUpperCase());
  if (!entry || entry.raceId !== raceId) return undefined;
  const race = await repos.races.findById(raceId);
  return race ? { race, entry } : undefined;
}

/** The actor as the timeline names it: a staff member by their name (their e-mail when they have none). */
async function actorsOf(repos: Repositories, events: readonly EntryEvent[]) {
  const names = new Map<number, string>();
  for (const event of events) {
    const match = /^staff:(\d+)$/.exec(event.actor ?? '');
    if (!match) continue;
    const id = Number(match[1]);
    if (names.has(id)) continue;
    const staff = await repos.staff.findById(id);
    names.set(id, staff ? staff.name || staff.email : `#${id}`);
  }
  return (event: EntryEvent): EntryStepActor => {
    const actor = event.actor ?? null;
    if (actor === null) return RUNNER_STEPS.has(event.step) ? { kind: 'runner' } : { kind: 'system' };
    const staff = /^staff:(\d+)$/.exec(actor);
    if (staff) return { kind: 'staff', staffId: Number(staff[1]), name: names.get(Number(staff[1])) ?? '' };
    return { kind: 'cli', name: actor.replace(/^cli:/, '') };
  };
}

/** A personal number in an answer, masked as the console shows it. */
export function maskedAnswer(field: FormField, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (field.type === 'certificateNumber') return maskCertNo(value);
  if (field.type === 'phone') return maskMobile(value);
  return value;
}

/** The choices a field offers, if it offers any. */
const optionsOf = (field: FormField) =>
  field.type === 'radio' || field.type === 'checkbox' || field.type === 'picker'
    ? field.options.map((o) => ({ value: String(o.value), label: o.label }))
    : field.type === 'clothingSize'
      ? field.sizes.map((s) => ({ value: s.code, label: s.label }))
      : undefined;

/** The label of an option (or several) the form defines for a value. */
function shownOf(field: FormField, value: unknown): LocalText | LocalText[] | undefined {
  const options = optionsOf(field);
  if (!options) return undefined;
  const label = (v: unknown) => options.find((o) => o.value === String(v))?.label;
  if (Array.isArray(value)) {
    const labels = value.map(label).filter((l): l is LocalText => l !== undefined);
    return labels.length > 0 ? labels : undefined;
  }
  return label(value);
}

/** Every answer of the form, in the form's order, by its labels (a field left empty is listed with null). */
export function answersOf(fields: readonly FormField[], values: Record<string, unknown>): ConsoleEntryAnswer[] {
  return fields.map((field) => {
    const value = values[field.key] ?? null;
    const shown = value === null ? undefined : shownOf(field, value);
    const options = optionsOf(field);
    return {
      key: field.key,
      label: field.label,
      type: field.type,
      value: maskedAnswer(field, value),
      required: field.required === true,
      ...(shown === undefined ? {} : { shown }),
      ...(options === undefined ? {} : { options }),
    };
  });
}

/** The console's view of one entry (see the file's comment); undefined when the race has no such entry. */
export async function entryDetail(
  repos: Repositories,
  raceId: string,
  entryNo: string,
): Promise<ConsoleEntryDetail | undefined> {
  const found = await findRaceEntry(repos, raceId, entryNo);
  if (!found) return undefined;
  const { race, entry } = found;
  const form = await publishedForm(repos, raceId, formChannelOf(race.entry));
  const values = await repos.entries.valuesOf(entry.id);
  const events = (await repos.entries.events([entry.id])).get(entry.id) ?? [];
  const actorOf = await actorsOf(repos, events);
  const orders = [];
  for (const order of await repos.orders.ofEntry(entry.id)) {
    const line = (await repos.orders.lines(order.id)).find((l) => l.entryId === entry.id);
    orders.push({
      orderNo: order.orderNo,
      status: order.status,
      amountFen: order.amountFen,
      paidFen: order.paidFen,
      refundedFen: order.refundedFen,
      subOrderNo: line?.subOrderNo ?? '',
      lineFen: line?.amountFen ?? 0,
      createdAt: order.createdAt,
      deadlineAt: order.deadlineAt,
      paidAt: order.paidAt,
      serialNo: order.serialNo,
      payments: (await repos.payments.ofOrder(order.id)).map((p) => ({
        paymentId: p.paymentId,
        provider: p.provider,
        amountFen: p.amountFen,
        status: p.status,
        tradeNo: p.tradeNo,
        createdAt: p.createdAt,
        updatedAt: p.updatedAt,
      })),
      refunds: (await repos.payments.refundsOf(order.id))
        .filter((r) => r.entryId === null || r.entryId === entry.id)
        .map((r) => ({
          refundNo: r.refundNo,
          amountFen: r.amountFen,
          reason: r.reason,
          cause: refundCause(r.reason),
          status: r.status,
          attempts: r.attempts,
          lastError: r.lastError,
          createdAt: r.createdAt,
          doneAt: r.doneAt,
        })),
    });
  }
  const letter = race.commitmentLetter;
  const signature = (await repos.letters.newestOf([entry.id])).get(entry.id);
  const booking = (await repos.pickup.liveBookings([entry.id])).get(entry.id);
  const mailing = await repos.runnerChoices.mailing(raceId, entry.userId);
  const team = entry.teamId === null ? undefined : await repos.entries.findTeamById(entry.teamId);
  const contact = await repos.ballots.contactOf(entry.userId);
  const requests = await repos.refunds.ofEntry(entry.id);
  return {
    entryNo: entry.entryNo,
    raceId,
    itemCode: entry.itemCode,
    itemName: itemOf(race.entry, entry.itemCode)?.name ?? { zh: entry.itemCode, en: entry.itemCode },
    itemModel: itemOf(race.entry, entry.itemCode)?.model ?? null,
    channel: entry.channel,
    status: entry.status,
    holdsPlace: entry.holdsPlace,
    waitRank: entry.waitRank,
    bib: entry.bib,
    feeFen: entry.feeFen,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    person: {
      name: entry.name,
      gender: entry.gender,
      birthday: entry.birthday,
      certType: entry.certType,
      certMasked: maskCertNo(entry.certNumber),
      phoneMasked: maskMobile(entry.phone),
    },
    account: { userId: entry.userId, contactMasked: contact ? maskDestination(contact.destination) : '' },
    team: team ? { code: team.teamCode, name: team.name } : null,
    answers: form ? answersOf(form.form.fields, values) : null,
    formVersion: form?.version ?? null,
    orders,
    timeline: events.map((event) => ({ step: event.step, at: event.at, note: event.note, actor: actorOf(event) })),
    letter: {
      enabled: letter?.enabled === true,
      signed: signature !== undefined,
      current: signature !== undefined && letter !== undefined && signature.versionHash === letterVersionHash(letter),
      signedAt: signature?.signedAt ?? null,
      signerName: signature?.signerName ?? null,
    },
    pickup: booking
      ? {
          slotId: booking.slotId,
          status: booking.status,
          collectedAt: booking.collectedAt,
          collectedBy: booking.collectedBy,
        }
      : null,
    mailing: mailing
      ? {
          method: mailing.method,
          address: mailing.address,
          shipment: mailing.shipment
            ? {
                carrier: mailing.shipment.carrier,
                trackingNo: mailing.shipment.trackingNo,
                shippedAt: mailing.shipment.shippedAt,
              }
            : null,
        }
      : null,
    requests: requests.map((r) => ({
      id: r.id,
      kind: r.kind,
      status: r.status,
      reason: r.reason,
      amountFen: r.amountFen,
      rejectReason: r.rejectReason,
      createdAt: r.createdAt,
      decidedAt: r.decidedAt,
    })),
    allows: { transfer: race.entry?.allowTransfer === true },
  };
}

/**
 * The whole certificate number and phone of one entry (permission entries.personal), the opening recorded in
 * the audit log (who, when, which entry: never the numbers).
 */
export async function entryPersonal(
  repos: Repositories,
  raceId: string,
  entryNo: string,
  actor: AuditActor,
  now: number,
): Promise<ConsoleEntryPersonal | undefined> {
  const found = await findRaceEntry(repos, raceId, entryNo);
  if (!found) return undefined;
  const { entry } = found;
  await appendAudit(repos, actor, { action: 'entry.personal', raceId, target: entry.entryNo }, now);
  return { certNumber: entry.certNumber, phone: entry.phone };
}
