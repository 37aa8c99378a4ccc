import { http, HttpResponse } from 'msw';
import { API_PATHS } from '@/config/api-paths';
import { api } from '../base-url';
import { VALID_ID, halfResult, marathonResult, registrationAnswer } from '../../fixtures/search';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const fail = (msg: string) => HttpResponse.json({ code: 500, msg, data: null });

type Body = Record<string, unknown>;

/**
 * Search calls. Score: bib A1023, or 张三 + VALID_ID. Registration: 张三 + VALID_ID → status 1; 张三 + passport
 * 'P1234N' → status N (0-5). Photos: bib A1023. Certificate: cert-a1023 / good-sig. Export: the empty envelope.
 */
export const searchHandlers = [
  http.post(api(API_PATHS.searchScore), async ({ request }) => {
    const body = (await request.json()) as Body;
    if (body.bib === 'A1023') return ok(marathonResult);
    if (body.name === '张三' && body.certificateNumber === VALID_ID) return ok([marathonResult]);
    return fail('Your score information was not found...');
  }),
  http.post(api(API_PATHS.searchRegistration), async ({ request }) => {
    const body = (await request.json()) as Body;
    if (body.name !== '张三') return fail('Registration information does not exist');
    if (body.certificateNumber === VALID_ID) return ok(registrationAnswer(1));
    const m = /^P1234([0-5])$/.exec(String(body.certificateNumber));
    return m ? ok(registrationAnswer(Number(m[1]))) : fail('Registration information does not exist');
  }),
  http.post(api(API_PATHS.searchPb), async ({ request }) => {
    const body = (await request.json()) as Body;
    if (body.name !== '张三') return ok([]);
    return ok([
      { item: 'marathon', itemName: '全程马拉松', chipTime: '3:41:05', raceId: 'race-1', raceName: '2026 运河马拉松', date: '2026-11-08' },
      { item: 'half', itemName: '半程马拉松', chipTime: '1:45:30', raceId: 'race-0', raceName: '2025 运河马拉松', date: '2025-11-09' },
    ]);
  }),
  http.post(api(API_PATHS.searchHistory), async ({ request }) => {
    const body = (await request.json()) as Body;
    if (body.name !== '张三') return ok([]);
    const ids = Array.isArray(body.raceIds) ? (body.raceIds as string[]) : [];
    return ok([marathonResult, halfResult].filter((r) => !ids.length || ids.includes(String(r.raceId))));
  }),
  http.post(api(API_PATHS.searchPhotos), async ({ request }) => {
    const body = (await request.json()) as Body;
    if (body.bib !== 'A1023') return ok([]);
    return ok([
      { url: 'photos/a1023-1.jpg', takenAt: '2026-11-08 08:12:00' },
      { url: 'photos/a1023-2.jpg', takenAt: '2026-11-08 09:40:00' },
      { url: 'https://cdn.example/a1023-3.jpg' },
    ]);
  }),
  http.get(api(API_PATHS.certificateVerify), ({ request }) => {
    const url = new URL(request.url);
    if (url.searchParams.get('id') === 'cert-a1023' && url.searchParams.get('sig') === 'good-sig') {
      return ok({
        valid: true,
        facts: { raceName: '2026 运河马拉松', name: '张三', bib: 'A1023', itemName: '全程马拉松', chipTime: '3:41:05', ranks: marathonResult.ranks },
      });
    }
    return ok({ valid: false });
  }),
  http.post(api(API_PATHS.exportScores), () => HttpResponse.json({ code: 1, msg: '没有查询到数据哦', data: null })),
];
