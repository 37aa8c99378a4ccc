/**
 * The commitment letter's calls (issue 15 §1: letterGet, letterSign) over a small in-memory state that tests
 * set and read (`letterMock`, reset with `resetLetterMock`). letterSign refuses as the server does: another
 * version (letterChanged), a statement not ticked, a name other than the registered one, and a missing
 * guardian's or relative's details as field refusals.
 */
import { http, HttpResponse } from 'msw';
import {
  letterVersionHash,
  type Cosigner,
  type LetterAnswer,
  type LetterEntry,
  type LetterSignRequest,
} from '#contract/after-entry';
import { API_PATHS } from '#contract/api';
import { messageText, type MessageCode, type Refusal } from '#contract/messages';
import { checkPhone } from '#contract/rules';
import { api } from '../base-url';
import { LOGIN_TOKEN } from './auth';
import { VALID_TOKEN } from './common';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const refuse = (code: number, msgCode: MessageCode) =>
  HttpResponse.json({ code, msg: messageText(msgCode), data: null, msgCode });
const loggedIn = (request: Request) => [VALID_TOKEN, LOGIN_TOKEN].includes(request.headers.get('token') ?? '');

/** 2027-01-10 10:00:00 on the race clock (Asia/Shanghai). */
export const LETTER_NOW = Date.UTC(2027, 0, 10, 2, 0, 0);

const TEXT = {
  title: { zh: '测试马拉松参赛承诺书', en: 'Test Marathon Commitment' },
  body: {
    zh: '<p>本人自愿参赛。</p><script>alert(1)</script><p onclick="x()">遵守规程。</p>',
    en: '<p>I enter of my own free will.</p><script>alert(1)</script><p onclick="x()">I follow the rules.</p>',
  },
  statements: [
    { zh: '本人身体健康。', en: 'I am healthy.' },
    { zh: '本人不替跑。', en: 'No one runs in my place.' },
  ],
};
export const LETTER_HASH = letterVersionHash(TEXT);

export const LETTER_ADULT: LetterEntry = {
  entryNo: 'E2001',
  name: '张三',
  itemName: { zh: '10公里', en: '10 km' },
  needs: { guardian: false, relative: false },
  signature: null,
};
export const LETTER_MINOR: LetterEntry = {
  entryNo: 'E2002',
  name: '张小明',
  itemName: { zh: '10公里', en: '10 km' },
  needs: { guardian: true, relative: false },
  signature: null,
};

const initial = (): LetterAnswer => ({
  raceId: 'test-race-2027',
  letter: { ...TEXT, versionHash: LETTER_HASH, deadline: '2027-04-10 18:00:00' },
  state: 'open',
  entries: [LETTER_ADULT, LETTER_MINOR],
});

export const letterMock: { answer: LetterAnswer; signed: LetterSignRequest[] } = { answer: initial(), signed: [] };
export function resetLetterMock() {
  letterMock.answer = initial();
  letterMock.signed = [];
}

function cosignerFields(key: 'guardian' | 'relative', c: Cosigner | undefined): Record<string, Refusal> {
  const fields: Record<string, Refusal> = {};
  if (!c?.name.trim()) fields[`${key}.name`] = { code: 'cosignerNameRequired' };
  if (!c?.relation.trim()) fields[`${key}.relation`] = { code: 'cosignerRelationInvalid' };
  const phone = checkPhone(c?.phone, { strict: true });
  if (phone) fields[`${key}.phone`] = phone;
  return fields;
}

const masked = (c: Cosigner | undefined) =>
  c ? { name: c.name, relation: c.relation, phone: `${c.phone.slice(0, 3)}****${c.phone.slice(-4)}` } : null;

export const letterHandlers = [
  http.get(api(API_PATHS.letterGet), ({ request }) =>
    loggedIn(request) ? ok(letterMock.answer) : refuse(401, 'loginExpired'),
  ),
  http.post(api(API_PATHS.letterSign), async ({ request }) => {
    if (!loggedIn(request)) return refuse(401, 'loginExpired');
    const body = (await request.json()) as LetterSignRequest;
    const entry = letterMock.answer.entries.find((e) => e.entryNo === body.entryNo);
    if (!entry) return refuse(404, 'registrationMissing');
    if (body.versionHash !== letterMock.answer.letter?.versionHash) return refuse(409, 'letterChanged');
    const fields: Record<string, Refusal> = {};
    const every = letterMock.answer.letter.statements.map((_, i) => i).join(',');
    if ([...body.accepted].sort().join(',') !== every) fields.accepted = { code: 'letterStatementsMissing' };
    if (body.signerName.trim() !== entry.name) fields.signerName = { code: 'letterNameMismatch' };
    if (entry.needs.guardian) Object.assign(fields, cosignerFields('guardian', body.guardian));
    if (entry.needs.relative) Object.assign(fields, cosignerFields('relative', body.relative));
    const first = Object.values(fields)[0];
    if (first) {
      return HttpResponse.json({ code: 400, msg: messageText(first.code), data: { fields }, msgCode: first.code });
    }
    letterMock.signed.push(body);
    const signed: LetterEntry = {
      ...entry,
      signature: {
        versionHash: body.versionHash,
        current: true,
        signerName: body.signerName.trim(),
        guardian: masked(body.guardian),
        relative: masked(body.relative),
        signedAt: LETTER_NOW,
      },
    };
    letterMock.answer = {
      ...letterMock.answer,
      entries: letterMock.answer.entries.map((e) => (e.entryNo === entry.entryNo ? signed : e)),
    };
    return ok(signed);
  }),
];
