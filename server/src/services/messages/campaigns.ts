/**
 * Messages to a chosen set of entrants (issue 32 §2): the organiser writes one text in Chinese and English
 * with the entrant's own fields as placeholders (MESSAGE_VARIABLES), chooses who gets it (item, status, sign-up
 * channel, letter signed or not, pick-up booked or not, one entry) and how (SMS, e-mail, or every way the
 * runner has), and sends it now or at a time. When it goes (now, or the `send-messages` job at its time) every
 * matching entry gets its copy in the outbox, in its runner's language (users.language; unknown: Chinese),
 * spread at MESSAGES_PER_MINUTE: the SMS and e-mail senders (plugins/delivery.ts) send each copy when its turn
 * comes, record sent / failed (bounced) per runner, and try a transient failure again; a failed copy can be
 * queued again from the console. Every send, schedule, cancel and retry is in the audit log.
 *
 * With a real SMS provider (Aliyun, Tencent: approved templates only) the SMS copy is the raceNotice
 * template (lib/sms/kinds.ts: race, title), telling the runner a message waits in their personal centre; the
 * text itself goes by e-mail, to the outbox and to "my messages".
 */
import { ENTRY_STATUSES, LIVE_ENTRY_STATUSES } from '#contract/entry';
import { letterVersionHash } from '#contract/after-entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import {
  AUDIENCE_LETTER,
  AUDIENCE_PICKUP,
  MESSAGE_CHANNELS,
  MESSAGE_VARIABLES,
  type AudiencePreview,
  type CampaignView,
  type DeliveryRow,
  type DeliveryState,
  type MessageAudience,
  type MessageChannel,
  type MessageLanguage,
  type MessageText,
  type MyMessage,
} from '#contract/runner-messages';
import type { AudienceQuery, AudienceRow, CampaignRecord } from '../../db/messages-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskDestination } from '../../lib/accounts.ts';
import { maskName } from '../../lib/race-center.ts';
import { smsContent } from '../../lib/sms/kinds.ts';
import { appendAudit, type AuditActor } from '../staff/audit.ts';
import { checkText, refuse, renderIn, type MessagesOutcome } from './templates.ts';

/** MESSAGES_PER_MINUTE when unset. */
export const DEFAULT_MESSAGES_PER_MINUTE = 60;
/** Recipients shown before sending. */
const SAMPLE = 8;
/** Messages listed in the console. */
const LIST_LIMIT = 100;
const ENTRY_CHANNELS = ['public', 'direct', 'code', 'team', 'charity'] as const;
const STATUSES = Object.values(ENTRY_STATUSES) as number[];
const WON = [ENTRY_STATUSES.won];

/** The audience as the console or a URL gives it (strings), checked against the race. */
export function checkAudience(race: RaceInfo, raw: Record<string, unknown>): MessagesOutcome<MessageAudience> {
  const audience: MessageAudience = {};
  const text = (key: string) => {
    const value = raw[key];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const bad = (field: string) => refuse(400, 'messageAudienceInvalid', { field });
  const item = text('item');
  if (item !== undefined) {
    if (!(race.entry?.items ?? []).some((i) => i.code === item)) return bad('item');
    audience.item = item;
  }
  const status = text('status');
  if (status !== undefined) {
    if (!/^\d$/.test(status) || !STATUSES.includes(Number(status))) return bad('status');
    audience.status = Number(status);
  }
  const channel = text('channel');
  if (channel !== undefined) {
    if (!(ENTRY_CHANNELS as readonly string[]).includes(channel)) return bad('channel');
    audience.channel = channel;
  }
  const letter = text('letter');
  if (letter !== undefined) {
    if (!(AUDIENCE_LETTER as readonly string[]).includes(letter)) return bad('letter');
    audience.letter = letter as MessageAudience['letter'];
  }
  const pickup = text('pickup');
  if (pickup !== undefined) {
    if (!(AUDIENCE_PICKUP as readonly string[]).includes(pickup)) return bad('pickup');
    audience.pickup = pickup as MessageAudience['pickup'];
  }
  const entryNo = text('entryNo');
  if (entryNo !== undefined) {
    if (!/^[\w-]{1,40}$/.test(entryNo)) return bad('entryNo');
    audience.entryNo = entryNo;
  }
  return { ok: true, value: audience };
}

const audienceQuery = (race: RaceInfo, audience: MessageAudience): AudienceQuery => ({
  ...audience,
  raceId: race.raceId,
  statuses: LIVE_ENTRY_STATUSES,
  wonStatuses: WON,
  letterHash: race.commitmentLetter?.enabled ? letterVersionHash(race.commitmentLetter) : null,
});

/** The ways an entry's runner is reached by `channel`. */
const waysOf = (row: AudienceRow, channel: MessageChannel): { channel: 'sms' | 'email'; destination: string }[] => {
  const ways: { channel: 'sms' | 'email'; destination: string }[] = [];
  if (channel !== 'email' && row.phone) ways.push({ channel: 'sms', destination: row.phone });
  if (channel !== 'sms' && row.email) ways.push({ channel: 'email', destination: row.email });
  return ways;
};

const itemName = (race: RaceInfo, code: string) =>
  race.entry?.items?.find((i) => i.code === code)?.name ?? { zh: code, en: code };

/** Who a message would reach: the counts and a few of them. */
export async function previewAudience(
  repos: Repositories,
  race: RaceInfo,
  audience: MessageAudience,
  channel: MessageChannel,
): Promise<AudiencePreview> {
  const rows = await repos.messages.audience(audienceQuery(race, audience));
  const preview: AudiencePreview = { entries: rows.length, sms: 0, email: 0, unreachable: 0, sample: [] };
  for (const row of rows) {
    const ways = waysOf(row, channel);
    if (ways.length === 0) preview.unreachable += 1;
    for (const way of ways) preview[way.channel] += 1;
    if (preview.sample.length < SAMPLE && ways.length > 0) {
      const item = itemName(race, row.itemCode);
      preview.sample.push({
        entryNo: row.entryNo,
        name: maskName(row.name),
        item: item.zh,
        channels: ways.map((w) => w.channel),
        language: row.language ?? 'zh',
      });
    }
  }
  return preview;
}

export interface CampaignInput {
  text: MessageText;
  channel: string;
  audience: Record<string, unknown>;
  /** Epoch ms (the console converts the race's local time); absent: now. */
  sendAt?: number;
}

/**
 * Sends (or schedules) a message to the audience: refused with nothing written when the text, the audience or
 * the time is wrong, or when nobody would get it. Audited: message-send (now) or message-schedule.
 */
export async function createCampaign(
  repos: Repositories,
  race: RaceInfo,
  input: CampaignInput,
  actor: AuditActor,
  now: number,
  perMinute: number,
): Promise<MessagesOutcome<CampaignView>> {
  const text = checkText(input.text ?? ({} as MessageText), MESSAGE_VARIABLES);
  if (!text.ok) return text;
  if (!(MESSAGE_CHANNELS as readonly string[]).includes(input.channel)) {
    return refuse(400, 'messageAudienceInvalid', { field: 'channel' });
  }
  const channel = input.channel as MessageChannel;
  const audience = checkAudience(race, input.audience ?? {});
  if (!audience.ok) return audience;
  if (input.sendAt !== undefined && input.sendAt <= now) return refuse(400, 'messageSendAtPast');
  const preview = await previewAudience(repos, race, audience.value, channel);
  if (preview.sms + preview.email === 0) return refuse(400, 'messageAudienceEmpty');
  const sendAt = input.sendAt ?? now;
  const id = await repos.messages.addCampaign({
    raceId: race.raceId,
    text: text.value,
    channel,
    audience: audience.value,
    state: 'scheduled',
    sendAt,
    createdAt: now,
    createdBy: actor.kind === 'cli' ? 'cli' : `staff:${actor.staffId}`,
  });
  await appendAudit(
    repos,
    actor,
    {
      action: input.sendAt === undefined ? 'message-send' : 'message-schedule',
      raceId: race.raceId,
      target: `message:${id}`,
      after: { channel, audience: audience.value, sendAt, subject: text.value.subjectZh, matched: preview.entries },
    },
    now,
  );
  if (input.sendAt === undefined) await releaseCampaign(repos, id, now, perMinute);
  return { ok: true, value: (await campaignViews(repos, [(await repos.messages.campaign(id))!]))[0]! };
}

/**
 * Sends a scheduled message whose time has come: its copies into the outbox, one per entry and way, in the
 * runner's language, spread `perMinute` a minute after whatever copies still wait. Once (claimed).
 */
export async function releaseCampaign(repos: Repositories, id: number, now: number, perMinute: number) {
  if (!(await repos.messages.claimCampaign(id))) return 0;
  const campaign = (await repos.messages.campaign(id))!;
  const race = await repos.races.findById(campaign.raceId);
  const rows = race ? await repos.messages.audience(audienceQuery(race, campaign.audience)) : [];
  const last = await repos.messages.lastThrottled();
  const start = last === null || last <= now ? now : last + 60_000;
  const rate = Math.max(1, Math.floor(perMinute));
  let count = 0;
  for (const row of rows) {
    const item = itemName(race!, row.itemCode);
    const values = {
      name: maskName(row.name),
      race: race!.raceName,
      raceEn: race!.raceNameEn || race!.raceName,
      item: item.zh,
      itemEn: item.en || item.zh,
      entryNo: row.entryNo,
      bib: row.bib ?? '',
    };
    const language: MessageLanguage = row.language ?? 'zh';
    const { subject, body } = renderIn(campaign.text, language, values);
    for (const way of waysOf(row, campaign.channel)) {
      const added = await repos.outbox.add({
        ...way,
        subject,
        body,
        createdAt: now,
        dedupeKey: `campaign:${id}:${row.entryId}:${way.channel}`,
        sms: smsContent('raceNotice', { race: values.race, raceEn: values.raceEn, title: subject }),
        userId: row.userId,
        raceId: campaign.raceId,
        entryId: row.entryId,
        campaignId: id,
        language,
        notBefore: start + Math.floor(count / rate) * 60_000,
      });
      if (added) count += 1;
    }
  }
  await repos.messages.finishCampaign(id, count);
  return count;
}

/** The `send-messages` job: every scheduled message whose time has come. */
export async function releaseDueCampaigns(repos: Repositories, now: number, perMinute: number): Promise<number> {
  let sent = 0;
  for (const id of await repos.messages.dueCampaigns(now, 20)) sent += await releaseCampaign(repos, id, now, perMinute);
  return sent;
}

async function campaignViews(repos: Repositories, records: CampaignRecord[]): Promise<CampaignView[]> {
  const counts = await repos.messages.campaignCounts(records.map((r) => r.id));
  return records.map((r) => ({
    id: r.id,
    raceId: r.raceId,
    text: r.text,
    channel: r.channel,
    audience: r.audience,
    // (sending: the moment its copies are written; shown as sent.)
    state: r.state === 'sending' ? 'sent' : r.state,
    sendAt: r.sendAt,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    counts: counts.get(r.id) ?? {},
    recipients: r.recipients,
  }));
}

/** The race's messages to entrants, newest first. */
export async function campaignsOf(repos: Repositories, raceId: string): Promise<CampaignView[]> {
  return campaignViews(repos, await repos.messages.campaignsOf(raceId, LIST_LIMIT));
}

async function campaignOfRace(repos: Repositories, raceId: string, id: number) {
  const campaign = await repos.messages.campaign(id);
  return campaign && campaign.raceId === raceId ? campaign : undefined;
}

const DELIVERY_STATES: readonly DeliveryState[] = ['queued', 'sending', 'sent', 'delivered', 'failed', 'skipped'];

/** One message's copies, per runner (destinations masked). */
export async function deliveriesOf(
  repos: Repositories,
  raceId: string,
  id: number,
  state: string | undefined,
): Promise<MessagesOutcome<{ campaign: CampaignView; deliveries: DeliveryRow[] }>> {
  const campaign = await campaignOfRace(repos, raceId, id);
  if (!campaign) return refuse(404, 'messageCampaignMissing', { id: String(id) });
  if (state !== undefined && state !== '' && !(DELIVERY_STATES as readonly string[]).includes(state)) {
    return refuse(400, 'messageAudienceInvalid', { field: 'state' });
  }
  const rows = await repos.messages.deliveries(id, state ? (state as DeliveryState) : undefined);
  return {
    ok: true,
    value: {
      campaign: (await campaignViews(repos, [campaign]))[0]!,
      deliveries: rows.map((r) => ({
        id: r.id,
        entryNo: r.entryNo,
        name: maskName(r.name),
        channel: r.channel,
        destination: maskDestination(r.destination),
        language: r.language,
        state: r.state,
        attempts: r.attempts,
        error: r.errorCode,
        at: r.stateAt,
      })),
    },
  };
}

/** Queues the failed copies of a message again, all or one (audited: message-retry). */
export async function retryDeliveries(
  repos: Repositories,
  raceId: string,
  id: number,
  outboxId: number | undefined,
  actor: AuditActor,
  now: number,
): Promise<MessagesOutcome<{ queued: number }>> {
  const campaign = await campaignOfRace(repos, raceId, id);
  if (!campaign) return refuse(404, 'messageCampaignMissing', { id: String(id) });
  const queued = await repos.messages.retryFailed(id, outboxId, now);
  if (queued === 0) return refuse(409, 'messageNothingToRetry');
  await appendAudit(
    repos,
    actor,
    { action: 'message-retry', raceId, target: `message:${id}`, after: { queued, copy: outboxId ?? 'all' } },
    now,
  );
  return { ok: true, value: { queued } };
}

/** Cancels a scheduled message before its time (audited: message-cancel). */
export async function cancelCampaign(
  repos: Repositories,
  raceId: string,
  id: number,
  actor: AuditActor,
  now: number,
): Promise<MessagesOutcome<CampaignView>> {
  const campaign = await campaignOfRace(repos, raceId, id);
  if (!campaign) return refuse(404, 'messageCampaignMissing', { id: String(id) });
  if (!(await repos.messages.cancelCampaign(id))) {
    return refuse(409, 'messageCampaignNotScheduled', { id: String(id) });
  }
  await appendAudit(repos, actor, { action: 'message-cancel', raceId, target: `message:${id}` }, now);
  return { ok: true, value: (await campaignViews(repos, [(await repos.messages.campaign(id))!]))[0]! };
}

/** Messages in a runner's personal centre. */
const MY_MESSAGES_LIMIT = 200;

/**
 * The messages sent to the runner, newest first (one of a message to entrants sent both ways), and the
 * language they read the centre in kept as theirs (the language of their next messages).
 */
export async function myMessages(
  repos: Repositories,
  userId: number,
  language: MessageLanguage | undefined,
): Promise<MyMessage[]> {
  if (language) await repos.messages.setLanguage(userId, language);
  const user = await repos.users.findById(userId);
  const destinations = [user?.phone, user?.email].filter((d): d is string => Boolean(d));
  const rows = await repos.messages.ofRunner(userId, destinations, MY_MESSAGES_LIMIT);
  const seen = new Set<string>();
  const messages: MyMessage[] = [];
  for (const row of rows) {
    if (row.campaignId !== null) {
      const key = `${row.campaignId}:${row.entryId ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    messages.push({ id: row.id, channel: row.channel, subject: row.subject, body: row.body, sentAt: row.createdAt });
  }
  return messages;
}
