import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { api } from '../base-url';
import {
  APP_PASSPORT,
  THIRD_PARTY_PASSPORT,
  THIRD_PARTY_ZH_ONLY_PASSPORT,
  VALID_ID,
  halfResult,
  marathonResult,
  registrationAnswer,
  registrationStatusAnswer,
} from '../../fixtures/search';
import type { RegistrationChannel } from '@/features/search/types/search-types';

const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'success', data });
const fail = (msg: string) => HttpResponse.json({ code: 500, msg, data: null });

type Body = Record<string, unknown>;

/**
 * Search calls. Races with results: race-1 (2026), race-0 (2025). Score: bib A1023, or 张三 + VALID_ID. Registration (queryType 1 status, 2/3/5 the info of that
 * channel only): 张三 + VALID_ID → status 1 via the website; 张三 + passport 'P1234N' → status N (0-5) via the
 * website; APP_PASSPORT → status 0 via the app; THIRD_PARTY_PASSPORT (_ZH_ONLY_) → status 1 via a platform. Photos: bib A1023. Certificate: cert-a1023 / good-sig. Export: the empty envelope.
 */
export const searchHandlers = [
  http.post(api(API_PATHS.searchScore), async ({ request }) => {
    const body = (await request.json()) as Body;
    if (body.bib === 'A1023') return ok(marathonResult);
    if (body.name === '张三' && body.certificateNumber === VALID_ID) return ok([marathonResult]);
    return fail('Your score information was not found...');
  }),
  http.get(api(API_PATHS.racesWithResults), () =>
    ok([
      {
        raceId: 'race-1',
        raceName: '2026 运河马拉松',
        raceNameEn: '2026 Canal Marathon',
        raceDate: '2026-11-08',
        results: 8512,
      },
      { raceId: 'race-0', raceName: '2025 运河马拉松', raceNameEn: '', raceDate: '2025-11-09', results: 7900 },
    ]),
  ),
  http.post(api(API_PATHS.searchRegistration), async ({ request }) => {
    const body = (await request.json()) as Body;
    const missing = fail('Registration information does not exist');
    const queryType = body.queryType ?? 1;
    if (![1, 2, 3, 5].includes(Number(queryType)))
      return HttpResponse.json({ code: 400, msg: 'queryType must be 1, 2, 3 or 5', data: null }, { status: 400 });
    if (body.name !== '张三') return missing;
    const number = String(body.certificateNumber);
    const m = /^P1234([0-5])$/.exec(number);
    const found: [number, RegistrationChannel, [string, string?]?] | null =
      number === VALID_ID
        ? [1, 3]
        : number === APP_PASSPORT
          ? [0, 5]
          : number === THIRD_PARTY_PASSPORT
            ? [1, 2, ['青川体育旅行', 'Qingchuan Sports Travel']]
            : number === THIRD_PARTY_ZH_ONLY_PASSPORT
              ? [1, 2, ['跑者之家']]
              : m
                ? [Number(m[1]), 3]
                : null;
    if (!found) return missing;
    const [status, channel, platform] = found;
    if (queryType === 1) return ok(registrationStatusAnswer(status, channel, platform));
    return queryType === channel ? ok(registrationAnswer(status, channel, platform)) : missing;
  }),
  http.post(api(API_PATHS.searchPb), async ({ request }) => {
    const body = (await request.json()) as Body;
    if (body.name !== '张三') return ok([]);
    return ok([
      {
        item: 'marathon',
        itemName: '全程马拉松',
        chipTime: '3:41:05',
        raceId: 'race-1',
        raceName: '2026 运河马拉松',
        raceNameEn: '2026 Canal Marathon',
        itemNameEn: 'Marathon',
        raceDate: '2026-11-08',
      },
      {
        item: 'half',
        itemName: '半程马拉松',
        chipTime: '1:45:30',
        raceId: 'race-0',
        raceName: '2025 运河马拉松',
        raceDate: '2025-11-09',
      },
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
        facts: {
          raceName: '2026 运河马拉松',
          name: '张三',
          bib: 'A1023',
          itemName: '全程马拉松',
          chipTime: '3:41:05',
          ranks: marathonResult.ranks,
        },
      });
    }
    return ok({ valid: false });
  }),
  http.post(api(API_PATHS.exportScores), () => HttpResponse.json({ code: 1, msg: '没有查询到数据哦', data: null })),
];
