import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import { api } from '../base-url';

export const configHandlers = [
  http.get(api(API_PATHS.cloudConfigIndex), () => HttpResponse.json({ cloudType: 'tencentyun', fileHost: '/files/' })),
  http.get(api(`${API_PATHS.translationsPrefix}common.json`), () =>
    HttpResponse.json({ 'layout.footer.filings': { zh: '远程备案信息', en: 'Remote filings' } }),
  ),
  http.get(api(`${API_PATHS.translationsPrefix}website.json`), () =>
    HttpResponse.json({ 'home.slogan': { zh: '远程首页', en: 'Remote home' }, broken: 'not an object' }),
  ),
];
