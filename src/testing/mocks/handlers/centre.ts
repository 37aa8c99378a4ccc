/**
 * The personal centre's calls (issue 14 §5: myEntries, orderGet, orderPay, profile, passwordChange) over a
 * small in-memory state that tests set and read (`centreMock`, reset with `resetCentreMock`). The profile save
 * checks a request with the contract's own checkProfile, as the server does. Tests add them with
 * `server.use(...centreHandlers)`.
 */
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import type { MyEntriesAnswer, MyEntry, OrderView } from '#contract/entry';
import { messageText } from '#contract/messages';
import { checkProfile } from '#contract/profile';
import { api } from '../base-url';
import { LOGIN_TOKEN } from './auth';
import { VALID_TOKEN } from './common';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const expired = () =>
  HttpResponse.json({ code: 401, msg: messageText('loginExpired'), data: null, msgCode: 'loginExpired' });
const loggedIn = (request: Request) => [VALID_TOKEN, LOGIN_TOKEN].includes(request.headers.get('token') ?? '');

/** 2027-01-10 10:00:00 on the race clock (Asia/Shanghai). */
export const CENTRE_NOW = Date.UTC(2027, 0, 10, 2, 0, 0);
const at = (hours: number) => CENTRE_NOW + hours * 3_600_000;
const MARATHON = { zh: '全程马拉松', en: 'Marathon' };
const TEN_K = { zh: '10公里', en: '10 km' };
const RACE = { zh: '测试城市马拉松', en: 'Test City Marathon' };

export const ORDER_UNPAID: OrderView = {
  orderNo: 'O20270110001',
  raceId: 'test-race-2027',
  status: 1,
  amountFen: 20000,
  paidFen: 0,
  couponFen: 0,
  discountFen: 0,
  createdAt: at(-1),
  // 1 day 2 h 3 min 4 s after CENTRE_NOW.
  deadlineAt: CENTRE_NOW + ((26 * 60 + 3) * 60 + 4) * 1000,
  paidAt: null,
  serialNo: null,
  refundedFen: 0,
  lines: [{ subOrderNo: 'O20270110001-1', entryNo: 'E1001', name: '张三', itemName: MARATHON, amountFen: 20000 }],
};

export const ORDER_PAID: OrderView = {
  ...ORDER_UNPAID,
  orderNo: 'O20270105002',
  status: 3,
  amountFen: 8000,
  paidFen: 8000,
  createdAt: at(-120),
  deadlineAt: null,
  paidAt: at(-119),
  serialNo: 'SB202701050001',
  lines: [{ subOrderNo: 'O20270105002-1', entryNo: 'E1002', name: '张三', itemName: TEN_K, amountFen: 8000 }],
};

const entry = (extra: Partial<MyEntry>): MyEntry => ({
  entryNo: 'E1001',
  raceId: 'test-race-2027',
  raceName: RACE,
  itemCode: 'M',
  itemName: MARATHON,
  channel: 'public',
  model: 'ballot',
  status: 1,
  name: '张三',
  certificateType: 1,
  certificateNumber: '1101**********1234',
  bib: null,
  teamCode: null,
  waitListPosition: null,
  timeline: [],
  orderNo: null,
  services: [],
  createdAt: at(-200),
  ...extra,
});

export const ENTRY_WON = entry({
  timeline: [
    { step: 'submitted', at: at(-200) },
    { step: 'drawn', at: at(-1) },
    { step: 'won', at: at(-1) },
    { step: 'orderCreated', at: at(-1) },
  ],
  orderNo: ORDER_UNPAID.orderNo,
});
export const ENTRY_PAID = entry({
  entryNo: 'E1002',
  itemCode: '10K',
  itemName: TEN_K,
  model: 'firstCome',
  channel: 'charity',
  bib: 'C0815',
  timeline: [
    { step: 'submitted', at: at(-120) },
    { step: 'orderCreated', at: at(-120) },
    { step: 'paid', at: at(-119) },
    { step: 'bibAssigned', at: at(-24) },
  ],
  orderNo: ORDER_PAID.orderNo,
});
export const ENTRY_WAITING = entry({
  entryNo: 'E1003',
  raceId: 'other-race-2026',
  raceName: { zh: '运河半程马拉松', en: 'Canal Half Marathon' },
  itemName: { zh: '半程马拉松', en: 'Half Marathon' },
  status: 0,
  waitListPosition: 3,
  timeline: [
    { step: 'submitted', at: at(-300) },
    { step: 'waitListed', at: at(-2) },
  ],
});

export interface CentreMock {
  entries: MyEntry[];
  orders: OrderView[];
  /** Answers of orderGet in turn (the last one repeats); empty: the order of `orders`. */
  orderAnswers: OrderView[];
  orderGets: number;
  /** Each orderPay call: the order and the site it names. */
  payCalls: { orderNo: string; site?: string }[];
  profile: Record<string, unknown>;
  profileSaves: Record<string, unknown>[];
  passwordChanges: Record<string, unknown>[];
  /** The msgCode passwordChange refuses with, or null to accept. */
  passwordRefusal: 'oldPasswordWrong' | null;
}

export const centreMock: CentreMock = {} as CentreMock;

export function resetCentreMock(): void {
  Object.assign(centreMock, {
    entries: [ENTRY_WON, ENTRY_PAID, ENTRY_WAITING],
    orders: [ORDER_UNPAID, ORDER_PAID],
    orderAnswers: [],
    orderGets: 0,
    payCalls: [],
    profile: { userName: '', userPhone: '138****8000', userEmail: 'ru****@example.com', cardType: '', cardNumber: '' },
    profileSaves: [],
    passwordChanges: [],
    passwordRefusal: null,
  } satisfies CentreMock);
}
resetCentreMock();

const userData = (token: string) => ({
  token,
  accountInfo: { accountId: 1, userId: 1, accountPhone: '138****8000' },
  userInfo: { userId: 1, ...centreMock.profile },
});

export const centreHandlers = [
  http.get(api(API_PATHS.myEntries), ({ request }) => {
    if (!loggedIn(request)) return expired();
    return ok({ entries: centreMock.entries, orders: centreMock.orders, now: CENTRE_NOW } satisfies MyEntriesAnswer);
  }),
  http.get(api(API_PATHS.orderGet), ({ request }) => {
    if (!loggedIn(request)) return expired();
    const orderNo = new URL(request.url).searchParams.get('orderNo');
    centreMock.orderGets += 1;
    const answers = centreMock.orderAnswers;
    const answer = answers.length
      ? answers[Math.min(centreMock.orderGets - 1, answers.length - 1)]
      : centreMock.orders.find((o) => o.orderNo === orderNo);
    if (!answer) return HttpResponse.json({ code: 404, msg: 'Not Found', data: null, msgCode: 'notFound' });
    return ok(answer);
  }),
  http.post(api(API_PATHS.orderPay), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const { orderNo, site } = (await request.json()) as { orderNo: string; site?: string };
    centreMock.payCalls.push({ orderNo, site });
    return ok({
      orderNo,
      paymentId: 'P1',
      cashierUrl: `/pay/sandbox/cashier?paymentId=P1`,
      qrContent: '/pay/sandbox/cashier?paymentId=P1',
      deadlineAt: ORDER_UNPAID.deadlineAt,
    });
  }),
  http.get(api(API_PATHS.profile), ({ request }) => {
    if (!loggedIn(request)) return expired();
    return ok(userData(request.headers.get('token')!));
  }),
  http.post(api(API_PATHS.profile), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as Record<string, unknown>;
    centreMock.profileSaves.push(body);
    const refusals = checkProfile(body, { today: '2027-01-10' });
    const first = Object.values(refusals)[0];
    if (first) {
      return HttpResponse.json({
        code: 400,
        msg: messageText(first.code, first.params),
        msgCode: first.code,
        data: { fields: refusals },
      });
    }
    const { cardNumber, ...rest } = body;
    centreMock.profile = {
      ...centreMock.profile,
      ...rest,
      ...(typeof cardNumber === 'string'
        ? { cardNumber: `${cardNumber.slice(0, 4)}**********${cardNumber.slice(-4)}` }
        : {}),
    };
    return ok(userData(request.headers.get('token')!));
  }),
  http.post(api(API_PATHS.passwordChange), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    centreMock.passwordChanges.push((await request.json()) as Record<string, unknown>);
    const code = centreMock.passwordRefusal;
    if (code) return HttpResponse.json({ code: 400, msg: messageText(code), msgCode: code, data: null });
    return ok(true);
  }),
];
