import { sql, type Db } from './engine.ts';
import type { CodeChannel } from './codes-repository.ts';
import type { SmsContent } from '../lib/sms/kinds.ts';

/** Where a message stands (migration 26): see plugins/delivery.ts. */
export type OutboxState = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'skipped';

/** A message to a phone (or an e-mail address) claimed for sending. */
export interface QueuedSms {
  id: number;
  destination: string;
  subject: string;
  body: string;
  kind: string | null;
  params: Record<string, string>;
  /** Tries so far, this one included. */
  attempts: number;
}

/** What became of a send (or a receipt). */
export interface OutboxOutcome {
  state: OutboxState;
  provider: string;
  messageId?: string;
  errorCode?: string;
  errorDetail?: string;
  /** queued again: when to try next. */
  nextAttemptAt?: number;
}

export interface OutboxMessage {
  id: number;
  channel: CodeChannel;
  destination: string;
  subject: string;
  body: string;
  createdAt: number;
}

/** Whose message it is (migration 29): the runner's "my messages" and a message to entrants' copies. */
export interface OutboxOwner {
  userId?: number;
  raceId?: string;
  entryId?: number;
  campaignId?: number;
  language?: 'zh' | 'en';
  /** Not sent before this time (a throttled message to entrants). */
  notBefore?: number;
}

/** The sender of each channel: the SMS provider's, or SMTP's. */
export type OutboxChannel = 'sms' | 'email';
const CODE_KINDS_SQL = sql`('loginCode', 'registerCode', 'resetCode')`;

interface OutboxRow {
  id: number;
  channel: CodeChannel;
  destination: string;
  subject: string;
  body: string;
  created_at: number;
}

/** Every message sent to a phone or an email address (the development outbox reads it). */
export function createOutboxRepository(db: Db) {
  return {
    /**
     * Adds a message. With a `dedupeKey` (the event it tells of), a message already added under the same key
     * makes this add nothing: answers 0.
     */
    async add(
      message: Omit<OutboxMessage, 'id'> & {
        dedupeKey?: string;
        /** The provider's template and variables (lib/sms/kinds.ts); every message to a phone has them. */
        sms?: SmsContent;
        /** Default queued: the SMS sender takes it (plugins/delivery.ts); a code is sent at once (sending). */
        state?: OutboxState;
      } & OutboxOwner,
    ): Promise<number> {
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO outbox (channel, destination, subject, body, created_at, dedupe_key, kind, params, state, state_at,
          user_id, race_id, entry_id, campaign_id, language, next_attempt_at)
        VALUES (${message.channel}, ${message.destination}, ${message.subject}, ${message.body}, ${message.createdAt},
          ${message.dedupeKey ?? null}, ${message.sms?.kind ?? null},
          ${message.sms ? JSON.stringify(message.sms.params) : null}, ${message.state ?? 'queued'}, ${message.createdAt},
          ${message.userId ?? null}, ${message.raceId ?? null}, ${message.entryId ?? null},
          ${message.campaignId ?? null}, ${message.language ?? null}, ${message.notBefore ?? null})
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id
      `);
      return row === undefined ? 0 : Number(row.id);
    },

    async latest(limit: number): Promise<OutboxMessage[]> {
      const rows = await db.all<OutboxRow>(sql`
        SELECT id, channel, destination, subject, body, created_at FROM outbox
        ORDER BY created_at DESC, id DESC LIMIT ${limit}
      `);
      return rows.map((r) => ({
        id: r.id,
        channel: r.channel,
        destination: r.destination,
        subject: r.subject,
        body: r.body,
        createdAt: r.created_at,
      }));
    },

    /**
     * Claims up to `limit` messages to phones due for sending (queued, their next try due), oldest first: each
     * becomes `sending` with one more attempt, so another instance's sender never takes it too.
     */
    async claimQueued(now: number, limit: number, channel: OutboxChannel = 'sms'): Promise<QueuedSms[]> {
      // (state IN … AND channel = 'sms': the words of the partial index outbox_queued, so both engines use it.)
      // A code to an e-mail address was sent when it was asked for: never again by the e-mail sender.
      const due = await db.all<{ id: number }>(sql`
        SELECT id FROM outbox
        WHERE state IN ('queued', 'sending') AND channel = ${sql.lit(channel)} AND state = 'queued'
          AND (next_attempt_at IS NULL OR next_attempt_at <= ${now})
          ${channel === 'email' ? sql`AND (kind IS NULL OR kind NOT IN ${CODE_KINDS_SQL})` : sql``}
        ORDER BY id LIMIT ${limit}
      `);
      const claimed: QueuedSms[] = [];
      for (const { id } of due) {
        const row = await db.get<{
          id: number;
          destination: string;
          subject: string;
          body: string;
          kind: string | null;
          params: string | null;
          attempts: number;
        }>(sql`
          UPDATE outbox SET state = 'sending', attempts = attempts + 1, state_at = ${now}
          WHERE id = ${id} AND state = 'queued'
          RETURNING id, destination, subject, body, kind, params, attempts
        `);
        if (!row) continue;
        claimed.push({
          id: Number(row.id),
          destination: row.destination,
          subject: row.subject,
          body: row.body,
          kind: row.kind,
          params: row.params ? (JSON.parse(row.params) as Record<string, string>) : {},
          attempts: Number(row.attempts),
        });
      }
      return claimed;
    },

    /**
     * Messages claimed before `before` and never finished (their instance died): a queued message is queued
     * again (it may reach the phone twice rather than never); a code, whose value was never kept, is failed.
     */
    async releaseStale(
      before: number,
      now: number,
      codeKinds: readonly string[],
      channel: OutboxChannel = 'sms',
    ): Promise<void> {
      await db.run(sql`
        UPDATE outbox SET state = CASE WHEN kind IN (${sql.join(codeKinds)})
            THEN 'failed' ELSE 'queued' END,
          error_code = CASE WHEN kind IN (${sql.join(codeKinds)})
            THEN 'interrupted' ELSE error_code END,
          state_at = ${now}
        WHERE state IN ('queued', 'sending') AND channel = ${sql.lit(channel)} AND state = 'sending'
          AND state_at < ${before}
      `);
    },

    /** Records what became of message `id`'s send. */
    async record(id: number, outcome: OutboxOutcome, now: number): Promise<void> {
      await db.run(sql`
        UPDATE outbox SET state = ${outcome.state}, provider = ${outcome.provider},
          provider_message_id = ${outcome.messageId ?? null}, error_code = ${outcome.errorCode ?? null},
          error_detail = ${outcome.errorDetail ?? null}, next_attempt_at = ${outcome.nextAttemptAt ?? null},
          state_at = ${now}
        WHERE id = ${id}
      `);
    },

    /**
     * A provider's delivery receipt: the message it sent as `messageId` becomes delivered or failed (with the
     * reason). Once: a receipt for a message already delivered or failed changes nothing. Answers the count.
     */
    async receipt(
      provider: string,
      messageId: string,
      receipt: { delivered: boolean; code: string; reason: string },
      now: number,
    ): Promise<number> {
      return db.run(sql`
        UPDATE outbox SET state = ${receipt.delivered ? 'delivered' : 'failed'},
          error_code = ${receipt.delivered ? null : receipt.code.slice(0, 64)},
          error_detail = ${receipt.delivered ? null : receipt.reason.slice(0, 500)}, state_at = ${now}
        WHERE provider = ${provider} AND provider_message_id = ${messageId} AND state IN ('sent', 'sending')
      `);
    },

    /**
     * SMS_PROVIDER=outbox (or e-mail without SMTP_URL): the queued messages that are due stay in the outbox, kept
     * as its own (nothing left); a throttled message to entrants is kept when its turn comes.
     */
    async keepQueued(now: number, channel: OutboxChannel = 'sms'): Promise<number> {
      return db.run(sql`
        UPDATE outbox SET state = 'sent', provider = 'outbox', state_at = ${now}
        WHERE state IN ('queued', 'sending') AND channel = ${sql.lit(channel)} AND state = 'queued'
          AND (next_attempt_at IS NULL OR next_attempt_at <= ${now})
      `);
    },

    /** Fails queued messages written before `before` (too old to be worth sending). */
    async expireQueued(before: number, now: number, channel: OutboxChannel = 'sms'): Promise<number> {
      return db.run(sql`
        UPDATE outbox SET state = 'failed', error_code = 'expired', state_at = ${now}
        WHERE state IN ('queued', 'sending') AND channel = ${sql.lit(channel)} AND state = 'queued'
          AND created_at < ${before}
      `);
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
