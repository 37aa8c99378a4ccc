import type { Database } from 'better-sqlite3';
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
export function createOutboxRepository(db: Database) {
  const insert = db.prepare<[CodeChannel, string, string, string, number]>(
    'INSERT INTO outbox (channel, destination, subject, body, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const latest = db.prepare<[number], OutboxRow>(
    'SELECT id, channel, destination, subject, body, created_at FROM outbox ORDER BY created_at DESC, id DESC LIMIT ?',
  );

  return {
    add(message: Omit<OutboxMessage, 'id'>): number {
      return Number(
        insert.run(message.channel, message.destination, message.subject, message.body, message.createdAt)
          .lastInsertRowid,
      );
    },

    latest(limit: number): OutboxMessage[] {
      return latest.all(limit).map((r) => ({
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
