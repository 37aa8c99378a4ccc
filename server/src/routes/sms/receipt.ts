/**
 * The SMS providers' delivery receipts (issue 31 §4): POST `/api/sms/receipt/<provider>?token=<token>`, the
 * URL the organiser sets in the provider's console (docs/sms-providers.md). Neither Aliyun's HTTP batch push
 * nor Tencent's status callback is signed, so the URL carries a secret, SMS_RECEIPT_TOKEN (compared in
 * constant time; in the query, where the logs hide it): without it set, every receipt is refused.
 *
 * Each receipt turns its message (found by the provider's message id: BizId, SerialNo) delivered or failed
 * with the reason, once: a receipt repeated or for a message already settled changes nothing. The answer is
 * the provider's own form once recorded; a bad token 403, an unknown provider 404, a body that is not the
 * provider's form 400 (the envelope), never 500.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '#contract/api';
import { fail } from '../../lib/envelope.ts';
import { SmsReceiptFormatError } from '../../lib/sms/provider.ts';
import type { SmsSettings } from '../../lib/sms/providers.ts';
import { recordSmsReceipts } from '../../services/sms-receipts.ts';

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export default async function smsReceiptRoutes(app: FastifyInstance, options: { smsSettings: SmsSettings }) {
  const { provider, receiptToken } = options.smsSettings;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) => {
    done(null, body);
  });
  app.post<{ Params: { provider: string }; Querystring: { token?: string } }>(
    `${API_PATHS.smsReceiptPrefix}:provider`,
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      if (!provider || request.params.provider !== provider.name) {
        return reply
          .code(404)
          .send(fail(404, 'routeNotFound', { method: 'POST', path: request.url.split('?')[0] ?? '' }));
      }
      const token = typeof request.query.token === 'string' ? request.query.token : '';
      if (receiptToken === undefined || !sameToken(token, receiptToken)) {
        request.log.warn({ provider: provider.name }, 'sms receipt refused: bad token');
        return reply.code(403).send(fail(403, 'verificationFailed'));
      }
      let receipts;
      try {
        receipts = provider.parseReceipts(JSON.parse(typeof request.body === 'string' ? request.body : ''));
      } catch (error) {
        const detail = error instanceof SmsReceiptFormatError ? error.message : 'the body is not JSON';
        request.log.warn({ provider: provider.name, detail }, 'sms receipt refused');
        return reply
          .code(400)
          .send(fail(400, 'invalidRequest', { detail: `Not a ${provider.name} receipt: ${detail}` }));
      }
      await recordSmsReceipts(app.repos, provider.name, receipts, app.config.now());
      return reply.code(200).send(provider.receiptAnswer);
    },
  );
}
