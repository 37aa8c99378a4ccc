/**
 * /direct: the direct-pass (直通) qualification application (spec §2, §4; issue 13 §4). Step 1 is the
 * notice with the application window, step 2 the race's 'direct' form. The runner's application (one per
 * account and race) is listed with the list-view label (0 waiting to submit, 1/2/3 submitted) and shown
 * with its status: 0 a saved draft to continue, 1 submitted awaiting review, 2 approved, 3 rejected with
 * the organiser's reason and the way to correct and resubmit. Before the window the form is not offered
 * yet; after it, 'application ended'.
 */
import { Button, Steps, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Refusal } from '#contract/messages';
import type { RegistrationForm } from '#contract/registration-form';
import {
  DIRECT_ENDED_LABEL,
  DIRECT_FORM_CHANNEL,
  DIRECT_LIST_LABELS,
  DIRECT_STATUS_LABELS,
  DIRECT_STATUSES,
  type DirectApplication,
  type DirectMineAnswer,
} from '#contract/registration-screens';
import { PATHS } from '@/config/paths';
import { notify } from '@/lib/notify';
import { useRaceId } from '@/lib/use-race-id';
import { getDirectMine, saveDirect } from '../api/direct';
import { getRegistrationForm } from '../api/get-registration-form';
import { errorMessage, fieldRefusalsOf } from '../utils/field-refusals';
import { useRaceTime } from '../utils/race-time';
import { useLoad } from '../utils/use-load';
import { RegistrationFormView, type FormValues } from './registration-form';
import { LoadState, ScreenFrame, ScreenNotice } from './screen-frame';
import '../entry.css';

const STATUS_TONE = { 0: 'wait', 1: 'wait', 2: 'ok', 3: 'off' } as const;
const TAG_COLOR = { 0: 'default', 1: 'processing', 2: 'success', 3: 'error' } as const;

interface DirectData {
  mine: DirectMineAnswer;
  form: RegistrationForm;
}

export default function DirectPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload, set } = useLoad<DirectData>(async () => {
    const [mine, published] = await Promise.all([
      getDirectMine(raceId),
      getRegistrationForm(raceId, DIRECT_FORM_CHANNEL),
    ]);
    return { mine, form: published.form };
  }, raceId);
  return (
    <ScreenFrame
      title={t('registration.direct.title')}
      subtitle={t('registration.direct.subtitle')}
      testId="direct-page"
    >
      {raceId ? (
        <LoadState load={result} retry={reload}>
          {(data) => (
            <DirectContent
              data={data}
              raceId={raceId}
              onSaved={(application) => set({ ...data, mine: { ...data.mine, application } })}
            />
          )}
        </LoadState>
      ) : (
        <ScreenNotice tone="off" title={t('registration.screen.noRace')} />
      )}
    </ScreenFrame>
  );
}

type View = 'status' | 'notice' | 'form';

function DirectContent({
  data,
  raceId,
  onSaved,
}: {
  data: DirectData;
  raceId: string;
  onSaved: (application: DirectApplication) => void;
}) {
  const { t } = useTranslation();
  const { mine, form } = data;
  const application = mine.application;
  const open = mine.window.state === 'open';
  const [view, setView] = useState<View>(application ? 'status' : 'notice');
  const [fieldErrors, setFieldErrors] = useState<Record<string, Refusal>>();
  const [saving, setSaving] = useState(false);

  const save = async (values: FormValues, submit: boolean) => {
    setSaving(true);
    setFieldErrors(undefined);
    try {
      const saved = await saveDirect({ raceId, values, submit });
      notify.success(t(submit ? 'registration.direct.submitted' : 'registration.direct.draftSaved'));
      onSaved(saved);
      if (submit) setView('status');
    } catch (error) {
      const refusals = fieldRefusalsOf(error);
      if (refusals) setFieldErrors(refusals);
      notify.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  const editable = application === undefined || application.status === 0 || application.status === 3;
  const canEdit = open && editable;

  return (
    <div className="rs-direct">
      <WindowLine window={mine.window} />
      {application ? <ApplicationList application={application} onView={() => setView('status')} /> : null}
      {view === 'status' && application ? (
        <ApplicationStatus application={application} canEdit={canEdit} onEdit={() => setView('form')} />
      ) : null}
      {!application && mine.window.state === 'notYet' ? (
        <ScreenNotice tone="wait" title={t('registration.direct.notYet')} testId="direct-not-yet" />
      ) : null}
      {mine.window.state === 'ended' && (!application || editable) ? (
        <ScreenNotice tone="off" title={t(DIRECT_ENDED_LABEL)} testId="direct-ended" />
      ) : null}
      {open && view === 'notice' && editable ? (
        <>
          <Steps className="rs-steps" current={0} items={stepItems(t)} />
          <DirectNotice onNext={() => setView('form')} />
        </>
      ) : null}
      {canEdit && view === 'form' ? (
        <>
          <Steps className="rs-steps" current={1} items={stepItems(t)} />
          {application?.status === DIRECT_STATUSES.rejected ? (
            <ScreenNotice tone="off" title={t('registration.direct.correctTitle')}>
              {application.rejectReason}
            </ScreenNotice>
          ) : null}
          <RegistrationFormView
            form={form}
            raceId={raceId}
            name="direct-form"
            initialValues={application?.values}
            serverValues={application?.values}
            fieldErrors={fieldErrors}
            submitting={saving}
            onSubmit={(values) => save(values, true)}
            onSaveDraft={(values) => save(values, false)}
          />
        </>
      ) : null}
    </div>
  );
}

const stepItems = (t: (key: 'registration.direct.step1' | 'registration.direct.step2') => string) => [
  { title: t('registration.direct.step1') },
  { title: t('registration.direct.step2') },
];

function WindowLine({ window }: { window: DirectMineAnswer['window'] }) {
  const { t } = useTranslation();
  const time = useRaceTime();
  const state = window.state === 'open' ? 'open' : window.state === 'notYet' ? 'notYet' : 'ended';
  return (
    <p className={`rs-window rs-window--${state}`} data-testid="direct-window">
      <span>{t('registration.direct.window')}</span>
      <time>{time(window.startTime)}</time>
      <span aria-hidden="true"> — </span>
      <time>{time(window.endTime)}</time>
      <Tag className="rs-window__state" color={state === 'open' ? 'success' : state === 'notYet' ? 'default' : 'error'}>
        {state === 'ended' ? t(DIRECT_ENDED_LABEL) : t(`registration.direct.windowStates.${state}`)}
      </Tag>
    </p>
  );
}

/** Step 1: what the direct pass is and how the application goes. */
function DirectNotice({ onNext }: { onNext: () => void }) {
  const { t } = useTranslation();
  const points = t('registration.direct.noticePoints', { returnObjects: true }) as unknown as string[];
  return (
    <div className="rs-notice-step" data-testid="direct-notice">
      <h2 className="rs-section-title">{t('registration.direct.noticeTitle')}</h2>
      <ol className="rs-rules">
        {points.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ol>
      <div className="rs-actions">
        <Button type="primary" size="large" onClick={onNext} data-testid="direct-next">
          {t('registration.direct.next')}
        </Button>
      </div>
    </div>
  );
}

/** The list view: the runner's applications with the list labels (spec §4). */
function ApplicationList({ application, onView }: { application: DirectApplication; onView: () => void }) {
  const { t } = useTranslation();
  const time = useRaceTime();
  const name = typeof application.values.name === 'string' ? application.values.name : '—';
  return (
    <div className="rs-list" data-testid="direct-list">
      <h2 className="rs-section-title">{t('registration.direct.listTitle')}</h2>
      <table className="rs-table">
        <thead>
          <tr>
            <th scope="col">{t('registration.direct.listName')}</th>
            <th scope="col">{t('registration.direct.listUpdated')}</th>
            <th scope="col">{t('registration.direct.listStatus')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('registration.direct.listAction')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{name}</td>
            <td>{time(application.submittedAt ?? application.updatedAt)}</td>
            <td data-testid="direct-list-status">{t(DIRECT_LIST_LABELS[application.status])}</td>
            <td>
              <Button type="link" onClick={onView}>
                {t('registration.direct.view')}
              </Button>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** The detail view: the status and what the runner can do next. */
function ApplicationStatus({
  application,
  canEdit,
  onEdit,
}: {
  application: DirectApplication;
  canEdit: boolean;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const time = useRaceTime();
  const { status } = application;
  return (
    <div className={`rs-status rs-status--${STATUS_TONE[status]}`} data-testid="direct-status" data-status={status}>
      <div className="rs-status__head">
        <span className="rs-status__label">{t('registration.direct.status')}</span>
        <Tag color={TAG_COLOR[status]} data-testid="direct-status-label">
          {t(DIRECT_STATUS_LABELS[status])}
        </Tag>
      </div>
      <p className="rs-status__text">{t(`registration.direct.statusText.${status}`)}</p>
      <dl className="rs-kv">
        {application.submittedAt ? (
          <div>
            <dt>{t('registration.direct.submittedAt')}</dt>
            <dd>{time(application.submittedAt)}</dd>
          </div>
        ) : (
          <div>
            <dt>{t('registration.direct.savedAt')}</dt>
            <dd>{time(application.updatedAt)}</dd>
          </div>
        )}
        {application.reviewedAt ? (
          <div>
            <dt>{t('registration.direct.reviewedAt')}</dt>
            <dd>{time(application.reviewedAt)}</dd>
          </div>
        ) : null}
        {status === DIRECT_STATUSES.rejected ? (
          <div className="rs-kv__wide">
            <dt>{t('registration.direct.rejectReason')}</dt>
            <dd data-testid="direct-reject-reason">{application.rejectReason || '—'}</dd>
          </div>
        ) : null}
      </dl>
      {status === DIRECT_STATUSES.approved ? (
        <div className="rs-actions">
          <Link className="en-link-button" to={`${PATHS.signUp}?channel=direct`} data-testid="direct-sign-up">
            {t('registration.direct.signUp')}
          </Link>
        </div>
      ) : null}
      {canEdit ? (
        <div className="rs-actions">
          <Button type="primary" size="large" onClick={onEdit} data-testid="direct-edit">
            {status === DIRECT_STATUSES.rejected
              ? t('registration.direct.resubmit')
              : t('registration.direct.continue')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
