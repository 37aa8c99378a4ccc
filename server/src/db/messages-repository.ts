import { sql, type Db } from './engine.ts';
import type {
  DeliveryState,
  MessageAudience,
  MessageChannel,
  MessageLanguage,
  MessageText,
} from '#contract/runner-messages';

/** Talking to runners (issue 32 §2, migrations 29 and 30): templates, messages to entrants, their copies. */

export interface TemplateRecord extends MessageText {
  kind: string;
  updatedAt: number;
  updatedBy: string;
}

export interface CampaignRecord {
  id: number;
  raceId: string;
  text: MessageText;
  channel: MessageChannel;
  audience: MessageAudience;
  state: 'scheduled' | 'sending' | 'sent' | 'cancelled';
  sendAt: number;
  recipients: number;
  createdAt: number;
  createdBy: string;
}

/** An entry a message to entrants reaches, with its account's ways to be reached. */
export interface AudienceRow {
  entryId: number;
  entryNo: string;
  name: string;
  itemCode: string;
  bib: string | null;
  userId: number;
  phone: string | null;
  email: string | null;
  language: MessageLanguage | null;
}

/** The audience's SQL filters, with what the service worked out (the current letter, the statuses). */
export interface AudienceQuery extends MessageAudience {
  raceId: string;
  /** Statuses when none is asked for. */
  statuses: readonly number[];
  /** The statuses that sign the letter and book a pick-up (won). */
  wonStatuses: readonly number[];
  /** The current letter's version hash (null: the race has no letter: nobody signed it). */
  letterHash: string | null;
}

export interface DeliveryRecord {
  id: number;
  entryNo: string;
  name: string;
  channel: 'sms' | 'email';
  destination: string;
  language: MessageLanguage;
  state: DeliveryState;
  attempts: number;
  errorCode: string | null;
  stateAt: number;
}

export interface MyMessageRecord {
  id: number;
  channel: 'sms' | 'email';
  subject: string;
  body: string;
  createdAt: number;
  campaignId: number | null;
  entryId: number | null;
}

interface CampaignRow {
  id: number;
  race_id: string;
  subject_zh: string;
  body_zh: string;
  subject_en: string;
  body_en: string;
  channel: MessageChannel;
  audience_json: string;
  state: CampaignRecord['state'];
  send_at: number;
  recipients: number;
  created_at: number;
  created_by: string;
}

const campaignOf = (r: CampaignRow): CampaignRecord => ({
  id: Number(r.id),
  raceId: r.race_id,
  text: { subjectZh: r.subject_zh, bodyZh: r.body_zh, subjectEn: r.subject_en, bodyEn: r.body_en },
  channel: r.channel,
  audience: JSON.parse(r.audience_json) as MessageAudience,
  state: r.state,
  sendAt: Number(r.send_at),
  recipients: Number(r.recipients),
  createdAt: Number(r.created_at),
  createdBy: r.created_by,
});

const CAMPAIGN_COLUMNS = sql`id, race_id, subject_zh, body_zh, subject_en, body_en, channel, audience_json, state,
  send_at, recipients, created_at, created_by`;

export function createMessagesRepository(db: Db) {
  return {
    async templatesOf(raceId: string): Promise<TemplateRecord[]> {
      const rows = await db.all<{
        kind: string;
        subject_zh: string;
        body_zh: string;
        subject_en: string;
        body_en: string;
        updated_at: number;
        updated_by: string;
      }>(sql`
        SELECT kind, subject_zh, body_zh, subject_en, body_en, updated_at, updated_by FROM message_templates
        WHERE race_id = ${raceId} ORDER BY kind
      `);
      return rows.map((r) => ({
        kind: r.kind,
        subjectZh: r.subject_zh,
        bodyZh: r.body_zh,
        subjectEn: r.subject_en,
        bodyEn: r.body_en,
        updatedAt: Number(r.updated_at),
        updatedBy: r.updated_by,
      }));
    },

    async templateOf(raceId: string, kind: string): Promise<MessageText | undefined> {
      const row = await db.get<{ subject_zh: string; body_zh: string; subject_en: string; body_en: string }>(sql`
        SELECT subject_zh, body_zh, subject_en, body_en FROM message_templates
        WHERE race_id = ${raceId} AND kind = ${kind}
      `);
      return row && { subjectZh: row.subject_zh, bodyZh: row.body_zh, subjectEn: row.subject_en, bodyEn: row.body_en };
    },

    async saveTemplate(raceId: string, kind: string, text: MessageText, now: number, by: string): Promise<void> {
      await db.run(sql`
        INSERT INTO message_templates (race_id, kind, subject_zh, body_zh, subject_en, body_en, updated_at, updated_by)
        VALUES (${raceId}, ${kind}, ${text.subjectZh}, ${text.bodyZh}, ${text.subjectEn}, ${text.bodyEn}, ${now}, ${by})
        ON CONFLICT (race_id, kind) DO UPDATE SET subject_zh = excluded.subject_zh, body_zh = excluded.body_zh,
          subject_en = excluded.subject_en, body_en = excluded.body_en, updated_at = excluded.updated_at,
          updated_by = excluded.updated_by
      `);
    },

    /** Back to the built-in wording; answers whether the race had its own. */
    async resetTemplate(raceId: string, kind: string): Promise<boolean> {
      return (await db.run(sql`DELETE FROM message_templates WHERE race_id = ${raceId} AND kind = ${kind}`)) > 0;
    },

    async languageOf(userId: number): Promise<MessageLanguage | null> {
      const row = await db.get<{ language: MessageLanguage | null }>(sql`
        SELECT language FROM users WHERE id = ${userId}
      `);
      return row?.language ?? null;
    },

    async setLanguage(userId: number, language: MessageLanguage): Promise<void> {
      await db.run(sql`
        UPDATE users SET language = ${language}
        WHERE id = ${userId} AND (language IS NULL OR language <> ${language})
      `);
    },

    /** The entries a message to entrants reaches, by entry number. */
    async audience(query: AudienceQuery, limit?: number): Promise<AudienceRow[]> {
      const statuses = query.status !== undefined ? [query.status] : query.statuses;
      const won = sql.join(query.wonStatuses.map((s) => sql`${s}`));
      const rows = await db.all<{
        entry_id: number;
        entry_no: string;
        name: string;
        item_code: string;
        bib: string | null;
        user_id: number;
        phone: string | null;
        email: string | null;
        language: MessageLanguage | null;
      }>(sql`
        SELECT e.id AS entry_id, e.entry_no, e.name, e.item_code, e.bib, e.user_id, u.phone, u.email, u.language
        FROM entries e JOIN users u ON u.id = e.user_id
        WHERE e.race_id = ${query.raceId}
          AND e.status IN (${sql.join(statuses.map((s) => sql`${s}`))})
          ${query.item !== undefined ? sql`AND e.item_code = ${query.item}` : sql``}
          ${query.channel !== undefined ? sql`AND e.channel = ${query.channel}` : sql``}
          ${query.entryNo !== undefined ? sql`AND e.entry_no = ${query.entryNo}` : sql``}
          ${
            query.letter === undefined
              ? sql``
              : sql`AND e.status IN (${won}) AND ${query.letter === 'signed' ? sql`` : sql`NOT`} EXISTS (
                  SELECT 1 FROM letter_signatures s WHERE s.entry_id = e.id AND s.version_hash = ${query.letterHash ?? ''})`
          }
          ${
            query.pickup === undefined
              ? sql``
              : sql`AND e.status IN (${won}) AND ${query.pickup === 'booked' ? sql`` : sql`NOT`} EXISTS (
                  SELECT 1 FROM pickup_bookings b WHERE b.entry_id = e.id AND b.status IN ('booked', 'collected'))`
          }
        ORDER BY e.entry_no
        ${limit !== undefined ? sql`LIMIT ${limit}` : sql``}
      `);
      return rows.map((r) => ({
        entryId: Number(r.entry_id),
        entryNo: r.entry_no,
        name: r.name,
        itemCode: r.item_code,
        bib: r.bib,
        userId: Number(r.user_id),
        phone: r.phone,
        email: r.email,
        language: r.language,
      }));
    },

    async addCampaign(
      campaign: Omit<CampaignRecord, 'id' | 'recipients' | 'state'> & { state: 'scheduled' },
    ): Promise<number> {
      const { text } = campaign;
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO message_campaigns (race_id, subject_zh, body_zh, subject_en, body_en, channel, audience_json, state,
          send_at, created_at, created_by)
        VALUES (${campaign.raceId}, ${text.subjectZh}, ${text.bodyZh}, ${text.subjectEn}, ${text.bodyEn},
          ${campaign.channel}, ${JSON.stringify(campaign.audience)}, ${campaign.state}, ${campaign.sendAt},
          ${campaign.createdAt}, ${campaign.createdBy})
        RETURNING id
      `);
      return Number(row!.id);
    },

    async campaign(id: number): Promise<CampaignRecord | undefined> {
      const row = await db.get<CampaignRow>(sql`SELECT ${CAMPAIGN_COLUMNS} FROM message_campaigns WHERE id = ${id}`);
      return row && campaignOf(row);
    },

    async campaignsOf(raceId: string, limit: number): Promise<CampaignRecord[]> {
      const rows = await db.all<CampaignRow>(sql`
        SELECT ${CAMPAIGN_COLUMNS} FROM message_campaigns WHERE race_id = ${raceId} ORDER BY id DESC LIMIT ${limit}
      `);
      return rows.map(campaignOf);
    },

    /** The ids of the scheduled messages due at `now`, oldest first. */
    async dueCampaigns(now: number, limit: number): Promise<number[]> {
      const rows = await db.all<{ id: number }>(sql`
        SELECT id FROM message_campaigns WHERE state = 'scheduled' AND send_at <= ${now} ORDER BY send_at, id
        LIMIT ${limit}
      `);
      return rows.map((r) => Number(r.id));
    },

    /** Takes a scheduled message for sending (once, however many instances look): answers whether it did. */
    async claimCampaign(id: number): Promise<boolean> {
      return (
        (await db.run(sql`
        UPDATE message_campaigns SET state = 'sending' WHERE id = ${id} AND state = 'scheduled'
      `)) > 0
      );
    },

    async finishCampaign(id: number, recipients: number): Promise<void> {
      await db.run(sql`UPDATE message_campaigns SET state = 'sent', recipients = ${recipients} WHERE id = ${id}`);
    },

    async cancelCampaign(id: number): Promise<boolean> {
      return (
        (await db.run(sql`
        UPDATE message_campaigns SET state = 'cancelled' WHERE id = ${id} AND state = 'scheduled'
      `)) > 0
      );
    },

    /** The latest time a queued copy of a message to entrants waits for (the throttle continues after it). */
    async lastThrottled(): Promise<number | null> {
      const row = await db.get<{ last: number | null }>(sql`
        SELECT MAX(next_attempt_at) AS last FROM outbox
        WHERE campaign_id IS NOT NULL AND state = 'queued'
      `);
      return row?.last === null || row?.last === undefined ? null : Number(row.last);
    },

    /** Per message, its copies per state. */
    async campaignCounts(ids: number[]): Promise<Map<number, Partial<Record<DeliveryState, number>>>> {
      const counts = new Map<number, Partial<Record<DeliveryState, number>>>();
      if (ids.length === 0) return counts;
      const rows = await db.all<{ campaign_id: number; state: DeliveryState; n: number }>(sql`
        SELECT campaign_id, state, COUNT(*) AS n FROM outbox
        WHERE campaign_id IN (${sql.join(ids.map((id) => sql`${id}`))})
        GROUP BY campaign_id, state
      `);
      for (const r of rows) {
        const id = Number(r.campaign_id);
        counts.set(id, { ...counts.get(id), [r.state]: Number(r.n) });
      }
      return counts;
    },

    async deliveries(campaignId: number, state: DeliveryState | undefined): Promise<DeliveryRecord[]> {
      const rows = await db.all<{
        id: number;
        entry_no: string | null;
        name: string | null;
        channel: 'sms' | 'email';
        destination: string;
        language: MessageLanguage | null;
        state: DeliveryState;
        attempts: number;
        error_code: string | null;
        state_at: number | null;
        created_at: number;
      }>(sql`
        SELECT o.id, e.entry_no, e.name, o.channel, o.destination, o.language, o.state, o.attempts, o.error_code,
          o.state_at, o.created_at
        FROM outbox o LEFT JOIN entries e ON e.id = o.entry_id
        WHERE o.campaign_id = ${campaignId} ${state !== undefined ? sql`AND o.state = ${state}` : sql``}
        ORDER BY o.id
      `);
      return rows.map((r) => ({
        id: Number(r.id),
        entryNo: r.entry_no ?? '',
        name: r.name ?? '',
        channel: r.channel,
        destination: r.destination,
        language: r.language ?? 'zh',
        state: r.state,
        attempts: Number(r.attempts),
        errorCode: r.error_code,
        stateAt: Number(r.state_at ?? r.created_at),
      }));
    },

    /** Queues the failed copies of a message again (all, or one), as new: answers how many. */
    async retryFailed(campaignId: number, outboxId: number | undefined, now: number): Promise<number> {
      return db.run(sql`
        UPDATE outbox SET state = 'queued', attempts = 0, next_attempt_at = NULL, error_code = NULL,
          error_detail = NULL, state_at = ${now}, created_at = ${now}
        WHERE campaign_id = ${campaignId} AND state = 'failed' ${outboxId !== undefined ? sql`AND id = ${outboxId}` : sql``}
      `);
    },

    /**
     * The messages sent to a runner, newest first: theirs by account (user_id), and the older ones written to
     * their phone or e-mail before messages had an owner; never a verification code.
     */
    async ofRunner(userId: number, destinations: string[], limit: number): Promise<MyMessageRecord[]> {
      const rows = await db.all<{
        id: number;
        channel: 'sms' | 'email';
        subject: string;
        body: string;
        created_at: number;
        campaign_id: number | null;
        entry_id: number | null;
      }>(sql`
        SELECT id, channel, subject, body, created_at, campaign_id, entry_id FROM outbox
        WHERE (user_id = ${userId}
          ${
            destinations.length > 0
              ? sql`OR (user_id IS NULL AND destination IN (${sql.join(destinations.map((d) => sql`${d}`))})
                  AND kind IS NOT NULL AND kind NOT IN ('loginCode', 'registerCode', 'resetCode'))`
              : sql``
          })
          AND state <> 'skipped'
        ORDER BY created_at DESC, id DESC LIMIT ${limit}
      `);
      return rows.map((r) => ({
        id: Number(r.id),
        channel: r.channel,
        subject: r.subject,
        body: r.body,
        createdAt: Number(r.created_at),
        campaignId: r.campaign_id === null ? null : Number(r.campaign_id),
        entryId: r.entry_id === null ? null : Number(r.entry_id),
      }));
    },
  };
}

export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
