/**
 * The registration screens' calls (issue 13 §4) over a small in-memory state that tests set and read
 * (`registrationMock`, reset with `resetRegistrationMock`). The direct-pass save checks a submission with
 * the contract's own checkSubmission, as the server does.
 */
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { checkSubmission, cleanSubmission } from '#contract/registration-form';
import type {
  DirectApplication,
  DirectWindow,
  DocumentsAnswer,
  MailingAnswer,
  MailingChoice,
} from '#contract/registration-screens';
import {
  CONFIRM_REGISTRATION,
  COUNTRIES,
  DIRECT_FORM,
  OWN_RESULTS,
  PUBLIC_FORM,
  RUNNER,
} from '../../fixtures/registration';
import { api } from '../base-url';
import { VALID_TOKEN } from './common';
import { LOGIN_TOKEN } from './auth';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const expired = () =>
  HttpResponse.json(
    { code: 401, msg: 'Your login has expired, please log in again', data: null, msgCode: 'loginExpired' },
    { status: 401 },
  );
const refuse = (code: number, msg: string, msgCode: string, data: unknown = null) =>
  HttpResponse.json({ code, msg, msgCode, data });
const loggedIn = (request: Request) => [VALID_TOKEN, LOGIN_TOKEN].includes(request.headers.get('token') ?? '');

type Body = Record<string, unknown>;

const NOW = Date.UTC(2027, 0, 10, 2, 0, 0);

function initial() {
  return {
    window: { startTime: '2027-01-01 00:00:00', endTime: '2027-02-28 23:59:59', state: 'open' } as DirectWindow,
    application: undefined as DirectApplication | undefined,
    /** Field refusals the next direct save answers (then cleared). */
    refuseFields: undefined as Record<string, { code: string; params?: Record<string, unknown> }> | undefined,
    savedDirect: [] as { values: Body; submit: boolean }[],
    sizeStock: { XS: 800, S: 2500, M: 5000, L: 5000, XL: 0, XXL: 1200, XXXL: 0 } as Record<string, number>,
    myResultsAsked: [] as Body[],
    confirmAsked: [] as Body[],
    confirmedAt: undefined as number | undefined,
    mailing: {
      settings: {
        enabled: true,
        deadline: '2027-03-20 18:00:00',
        notice: {
          zh: '赛事包以快递到付方式邮寄，报名截止后15个工作日内寄出。',
          en: 'Race packs are mailed cash on delivery within 15 working days after registration closes.',
        },
        state: 'open',
      },
      choice: undefined,
    } as MailingAnswer,
    mailingSaved: [] as Body[],
    documents: {
      settings: {
        enabled: true,
        deadline: '2027-03-31 18:00:00',
        maxSize: { size: 10, unit: 'MB' },
        maxCount: 3,
        note: {
          zh: '请上传体检证明或近两年的完赛证书。',
          en: 'Upload a medical certificate or a finisher certificate of the last two years.',
        },
        state: 'open',
      },
      files: '',
    } as DocumentsAnswer,
    documentsSaved: [] as Body[],
  };
}

export const registrationMock = initial();
export function resetRegistrationMock() {
  Object.assign(registrationMock, initial());
}

export const registrationHandlers = [
  http.get(api(API_PATHS.registrationForm), ({ request }) => {
    const channel = new URL(request.url).searchParams.get('channel') ?? 'public';
    const form = channel === 'direct' ? DIRECT_FORM : PUBLIC_FORM;
    return ok({ raceId: form.raceId, channel, version: 1, md5: 'x', publishedAt: NOW, form });
  }),
  http.get(api(API_PATHS.countryList), () => ok(COUNTRIES)),
  http.get(api(API_PATHS.sizeStock), () => ok(registrationMock.sizeStock)),
  http.post(api(API_PATHS.myResults), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as Body;
    registrationMock.myResultsAsked.push(body);
    const mine = body.name === RUNNER.name && body.certificateNumber === RUNNER.certificateNumber;
    return ok(mine ? OWN_RESULTS : []);
  }),

  http.get(api(API_PATHS.directMine), ({ request }) => {
    if (!loggedIn(request)) return expired();
    const { window, application } = registrationMock;
    return ok({ window, formChannel: 'direct', ...(application ? { application } : {}) });
  }),
  http.post(api(API_PATHS.directSave), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as { values: Body; submit: boolean };
    registrationMock.savedDirect.push(body);
    if (registrationMock.window.state === 'ended') return refuse(400, 'Application ended', 'directEnded');
    const forced = registrationMock.refuseFields;
    registrationMock.refuseFields = undefined;
    const refusals = forced ?? (body.submit ? checkSubmission(DIRECT_FORM, body.values) : {});
    const first = Object.values(refusals)[0];
    if (first) return refuse(400, 'refused', first.code, { fields: refusals });
    const previous = registrationMock.application;
    const application: DirectApplication = {
      id: 7,
      status: body.submit ? 1 : 0,
      values: { ...cleanSubmission(DIRECT_FORM, body.values), certificateNumber: '1101**********002X' },
      createdAt: previous?.createdAt ?? NOW,
      updatedAt: NOW + 60_000,
      ...(body.submit ? { submittedAt: NOW + 60_000 } : {}),
    };
    registrationMock.application = application;
    return ok(application);
  }),

  http.post(api(API_PATHS.confirmSearch), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as Body & { captcha?: Body };
    registrationMock.confirmAsked.push(body);
    if (!body.captcha?.token) return refuse(400, 'Please slide the slider to verify first', 'sliderRequired');
    if (body.name !== RUNNER.name || body.certificateNumber !== RUNNER.certificateNumber) {
      return refuse(404, 'Registration information does not exist', 'registrationMissing');
    }
    const { confirmedAt } = registrationMock;
    return ok({ ...CONFIRM_REGISTRATION, ...(confirmedAt ? { confirmedAt } : {}) });
  }),
  http.post(api(API_PATHS.confirm), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    registrationMock.confirmedAt = NOW + 120_000;
    return ok({ ...CONFIRM_REGISTRATION, confirmedAt: registrationMock.confirmedAt });
  }),

  http.get(api(API_PATHS.mailingGet), ({ request }) => (loggedIn(request) ? ok(registrationMock.mailing) : expired())),
  http.post(api(API_PATHS.mailingSave), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as Body;
    registrationMock.mailingSaved.push(body);
    const choice = {
      method: body.method,
      name: body.name ?? '',
      phone: typeof body.phone === 'string' ? `${body.phone.slice(0, 3)}****${body.phone.slice(7)}` : '',
      region: body.region ?? ['', '', ''],
      address: body.address ?? '',
      updatedAt: NOW + 180_000,
    } as MailingChoice;
    registrationMock.mailing = { ...registrationMock.mailing, choice };
    return ok(choice);
  }),

  http.get(api(API_PATHS.documentsGet), ({ request }) =>
    loggedIn(request) ? ok(registrationMock.documents) : expired(),
  ),
  http.post(api(API_PATHS.documentsSave), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as Body;
    registrationMock.documentsSaved.push(body);
    const saved = { files: String(body.files ?? ''), updatedAt: NOW + 240_000 };
    registrationMock.documents = { ...registrationMock.documents, ...saved };
    return ok(saved);
  }),
];
