/**
 * The refund calls (issue 15 §4: refundGet, refundRequest) over a small in-memory state that tests set and
 * read (`refundMock`, reset with `resetRefundMock`). A request checks the reason with REFUND_REASON_LIMITS and
 * refuses a second request in review, as the server does. Tests add them with `server.use(...refundHandlers)`.
 */
import { http, HttpResponse } from 'msw';
import {
  REFUND_REASON_LIMITS,
  type RefundAnswer,
  type RefundRequestBody,
  type RefundRequestView,
} from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { messageText, type MessageCode } from '#contract/messages';
import { api } from '../base-url';
import { LOGIN_TOKEN } from './auth';
import { CENTRE_NOW } from './centre';
import { VALID_TOKEN } from './common';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const refuse = (code: MessageCode, status = 400) =>
  HttpResponse.json({ code: status, msg: messageText(code), data: null, msgCode: code });
const loggedIn = (request: Request) => [VALID_TOKEN, LOGIN_TOKEN].includes(request.headers.get('token') ?? '');

/** A won 10K entry, paid ¥80.00: 80 % back is ¥64.00. */
export const REFUND_ENTRY: RefundAnswer['entries'][number] = {
  entryNo: 'E1002',
  name: '张三',
  itemName: { zh: '10公里', en: '10 km' },
  status: 1,
  paidFen: 8000,
  refundFen: 6400,
  requests: [],
};

/** A rejected request of an entry that is registered again. */
export const REJECTED_REQUEST: RefundRequestView = {
  id: 7,
  entryNo: 'E1004',
  kind: 'refund',
  status: 'rejected',
  reason: '工作调动',
  amountFen: 6400,
  rejectReason: '已超过退款期限',
  createdAt: CENTRE_NOW - 48 * 3_600_000,
  decidedAt: CENTRE_NOW - 24 * 3_600_000,
};

export interface RefundMock {
  answer: RefundAnswer;
  requests: RefundRequestBody[];
}

export const refundMock: RefundMock = {} as RefundMock;

export function resetRefundMock(): void {
  Object.assign(refundMock, {
    answer: {
      raceId: 'test-race-2027',
      refunds: { allowed: true, until: '2027-03-01 18:00:00', sharePercent: 80, state: 'open' },
      deferral: { allowed: false, until: '', state: 'closed' },
      entries: [
        { ...REFUND_ENTRY, requests: [] },
        { ...REFUND_ENTRY, entryNo: 'E1004', name: '李四', requests: [REJECTED_REQUEST] },
      ],
    },
    requests: [],
  } satisfies RefundMock);
}
resetRefundMock();

export const refundHandlers = [
  http.get(api(API_PATHS.refundGet), ({ request }) => {
    if (!loggedIn(request)) return refuse('loginExpired', 401);
    return ok(refundMock.answer);
  }),
  http.post(api(API_PATHS.refundRequest), async ({ request }) => {
    if (!loggedIn(request)) return refuse('loginExpired', 401);
    const body = (await request.json()) as RefundRequestBody;
    refundMock.requests.push(body);
    const entry = refundMock.answer.entries.find((e) => e.entryNo === body.entryNo);
    if (!entry) return refuse('registrationMissing', 404);
    if ([...body.reason.trim()].length < REFUND_REASON_LIMITS.min) return refuse('textTooShort');
    if (entry.requests.some((r) => r.status === 'review')) return refuse('refundInReview');
    const view: RefundRequestView = {
      id: 100 + refundMock.requests.length,
      entryNo: entry.entryNo,
      kind: body.kind,
      status: 'review',
      reason: body.reason,
      amountFen: body.kind === 'refund' ? entry.refundFen : 0,
      rejectReason: null,
      createdAt: CENTRE_NOW,
      decidedAt: null,
    };
    entry.requests = [view, ...entry.requests];
    if (body.kind === 'refund') entry.status = 4;
    return ok(view);
  }),
];
