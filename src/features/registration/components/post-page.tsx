/**
 * /post: race-pack mailing (issue 13 §4, spec §9 sample): the runner chooses mailing instead of pick-up and
 * gives the address with the region picker, before the deadline of the race's settings, under the
 * cash-on-delivery notice of the settings. After the deadline the choice is shown, no longer changeable.
 * Once the runner chose mailing, the parcel (issue 15 §5) is shown above the choice: waiting for dispatch (when
 * it is sent is the race's notice), or shipped with the carrier and a tracking number to copy; a shipped
 * parcel's details no longer change.
 */
import CopyOutlined from '@ant-design/icons/CopyOutlined';
import { Button, Form, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ParcelView } from '#contract/after-entry';
import type { RegionCodes } from '#contract/region';
import {
  MAILING_METHODS,
  type MailingAnswer,
  type MailingChoice,
  type MailingMethod,
} from '#contract/registration-screens';
import { FieldItem } from '@/components/form/field-item';
import { PATHS } from '@/config/paths';
import { PhoneField } from '@/components/form/phone-field';
import { RegionField } from '@/components/form/region-picker';
import { NameField, TextField } from '@/components/form/text-field';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { showFieldRefusals } from '@/lib/field-refusals';
import { notify } from '@/lib/notify';
import { useRaceId } from '@/lib/use-race-id';
import { useAppStore } from '@/stores/app-store';
import { getMailing, saveMailing } from '../api/mailing';
import { errorMessage, fieldRefusalsOf } from '../utils/field-refusals';
import { localText } from '../utils/form-utils';
import { useRaceTime } from '../utils/race-time';
import { useLoad } from '../utils/use-load';
import { LoadState, ScreenFrame, ScreenNotice } from './screen-frame';
import { RegionName } from './region-name';

interface MailingValues {
  method: MailingMethod;
  name?: string;
  phone?: string;
  region?: RegionCodes;
  address?: string;
}

export default function PostPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload, set } = useLoad(() => getMailing(raceId), raceId);
  return (
    <ScreenFrame title={t('registration.post.title')} subtitle={t('registration.post.subtitle')} testId="post-page">
      {raceId ? (
        <LoadState load={result} retry={reload}>
          {(data) => (
            <MailingContent
              data={data}
              raceId={raceId}
              onSaved={(choice) => {
                // Mailing (again) waits for dispatch; pick-up has no parcel.
                const { parcel, ...rest } = data;
                set(choice.method === 'mail' ? { ...rest, choice, parcel: parcel ?? WAITING } : { ...rest, choice });
              }}
            />
          )}
        </LoadState>
      ) : (
        <ScreenNotice tone="off" title={t('registration.screen.noRace')} />
      )}
    </ScreenFrame>
  );
}

const WAITING: ParcelView = { state: 'waiting', carrier: null, trackingNo: null, shippedAt: null };

function MailingContent({
  data,
  raceId,
  onSaved,
}: {
  data: MailingAnswer;
  raceId: string;
  onSaved: (choice: MailingChoice) => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const time = useRaceTime();
  const { settings, choice, parcel } = data;
  const [editing, setEditing] = useState(!choice);
  const shipped = parcel?.state === 'shipped';

  if (settings.state === 'closed') {
    return <ScreenNotice tone="off" title={t('messages.mailingClosed')} testId="post-closed" />;
  }
  return (
    <div className="rs-post">
      <div className="rs-notice rs-notice--info" data-testid="post-notice">
        <strong className="rs-notice__title">{t('registration.post.noticeTitle')}</strong>
        <div className="rs-notice__body">
          <p>{localText(language, settings.notice)}</p>
          <p>
            {t('registration.post.deadline')}
            <time data-testid="post-deadline">{time(settings.deadline)}</time>
          </p>
        </div>
      </div>
      {settings.state === 'ended' ? (
        <ScreenNotice tone="off" title={t('messages.mailingEnded')} testId="post-ended" />
      ) : null}
      {data.pickupBookings?.length ? <PickupBooked bookings={data.pickupBookings} /> : null}
      {choice?.method === 'mail' && parcel && (!editing || shipped) ? <ParcelState parcel={parcel} /> : null}
      {choice && (!editing || settings.state === 'ended' || shipped) ? (
        <ChoiceView
          choice={choice}
          onChange={settings.state === 'open' && !shipped ? () => setEditing(true) : undefined}
        />
      ) : null}
      {settings.state === 'open' && editing && !shipped ? (
        <MailingForm
          raceId={raceId}
          choice={choice}
          onSaved={(saved) => {
            onSaved(saved);
            setEditing(false);
          }}
        />
      ) : null}
      {settings.state === 'ended' && !choice ? <p className="rs-note">{t('registration.post.noChoice')}</p> : null}
    </div>
  );
}

/**
 * A pack is mailed OR collected: a runner with a pick-up booking is told so here, with the way to the booking
 * (cancel it there to have the pack mailed; the server refuses mailing while it stands).
 */
function PickupBooked({ bookings }: { bookings: NonNullable<MailingAnswer['pickupBookings']> }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const slots = bookings
    .map((b) => (b.slot ? `${b.slot.date} ${b.slot.start}–${b.slot.end}` : b.slotId))
    .join(language === 'zh' ? '、' : ', ');
  return (
    <div className="rs-notice rs-notice--info" role="status" data-testid="post-pickup-booked">
      <div className="rs-notice__body">
        <p>{t('registration.post.pickupBooked', { slots })}</p>
        <p>
          <Link to={PATHS.pickup} data-testid="post-pickup-link">
            {t('registration.post.pickupLink')}
          </Link>
        </p>
      </div>
    </div>
  );
}

/** The parcel of a runner who chose mailing: waiting for dispatch, or shipped with carrier and tracking number. */
function ParcelState({ parcel }: { parcel: ParcelView }) {
  const { t } = useTranslation();
  const time = useRaceTime();
  if (parcel.state !== 'shipped' || !parcel.trackingNo) {
    return (
      <div className="rs-status rs-status--wait" data-testid="post-parcel" data-state="waiting">
        <div className="rs-status__head">
          <span className="rs-status__label">{t('registration.post.parcel.label')}</span>
          <strong>{t('registration.post.parcel.waiting')}</strong>
        </div>
        <p className="rs-status__text">{t('registration.post.parcel.waitingNote')}</p>
      </div>
    );
  }
  const trackingNo = parcel.trackingNo;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(trackingNo);
      notify.success(t('registration.post.parcel.copied'));
    } catch {
      notify.error(t('registration.post.parcel.copyFailed'));
    }
  };
  return (
    <div className="rs-status rs-status--ok" data-testid="post-parcel" data-state="shipped">
      <div className="rs-status__head">
        <span className="rs-status__label">{t('registration.post.parcel.label')}</span>
        <strong>{t('registration.post.parcel.shipped')}</strong>
      </div>
      <dl className="rs-kv">
        <div>
          <dt>{t('registration.post.parcel.carrier')}</dt>
          <dd data-testid="post-parcel-carrier">{parcel.carrier}</dd>
        </div>
        <div>
          <dt>{t('registration.post.parcel.trackingNo')}</dt>
          <dd className="rs-parcel__tracking">
            <span data-testid="post-parcel-tracking">{trackingNo}</span>
            <Button
              size="small"
              icon={<CopyOutlined aria-hidden />}
              onClick={() => void copy()}
              data-testid="post-parcel-copy"
              aria-label={t('registration.post.parcel.copyLabel', { trackingNo })}
            >
              {t('registration.post.parcel.copy')}
            </Button>
          </dd>
        </div>
        {parcel.shippedAt === null ? null : (
          <div>
            <dt>{t('registration.post.parcel.shippedAt')}</dt>
            <dd>{time(parcel.shippedAt)}</dd>
          </div>
        )}
      </dl>
      <p className="rs-status__text">{t('registration.post.parcel.shippedNote')}</p>
    </div>
  );
}

function ChoiceView({ choice, onChange }: { choice: MailingChoice; onChange?: () => void }) {
  const { t } = useTranslation();
  const time = useRaceTime();
  const mail = choice.method === 'mail';
  return (
    <div className="rs-status rs-status--ok" data-testid="post-saved">
      <div className="rs-status__head">
        <span className="rs-status__label">{t('registration.post.yourChoice')}</span>
        <strong data-testid="post-saved-method">{t(`registration.post.methods.${choice.method}`)}</strong>
      </div>
      <dl className="rs-kv">
        {mail ? (
          <>
            <div>
              <dt>{t('registration.post.name')}</dt>
              <dd>{choice.name}</dd>
            </div>
            <div>
              <dt>{t('registration.post.phone')}</dt>
              <dd>{choice.phone}</dd>
            </div>
            <div className="rs-kv__wide">
              <dt>{t('registration.post.address')}</dt>
              <dd data-testid="post-saved-address">
                <RegionName codes={choice.region} /> {choice.address}
              </dd>
            </div>
          </>
        ) : null}
        <div>
          <dt>{t('registration.post.savedAt')}</dt>
          <dd>{time(choice.updatedAt)}</dd>
        </div>
      </dl>
      {onChange ? (
        <div className="rs-actions">
          <Button onClick={onChange} data-testid="post-change">
            {t('registration.post.change')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function MailingForm({
  raceId,
  choice,
  onSaved,
}: {
  raceId: string;
  choice?: MailingChoice;
  onSaved: (choice: MailingChoice) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<MailingValues>();
  const method = Form.useWatch('method', form) ?? choice?.method ?? 'mail';
  const [saving, setSaving] = useState(false);
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useAnnounceFormErrors(node);

  const save = async (values: MailingValues) => {
    setSaving(true);
    try {
      const saved = await saveMailing(
        values.method === 'mail'
          ? {
              raceId,
              method: 'mail',
              name: values.name?.trim(),
              phone: values.phone?.trim(),
              region: values.region,
              address: values.address?.trim(),
            }
          : { raceId, method: 'pickup' },
      );
      notify.success(t('registration.post.saved'));
      onSaved(saved);
    } catch (error) {
      const refusals = fieldRefusalsOf(error);
      if (refusals) showFieldRefusals(form, refusals);
      notify.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div ref={setNode}>
      <Form<MailingValues>
        form={form}
        name="post-form"
        layout="vertical"
        requiredMark={false}
        className="rs-form"
        noValidate
        initialValues={{
          method: choice?.method ?? 'mail',
          name: choice?.name,
          // The saved phone comes back masked: typed anew.
          region: choice?.region,
          address: choice?.address,
        }}
        onFinish={(values) => void save(values)}
      >
        <FieldItem
          name="method"
          label={<span id="post-form_method_label">{t('registration.post.method')}</span>}
          checks={[]}
          wide
        >
          <Radio.Group
            aria-labelledby="post-form_method_label"
            role="radiogroup"
            className="rs-method"
            options={MAILING_METHODS.map((m) => ({ value: m, label: t(`registration.post.methods.${m}`) }))}
          />
        </FieldItem>
        {method === 'mail' ? (
          <>
            <NameField label={t('registration.post.name')} checkOn="blur" />
            <PhoneField label={t('registration.post.phone')} strict checkOn="blur" />
            <RegionField label={t('registration.post.region')} wide />
            <TextField
              name="address"
              label={t('registration.post.address')}
              placeholder={t('registration.post.addressPlaceholder')}
              wide
              checks={[(value) => (value?.trim() ? null : { code: 'addressRequired' })]}
              inputProps={{ maxLength: 120, autoComplete: 'street-address' }}
            />
          </>
        ) : (
          <p className="rs-note form-field--wide">{t('registration.post.pickupNote')}</p>
        )}
        <div className="rs-form__actions">
          <Button type="primary" size="large" htmlType="submit" loading={saving} data-testid="post-save">
            {t('registration.post.save')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
