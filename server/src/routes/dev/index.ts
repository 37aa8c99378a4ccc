/**
 * Development outbox (spec: codes are not really sent in the demo): the latest 50 messages, newest first,
 * as an HTML page or, with ?format=json, as an envelope list. Registered only when the outbox is enabled
 * (NODE_ENV !== 'production', or DEV_OUTBOX=1).
 */
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { ok } from '../../lib/envelope.ts';
import { latestOutboxMessages } from '../../services/outbox.ts';

const LIMIT = 50;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export default async function devRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { format?: string } }>(
    API_PATHS.devOutbox,
    { schema: { querystring: { type: 'object', properties: { format: { type: 'string', maxLength: 10 } } } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const messages = await latestOutboxMessages(app.repos, LIMIT);
      if (request.query.format === 'json') return ok(messages);
      const rows = messages
        .map(
          (m) =>
            `<tr><td>${escapeHtml(new Date(m.createdAt).toISOString())}</td><td>${m.channel}</td>` +
            `<td>${escapeHtml(m.destination)}</td><td>${escapeHtml(m.subject)}</td><td>${escapeHtml(m.body)}</td></tr>`,
        )
        .join('\n');
      const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Development outbox</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}</style>
</head><body><h1>Development outbox</h1><p>The latest ${LIMIT} messages, newest first. Not available in production.</p>
<table><thead><tr><th>Time (UTC)</th><th>Channel</th><th>To</th><th>Subject</th><th>Message</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="5">No messages yet.</td></tr>'}
</tbody></table></body></html>`;
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'")
        .send(html);
    },
  );
}
