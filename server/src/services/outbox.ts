/** The development outbox (DEV_OUTBOX, plugins/delivery.ts): the codes and notices as they were sent. */
import type { Repositories } from '../db/repositories.ts';

/** The latest `limit` messages, newest first. */
export const latestOutboxMessages = async (repos: Repositories, limit: number) =>
  (await repos.outbox.latest(limit)).map((m) => ({
    destination: m.destination,
    channel: m.channel,
    subject: m.subject,
    body: m.body,
    createdAt: m.createdAt,
  }));
