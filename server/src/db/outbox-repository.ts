import { sql, type Db } from './engine.ts';
import type { CodeChannel } from './codes-repository.ts';

export interface OutboxMessage {
  id: number;
  channel: CodeChannel;
  destination: string;
  subject: string;
  body: string;
  createdAt: number;
}

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
    async add(message: Omit<OutboxMessage, 'id'> & { dedupeKey?: string }): Promise<number> {
      const row = await db.get<{ id: number }>(sql`
        INSERT INTO outbox (channel, destination, subject, body, created_at, dedupe_key)
        VALUES (${message.channel}, ${message.destination}, ${message.subject}, ${message.body}, ${message.createdAt},
          ${message.dedupeKey ?? null})
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
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
