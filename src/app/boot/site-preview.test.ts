import { http, HttpResponse } from 'msw';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { BOUND_DOMAIN } from '@/testing/mocks/handlers/site';
import { testRace } from '@/testing/fixtures/site';
import { SITE_PREVIEW_PATH } from '#contract/preview';
import { LANGUAGE_COOKIE } from '@/lib/language';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { runSitePreviewBoot } from './site-preview';

const draftAnswer = (text: string, report = { errors: [] as object[], warnings: [] as object[] }) =>
  http.get(api(SITE_PREVIEW_PATH), ({ request }) => {
    const url = new URL(request.url);
    expect(url.searchParams.get('domain')).toBe(BOUND_DOMAIN);
    return HttpResponse.json({ code: 0, msg: 'success', data: { text, raceId: testRace.raceId, report } });
  });

const ribbon = () => document.querySelector<HTMLElement>('[data-testid="draft-preview-ribbon"]');

beforeEach(() => {
  document.cookie = `${LANGUAGE_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  ribbon()?.remove();
  useAppStore.setState({ language: 'zh' });
});

describe('the preview of a site draft', () => {
  it('is not started for an address without a site preview', async () => {
    await expect(runSitePreviewBoot('?preview=site')).resolves.toBeNull();
    await expect(runSitePreviewBoot('?preview=form&raceId=r&channel=public')).resolves.toBeNull();
    expect(ribbon()).toBeNull();
  });

  it('shows the draft (not the published document) for the given domain, in the given language, without the cookie', async () => {
    server.use(draftAnswer(JSON.stringify({ version: '1', websiteTitle: '草稿标题', logo: '' })));
    await expect(runSitePreviewBoot(`?preview=site&domain=${BOUND_DOMAIN}&lang=en`)).resolves.toEqual({
      status: 'ready',
    });
    const site = useSiteStore.getState();
    expect(site.mode).toBe('bound');
    expect(site.config?.websiteTitle).toBe('草稿标题');
    expect(site.race?.raceId).toBe(testRace.raceId);
    expect(useAppStore.getState()).toMatchObject({ language: 'en', raceId: testRace.raceId, domainName: BOUND_DOMAIN });
    expect(document.cookie).not.toMatch(new RegExp(`${LANGUAGE_COOKIE}=`));
    expect(ribbon()?.getAttribute('role')).toBe('note');
    expect(ribbon()?.getAttribute('aria-label')).toBe('Draft preview');
    expect(ribbon()?.textContent).toMatch(/0 errors/);
  });

  it('lists the validator’s problem when the draft does not parse, over the preview configuration', async () => {
    const problem = { path: '$', message: "Expected ',' or '}' after property value at line 3, column 3" };
    server.use(draftAnswer('{\n "websiteTitle": "x"\n "logo": ""}', { errors: [problem], warnings: [] }));
    await runSitePreviewBoot(`?preview=site&domain=${BOUND_DOMAIN}&lang=zh`);
    expect(useSiteStore.getState()).toMatchObject({ mode: 'preview', previewReason: 'failed' });
    expect(ribbon()?.getAttribute('aria-label')).toBe('草稿预览');
    expect(ribbon()?.textContent).toMatch(/草稿无法显示/);
    expect(ribbon()?.textContent).toMatch(/line 3, column 3/);
  });

  it('says so when the visitor has no console session with the site permission', async () => {
    server.use(http.get(api(SITE_PREVIEW_PATH), () => HttpResponse.json({ code: 401, msg: 'Sign in', data: null })));
    await runSitePreviewBoot(`?preview=site&domain=${BOUND_DOMAIN}&lang=en`);
    expect(useSiteStore.getState().mode).toBe('preview');
    expect(ribbon()?.textContent).toMatch(/Sign in to the race console/);
  });
});
