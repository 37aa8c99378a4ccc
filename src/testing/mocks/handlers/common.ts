import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { api } from '../base-url';

export const VALID_TOKEN = 'valid-token-0123456789abcdef';

export const commonHandlers = [
  http.post(api(API_PATHS.commonInfo), ({ request }) =>
    request.headers.get('token') === VALID_TOKEN
      ? HttpResponse.json({ code: 0, msg: 'success', data: { userId: 1 } })
      : HttpResponse.json({ code: 401, msg: 'Your login has expired, please log in again', data: null }),
  ),
];
