/**
 * Saved participants (issue 15 §3: participantList, participantSave, participantDelete) over a small in-memory
 * list that tests set and read (`participantsMock`, reset with `resetParticipantsMock`). Saves are checked with
 * the contract's checkParticipant (the server's check); numbers are answered masked, and a masked number sent
 * back keeps the stored one, as the server does. Every page that may list them (the sign-up page's picker)
 * finds the handlers in the shared list; the list starts empty.
 */
import { http, HttpResponse } from 'msw';
import { MAX_SAVED_PARTICIPANTS, type SavedParticipant } from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { ageOn } from '#contract/entry';
import { messageText, type MessageCode } from '#contract/messages';
import { checkParticipant } from '#contract/saved-participants';
import { api } from '../base-url';
import { LOGIN_TOKEN } from './auth';
import { VALID_TOKEN } from './common';

/** The mock's today (the participants' ages). */
export const PARTICIPANTS_TODAY = '2027-01-10';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const refuse = (code: number, msgCode: MessageCode, data: unknown = null, params?: Record<string, number>) =>
  HttpResponse.json({
    code,
    msg: messageText(msgCode, params),
    msgCode,
    data,
    ...(params ? { msgParams: params } : {}),
  });
const loggedIn = (request: Request) => [VALID_TOKEN, LOGIN_TOKEN].includes(request.headers.get('token') ?? '');

const maskMiddle = (s: string, keep: number) =>
  `${s.slice(0, keep)}${'*'.repeat(s.length - keep * 2)}${s.slice(-keep)}`;
const maskCert = (s: string) => maskMiddle(s, s.length >= 12 ? 4 : 2);
const maskPhone = (s: string) => `${s.slice(0, 3)}${'*'.repeat(s.length - 7)}${s.slice(-4)}`;

/** A stored participant: its whole numbers. */
export interface StoredParticipant {
  id: number;
  name: string;
  gender: 0 | 1 | 2;
  certificateType: 1 | 2 | 3 | 4;
  certificateNumber: string;
  phone: string;
  emergencyName: string;
  emergencyPhone: string;
  birthday: string;
}

export const PARTICIPANT_ADULT: StoredParticipant = {
  id: 7,
  name: '李娜',
  gender: 2,
  certificateType: 1,
  certificateNumber: '110105199005200022',
  phone: '13600000001',
  emergencyName: '李强',
  emergencyPhone: '13500000002',
  birthday: '1990-05-20',
};
export const PARTICIPANT_MINOR: StoredParticipant = {
  id: 8,
  name: '王小明',
  gender: 1,
  certificateType: 2,
  certificateNumber: 'E12345678',
  phone: '13600000003',
  emergencyName: '王强',
  emergencyPhone: '13500000004',
  birthday: '2012-03-04',
};

export const answerOf = (p: StoredParticipant): SavedParticipant => ({
  ...p,
  certificateNumber: maskCert(p.certificateNumber),
  phone: maskPhone(p.phone),
  emergencyPhone: maskPhone(p.emergencyPhone),
  age: ageOn(p.birthday, PARTICIPANTS_TODAY),
  adult: ageOn(p.birthday, PARTICIPANTS_TODAY) >= 18,
  updatedAt: 0,
});

export interface ParticipantsMock {
  list: StoredParticipant[];
  saves: Record<string, unknown>[];
  deletes: number[];
  nextId: number;
}
export const participantsMock: ParticipantsMock = {} as ParticipantsMock;
export function resetParticipantsMock(list: StoredParticipant[] = []): void {
  Object.assign(participantsMock, { list: list.map((p) => ({ ...p })), saves: [], deletes: [], nextId: 100 });
}
resetParticipantsMock();

const expired = () => refuse(401, 'loginExpired');

export const participantHandlers = [
  http.get(api(API_PATHS.participantList), ({ request }) =>
    loggedIn(request) ? ok(participantsMock.list.map(answerOf)) : expired(),
  ),
  http.post(api(API_PATHS.participantSave), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const body = (await request.json()) as Record<string, unknown>;
    participantsMock.saves.push(body);
    const stored = participantsMock.list.find((p) => p.id === body.id);
    if (body.id !== undefined && !stored) return refuse(404, 'participantMissing');
    const values = { ...body };
    if (stored) {
      const shown = answerOf(stored);
      for (const key of ['certificateNumber', 'phone', 'emergencyPhone'] as const) {
        if (values[key] === shown[key]) values[key] = stored[key];
      }
    }
    const refusals = checkParticipant(values, PARTICIPANTS_TODAY);
    const first = Object.values(refusals)[0];
    if (first) return refuse(400, first.code, { fields: refusals });
    if (!stored && participantsMock.list.length >= MAX_SAVED_PARTICIPANTS) {
      return refuse(400, 'participantLimit', null, { max: MAX_SAVED_PARTICIPANTS });
    }
    const saved = { ...(values as unknown as StoredParticipant), id: stored?.id ?? participantsMock.nextId++ };
    participantsMock.list = stored
      ? participantsMock.list.map((p) => (p.id === saved.id ? saved : p))
      : [...participantsMock.list, saved];
    return ok(answerOf(saved));
  }),
  http.post(api(API_PATHS.participantDelete), async ({ request }) => {
    if (!loggedIn(request)) return expired();
    const { id } = (await request.json()) as { id: number };
    participantsMock.deletes.push(id);
    if (!participantsMock.list.some((p) => p.id === id)) return refuse(404, 'participantMissing');
    participantsMock.list = participantsMock.list.filter((p) => p.id !== id);
    return ok(null);
  }),
];
