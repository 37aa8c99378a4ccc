/**
 * The sign-up and ballot calls (issue 14 §1, §3) over a small in-memory state that tests set and read
 * (`entryMock`, reset with `resetEntryMock`). The ballot fixture is drawn with the contract's own draw, so
 * the page's check in the browser agrees with it unless a test tampers with it.
 */
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { commitmentOf, drawBallot } from '#contract/ballot';
import type {
  BallotCheckAnswer,
  BallotPublic,
  CodeCheckAnswer,
  EntryInfo,
  EntrySubmitAnswer,
  EntrySubmitRequest,
  MyEntry,
  OrderView,
  TeamCreateRequest,
  TeamInfo,
} from '#contract/entry';
import type { RegistrationForm } from '#contract/registration-form';
import { api } from '../base-url';
import { VALID_TOKEN } from './common';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const refuse = (code: number, msg: string, msgCode: string, data: unknown = null) =>
  HttpResponse.json({ code, msg, msgCode, data });

export const ENTRY_NOW = Date.UTC(2027, 0, 10, 2, 0, 0);
export const ENTRY_FORM_CHANNEL = 'entry-test';

/** A short entry form: the participant keys of contract/entry.ts PARTICIPANT_KEYS and the certificate. */
export const ENTRY_FORM: RegistrationForm = {
  version: 1,
  raceId: 'test-race-2027',
  channel: ENTRY_FORM_CHANNEL,
  title: { zh: '报名信息', en: 'Entry form' },
  fields: [
    {
      key: 'item',
      type: 'radio',
      label: { zh: '报名项目', en: 'Race item' },
      required: true,
      options: [
        { value: 'M', label: { zh: '马拉松', en: 'Marathon' } },
        { value: 'H', label: { zh: '半程马拉松', en: 'Half marathon' } },
        { value: '5K', label: { zh: '5公里欢乐跑', en: '5 km fun run' } },
      ],
    },
    { key: 'name', type: 'input', label: { zh: '姓名', en: 'Name' }, required: true },
    { key: 'certificateType', type: 'certificateType', label: { zh: '证件类型', en: 'Certificate type' } },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: { zh: '证件号码', en: 'Certificate number' },
    },
    { key: 'birthday', type: 'date', label: { zh: '出生日期', en: 'Date of birth' } },
  ],
} as RegistrationForm;

export const ENTRY_INFO: EntryInfo = {
  raceId: 'test-race-2027',
  signUpStartTime: '2027-01-01 10:00:00',
  signUpEndTime: '2027-01-31 18:00:00',
  windowState: 'open',
  allowMultiple: false,
  peoplePerAccount: 1,
  formChannel: ENTRY_FORM_CHANNEL,
  now: ENTRY_NOW,
  items: [
    {
      code: 'M',
      name: { zh: '马拉松', en: 'Marathon' },
      feeFen: 20000,
      model: 'ballot',
      capacity: 20000,
      left: null,
      minAge: 18,
      maxAge: 70,
      paymentMinutes: 48 * 60,
      teams: { minSize: 2, maxSize: 5 },
      ballot: {
        round: 1,
        commitment: 'ab'.repeat(32),
        committedAt: Date.UTC(2027, 0, 1, 1, 0, 0),
        drawnAt: null,
        seed: null,
        places: null,
      },
    },
    {
      code: 'H',
      name: { zh: '半程马拉松', en: 'Half marathon' },
      feeFen: 128000,
      model: 'firstCome',
      capacity: 8000,
      left: 1234,
      minAge: 16,
      paymentMinutes: 30,
      charity: { capacity: 100, left: 12, feeFen: 300000 },
    },
    {
      code: '5K',
      name: { zh: '5公里欢乐跑', en: '5 km fun run' },
      feeFen: 8000,
      model: 'payThenDraw',
      capacity: 3000,
      left: null,
      paymentMinutes: 15,
    },
  ],
};

export const BALLOT_SEED = '0123456789abcdef'.repeat(4);

/** A drawn ballot: 12 entries (a team of two among them), 5 places. */
export function drawnBallot(): BallotPublic {
  const entries = Array.from({ length: 12 }, (_, i) => ({
    entryNo: `M${String(i + 1).padStart(5, '0')}`,
    maskedName: `${'张李王赵刘陈杨黄周吴徐孙'[i]}*`,
    unit: i === 3 || i === 4 ? 'T-ALPHA' : null,
  }));
  const draw = drawBallot(BALLOT_SEED, '', entries, 5);
  return {
    raceId: 'test-race-2027',
    itemCode: 'M',
    itemName: { zh: '马拉松', en: 'Marathon' },
    round: 1,
    commitment: commitmentOf(BALLOT_SEED),
    beacon: '',
    committedAt: Date.UTC(2027, 0, 1, 1, 0, 0),
    drawnAt: Date.UTC(2027, 1, 2, 2, 0, 0),
    seed: BALLOT_SEED,
    places: 5,
    entries,
    winners: draw.winners,
    waitList: draw.waitList,
  };
}

const team = (request: TeamCreateRequest, captain: boolean): TeamInfo => ({
  teamCode: 'TEAM8KQ2',
  name: request.name,
  itemCode: request.itemCode,
  minSize: 2,
  maxSize: 5,
  members: captain ? [] : [{ maskedName: '王*', entryNo: 'M00042' }],
  isCaptain: captain,
});

export const entryOf = (entryNo: string, itemCode: string): MyEntry => ({
  entryNo,
  raceId: 'test-race-2027',
  raceName: { zh: '测试城市马拉松', en: 'Test City Marathon' },
  itemCode,
  itemName: { zh: itemCode, en: itemCode },
  channel: 'public',
  model: 'ballot',
  status: 0,
  name: '张三',
  certificateType: 1,
  certificateNumber: '1101**********002X',
  bib: null,
  teamCode: null,
  waitListPosition: null,
  timeline: [{ step: 'submitted', at: ENTRY_NOW }],
  orderNo: null,
  services: [],
  createdAt: ENTRY_NOW,
});

export const orderOf = (orderNo: string): OrderView => ({
  orderNo,
  raceId: 'test-race-2027',
  status: 1,
  amountFen: 128000,
  paidFen: 0,
  couponFen: 0,
  discountFen: 0,
  createdAt: ENTRY_NOW,
  deadlineAt: ENTRY_NOW + 30 * 60_000,
  paidAt: null,
  serialNo: null,
  refundedFen: 0,
  lines: [],
});

function initial() {
  return {
    info: structuredClone(ENTRY_INFO),
    /** Codes the code check knows. */
    codes: {
      VIP2027A: {
        code: 'VIP2027A',
        itemCode: 'H',
        itemName: { zh: '半程马拉松', en: 'Half marathon' },
        usesLeft: 3,
        expiresAt: Date.UTC(2027, 0, 31, 10, 0, 0),
      },
    } as Record<string, CodeCheckAnswer>,
    teamCreated: [] as TeamCreateRequest[],
    submitted: [] as EntrySubmitRequest[],
    /** Field refusals the next submission answers (then cleared). */
    refuseFields: undefined as Record<string, { code: string; params?: Record<string, unknown> }> | undefined,
    ballots: [drawnBallot()] as BallotPublic[],
    checks: {
      M00001: { entryNo: 'M00001', itemCode: 'M', outcome: 'won', waitListPosition: null },
      M00002: { entryNo: 'M00002', itemCode: 'M', outcome: 'waitList', waitListPosition: 3 },
      M00003: { entryNo: 'M00003', itemCode: 'M', outcome: 'notWon', waitListPosition: null },
      M00009: { entryNo: 'M00009', itemCode: 'M', outcome: 'pending', waitListPosition: null },
    } as Record<string, BallotCheckAnswer>,
  };
}

export let entryMock = initial();
export function resetEntryMock() {
  entryMock = initial();
}

const loggedIn = (request: Request) => request.headers.get('token') === VALID_TOKEN;
const expired = () =>
  HttpResponse.json(
    { code: 401, msg: 'Your login has expired, please log in again', data: null, msgCode: 'loginExpired' },
    { status: 401 },
  );

/** The entry form of ENTRY_INFO's channel (registered before the registration handlers' catch-all form). */
export const entryFormHandler = http.get(api(API_PATHS.registrationForm), ({ request }) => {
  const channel = new URL(request.url).searchParams.get('channel');
  if (channel !== ENTRY_FORM_CHANNEL) return undefined;
  return ok({ raceId: ENTRY_FORM.raceId, channel, version: 1, md5: 'x', publishedAt: ENTRY_NOW, form: ENTRY_FORM });
});

export const entryHandlers = [
  entryFormHandler,
  http.get(api(API_PATHS.entryInfo), () => ok(entryMock.info)),
  http.post(api(API_PATHS.entryCodeCheck), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as { code: string };
    const answer = entryMock.codes[body.code];
    return answer ? ok(answer) : refuse(404, 'The redemption code information does not exist', 'redemptionCodeMissing');
  }),
  http.post(api(API_PATHS.teamCreate), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as TeamCreateRequest;
    entryMock.teamCreated.push(body);
    return ok(team(body, true));
  }),
  http.get(api(API_PATHS.teamGet), ({ request }) => {
    if (!loggedIn(request)) return expired();
    const code = new URL(request.url).searchParams.get('teamCode');
    if (code !== 'TEAM8KQ2')
      return refuse(404, 'The redemption code information does not exist', 'redemptionCodeMissing');
    return ok(team({ raceId: 'test-race-2027', itemCode: 'M', name: '运河跑团' }, false));
  }),
  http.post(api(API_PATHS.entrySubmit), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as EntrySubmitRequest;
    entryMock.submitted.push(body);
    if (!body.captcha) return refuse(400, 'Please slide the slider to verify first', 'slideFirst');
    if (entryMock.refuseFields) {
      const fields = entryMock.refuseFields;
      entryMock.refuseFields = undefined;
      return refuse(400, 'Please correct the marked fields', 'badRequest', { fields });
    }
    const item = entryMock.info.items.find((i) => i.code === body.itemCode);
    const entries = body.participants.map((_, i) =>
      entryOf(`${body.itemCode}${String(100 + i).padStart(5, '0')}`, body.itemCode),
    );
    const answer: EntrySubmitAnswer = {
      entries,
      order:
        item && item.model !== 'ballot'
          ? orderOf('O2027011000001')
          : body.channel === 'code'
            ? orderOf('O2027011000002')
            : null,
    };
    return ok(answer);
  }),
  http.get(api(API_PATHS.ballotList), () =>
    ok(
      entryMock.ballots.map(
        ({ entries: _e, winners: _w, waitList: _l, raceId: _r, itemName: _n, ...summary }) => summary,
      ),
    ),
  ),
  http.get(api(API_PATHS.ballotPublic), ({ request }) => {
    const params = new URL(request.url).searchParams;
    const ballot = entryMock.ballots.find(
      (b) => b.itemCode === params.get('itemCode') && String(b.round) === params.get('round'),
    );
    return ballot ? ok(ballot) : refuse(404, 'No ballot of this race and item has been committed', 'ballotMissing');
  }),
  http.post(api(API_PATHS.ballotCheck), async ({ request }) => {
    const body = (await request.json()) as { entryNo: string };
    const answer = entryMock.checks[body.entryNo];
    return answer ? ok(answer) : refuse(404, 'This entry number is not in a ballot of this race', 'ballotEntryMissing');
  }),
];
