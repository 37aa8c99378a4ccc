/**
 * The console's preview of a registration-form draft (issue 33 §3; contract/preview.ts `?preview=form`): the
 * draft of a race and channel, read from the console's API with the staff member's own session, shown as the
 * runner fills it in (the same RegistrationFormView, its checks and messages) in the language the address
 * names, on the desktop or the phone site (/m/). Nothing can be sent: a notice says so and "submit" only
 * repeats it. Started by app/form-preview.tsx, loaded only in preview mode.
 */
import { Alert, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Envelope } from '#contract/api';
import { FORM_EDITOR_PATHS, type FormDraftAnswer } from '#contract/form-editor';
import type { PreviewRequest } from '#contract/preview';
import { pickLang } from '@/lib/pick-lang';
import { useAppStore } from '@/stores/app-store';
import { RegistrationFormView } from '../components/registration-form';
import { LoadState, ScreenFrame } from '../components/screen-frame';
import { useLoad, type Load } from '../utils/use-load';
import '../entry.css';

export type FormRequest = Extract<PreviewRequest, { kind: 'form' }>;

/** The console's API (same origin as the site); the staff session cookie travels with it. */
const ADMIN_API = '/api/admin';

/** The draft, or why it cannot be shown (no staff session: the console's sign-in; anything else: try again). */
type DraftResult = { ok: true; draft: FormDraftAnswer } | { ok: false; signIn: boolean };

async function fetchDraft(request: FormRequest): Promise<DraftResult> {
  try {
    const response = await fetch(`${ADMIN_API}${FORM_EDITOR_PATHS.draft(request.raceId, request.channel)}`, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    const envelope = (await response.json().catch(() => null)) as Envelope<FormDraftAnswer> | null;
    if (envelope?.code === 0) return { ok: true, draft: envelope.data };
    const status = envelope?.code ?? response.status;
    return { ok: false, signIn: status === 401 || status === 403 };
  } catch {
    return { ok: false, signIn: false };
  }
}

export function FormPreview({ request }: { request: FormRequest }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [tried, setTried] = useState(false);
  const { result, reload } = useLoad(() => fetchDraft(request), `${request.raceId}\n${request.channel}`);
  const load: Load<FormDraftAnswer> =
    result.state !== 'ready'
      ? result
      : result.data.ok
        ? { state: 'ready', data: result.data.draft }
        : {
            state: 'failed',
            message: result.data.signIn ? t('registration.preview.signIn') : t('registration.screen.loadError'),
          };

  const form = load.state === 'ready' ? load.data.form : null;
  const title = form?.title ? pickLang(language, form.title.zh, form.title.en) : t('registration.preview.title');
  return (
    <ScreenFrame title={title} subtitle={request.channel} testId="form-preview">
      <Alert
        type="warning"
        showIcon
        className="rs-preview-notice"
        data-testid="preview-notice"
        title={t('registration.preview.notice')}
        description={t('registration.preview.noticeBody')}
        style={{ marginBottom: 24 }}
      />
      <LoadState load={load} retry={reload}>
        {(draft) =>
          draft.form ? (
            <>
              {tried ? (
                <Alert
                  type="info"
                  role="status"
                  data-testid="preview-not-sent"
                  title={t('registration.preview.notSent')}
                  style={{ marginBottom: 16 }}
                />
              ) : null}
              <RegistrationFormView
                form={draft.form}
                raceId={draft.raceId}
                name="form-preview"
                onSubmit={() => setTried(true)}
              />
            </>
          ) : (
            <div role="alert" data-testid="preview-problems">
              <p>{t('registration.preview.problems', { count: draft.problems.length })}</p>
              <ul>
                {draft.problems.map((problem, i) => (
                  <li key={i}>
                    <code>{problem.path}</code> {problem.message}
                  </li>
                ))}
              </ul>
              <Button onClick={reload}>{t('registration.retry')}</Button>
            </div>
          )
        }
      </LoadState>
    </ScreenFrame>
  );
}
