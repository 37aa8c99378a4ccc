/**
 * The console's preview of a registration-form draft (`?preview=form`): the draft read from the console's API
 * shown as the runner fills it in, with the notice that nothing is sent; "submit" sends nothing; the language of
 * the address without writing the language cookie; a visitor without a staff session, or a draft with problems,
 * is told so.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { act } from 'react';
import type { FormDraftAnswer } from '#contract/form-editor';
import type { RegistrationForm } from '#contract/registration-form';
import { server } from '@/testing/mocks/server';
import { startFormPreview } from './form-preview';

const FORM: RegistrationForm = {
  version: 1,
  raceId: 'qc-marathon-2027',
  channel: 'public',
  title: { zh: '报名信息', en: 'Entry form' },
  fields: [
    {
      key: 'shirtFit',
      type: 'picker',
      label: { zh: 'T恤版型', en: 'T-shirt fit' },
      options: [
        { value: 'slim', label: { zh: '修身', en: 'Slim' } },
        { value: 'regular', label: { zh: '常规', en: 'Regular' } },
      ],
    },
  ],
};
const draft = (over: Partial<FormDraftAnswer> = {}): FormDraftAnswer => ({
  raceId: FORM.raceId,
  channel: 'public',
  text: JSON.stringify(FORM),
  source: 'draft',
  savedAt: 1,
  savedBy: { staffId: 1, name: 'Owner' },
  publishedVersion: 1,
  samePublished: false,
  problems: [],
  form: FORM,
  ...over,
});
const DRAFT_URL = 'http://localhost:3000/api/admin/races/:raceId/forms/:channel/draft';

async function start(language: 'zh' | 'en', answer: object) {
  const requests: string[] = [];
  server.use(
    http.get(DRAFT_URL, ({ request }) => {
      requests.push(`GET ${new URL(request.url).pathname}`);
      return HttpResponse.json(answer);
    }),
  );
  server.events.on('request:start', ({ request }) => {
    if (request.method !== 'GET') requests.push(`${request.method} ${new URL(request.url).pathname}`);
  });
  document.body.innerHTML = '<div id="root"></div>';
  await act(async () => {
    expect(await startFormPreview(`?preview=form&raceId=${FORM.raceId}&channel=public&lang=${language}`)).toBe(true);
  });
  return requests;
}

afterEach(() => server.events.removeAllListeners());

describe('the form preview', () => {
  it('shows the draft as the runner fills it, says nothing is sent, and sends nothing', async () => {
    const requests = await start('en', { code: 0, msg: 'success', data: draft() });
    await screen.findByText('T-shirt fit');
    expect(screen.getByTestId('preview-notice')).toHaveTextContent('Preview: nothing is sent');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Entry form');
    await userEvent.setup().click(screen.getByTestId('submit-form'));
    await screen.findByTestId('preview-not-sent');
    // Only the draft was asked for (twice under StrictMode), nothing posted.
    expect(new Set(requests)).toEqual(new Set(['GET /api/admin/races/qc-marathon-2027/forms/public/draft']));
    // The address's language, the visitor's cookie untouched.
    expect(document.documentElement.lang).toBe('en');
    expect(document.cookie).not.toMatch(/language=/);
  });

  it('is not started by an address that names no race or channel', async () => {
    expect(await startFormPreview('?preview=form&channel=public')).toBe(false);
  });

  it('asks a visitor without a staff session to sign in to the console (zh)', async () => {
    await start('zh', { code: 401, msg: 'Sign in', data: null });
    const alert = await screen.findByTestId('screen-error');
    expect(alert).toHaveTextContent('请先登录组委会后台，再打开预览');
    expect(screen.queryByTestId('submit-form')).toBeNull();
  });

  it('lists the problems of a draft that does not pass the checks', async () => {
    const problems = [{ path: '$.fields[0].requred', message: 'unknown key "requred"' }];
    await start('en', { code: 0, msg: 'success', data: draft({ form: null, problems }) });
    const list = await screen.findByTestId('preview-problems');
    await waitFor(() => expect(within(list).getByText('$.fields[0].requred')).toBeInTheDocument());
    expect(screen.queryByTestId('submit-form')).toBeNull();
  });
});
