/**
 * /confirm: registration confirmation (spec §2 "/confirm: search, result, machine check"; issue 13 §4). The
 * runner passes the slider check, looks up the registration by name and certificate, reads it (numbers
 * masked: status, item, bib, channel) and confirms it; the confirmation's time is shown from then on. A
 * slider pass serves one search: each search asks for a new one.
 */
import { Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CERTIFICATE_TYPE_LABELS,
  CHANNEL_KEYS,
  genderLabel,
  isCertificateType,
  type RegistrationChannel,
} from '#contract/enums';
import { entryStatusLabel } from '#contract/entry';
import type { ConfirmRegistration, RunnerKey } from '#contract/registration-screens';
import { SliderCaptcha } from '@/components/captcha/slider-captcha';
import { CertificateFields } from '@/components/form/certificate-fields';
import { NameField } from '@/components/form/text-field';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import type { SliderPass } from '@/lib/captcha';
import { pickLang } from '@/lib/pick-lang';
import { useRaceId } from '@/lib/use-race-id';
import { useAppStore } from '@/stores/app-store';
import { confirmRegistration, searchConfirm } from '../api/confirm';
import { errorMessage } from '../utils/field-refusals';
import { useRaceTime } from '../utils/race-time';
import { ScreenFrame, ScreenNotice } from './screen-frame';

const show = (value: unknown) => (value === undefined || value === null || value === '' ? '—' : String(value));

export default function ConfirmPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const [pass, setPass] = useState<SliderPass | null>(null);
  const [sliderKey, setSliderKey] = useState(0);
  const [searching, setSearching] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [who, setWho] = useState<RunnerKey | null>(null);
  const [found, setFound] = useState<ConfirmRegistration | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useAnnounceFormErrors(node);

  /** A pass is used once: a fresh slider for the next search. */
  const newSlider = () => {
    setPass(null);
    setSliderKey((n) => n + 1);
  };

  const search = async (values: RunnerKey) => {
    if (!pass) {
      setFailure(t('registration.confirm.sliderFirst'));
      return;
    }
    const key = { ...values, name: values.name.trim(), certificateNumber: values.certificateNumber.trim() };
    setSearching(true);
    setFailure(null);
    setFound(null);
    try {
      const registration = await searchConfirm({
        ...key,
        raceId,
        captcha: { token: pass.nc_token, sig: pass.sig, sessionId: pass.sessionId, scene: pass.scene },
      });
      setWho(key);
      setFound(registration);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSearching(false);
      newSlider();
    }
  };

  const confirm = async () => {
    if (!who) return;
    setConfirming(true);
    setFailure(null);
    try {
      setFound(await confirmRegistration({ ...who, raceId }));
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setConfirming(false);
    }
  };

  return (
    <ScreenFrame
      title={t('registration.confirm.title')}
      subtitle={t('registration.confirm.subtitle')}
      testId="confirm-page"
    >
      {!raceId ? (
        <ScreenNotice tone="off" title={t('registration.screen.noRace')} />
      ) : (
        <>
          <div ref={setNode} className="rs-confirm-search">
            <Form<RunnerKey>
              name="confirm-search"
              layout="vertical"
              requiredMark={false}
              className="rs-search-form"
              aria-label={t('registration.confirm.searchTitle')}
              noValidate
              onFinish={(values) => void search(values)}
            >
              <NameField
                label={t('registration.confirm.name')}
                placeholder={t('registration.confirm.namePlaceholder')}
              />
              <CertificateFields
                typeLabel={t('registration.confirm.certificateType')}
                numberLabel={t('registration.confirm.certificateNumber')}
                numberPlaceholder={t('registration.confirm.certificateNumberPlaceholder')}
              />
              <div className="rs-search-form__slider form-field--wide">
                <SliderCaptcha key={sliderKey} onPass={setPass} />
              </div>
              <div className="rs-actions form-field--wide">
                <Button
                  type="primary"
                  size="large"
                  htmlType="submit"
                  loading={searching}
                  disabled={!pass}
                  data-testid="confirm-search"
                >
                  {t('registration.confirm.search')}
                </Button>
                {!pass ? <span className="rs-hint">{t('registration.confirm.sliderFirst')}</span> : null}
              </div>
            </Form>
          </div>
          {failure ? (
            <div className="rs-inline-error rs-inline-error--block" role="alert" data-testid="confirm-failure">
              {failure}
            </div>
          ) : null}
          {found ? (
            <ConfirmResult registration={found} confirming={confirming} onConfirm={() => void confirm()} />
          ) : null}
        </>
      )}
    </ScreenFrame>
  );
}

function ConfirmResult({
  registration: r,
  confirming,
  onConfirm,
}: {
  registration: ConfirmRegistration;
  confirming: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const time = useRaceTime();
  // The channel labels are the registration search's (its texts load with this page).
  const channel =
    `search.registration.channels.${CHANNEL_KEYS[r.channel as RegistrationChannel] ?? CHANNEL_KEYS[3]}` as const;
  const rows: [string, string, string?][] = [
    [t('registration.confirm.race'), show(pickLang(language, r.raceName, r.raceNameEn))],
    [t('registration.confirm.status'), t(entryStatusLabel(r.status, r.model)), 'confirm-status'],
    [t('registration.confirm.item'), show(pickLang(language, r.itemName, r.itemNameEn) || r.item)],
    [t('registration.confirm.bib'), r.bib ? r.bib : t('registration.confirm.noBib'), 'confirm-bib'],
    [t('registration.confirm.channel'), t(channel)],
    [t('registration.confirm.name'), show(r.participant.name)],
    [t('registration.confirm.gender'), t(genderLabel(r.participant.gender))],
    [
      t('registration.confirm.certificateType'),
      isCertificateType(r.participant.certificateType)
        ? t(CERTIFICATE_TYPE_LABELS[r.participant.certificateType])
        : '—',
    ],
    [t('registration.confirm.certificateNumber'), show(r.participant.certificateNumber), 'confirm-certificate'],
    [t('registration.confirm.phone'), show(r.participant.phone)],
    [t('registration.confirm.emergencyName'), show(r.participant.emergencyName)],
    [t('registration.confirm.emergencyPhone'), show(r.participant.emergencyPhone)],
  ];
  return (
    <div className="rs-result" data-testid="confirm-result">
      <h2 className="rs-section-title">{t('registration.confirm.resultTitle')}</h2>
      <dl className="rs-kv">
        {rows.map(([k, v, testId]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd data-testid={testId}>{v}</dd>
          </div>
        ))}
      </dl>
      {r.confirmedAt ? (
        <ScreenNotice tone="ok" title={t('registration.confirm.confirmed')} testId="confirm-done">
          {t('registration.confirm.confirmedAt', { time: time(r.confirmedAt) })}
        </ScreenNotice>
      ) : (
        <div className="rs-actions">
          <p className="rs-note">{t('registration.confirm.checkNote')}</p>
          <Button type="primary" size="large" loading={confirming} onClick={onConfirm} data-testid="confirm-button">
            {t('registration.confirm.confirm')}
          </Button>
        </div>
      )}
    </div>
  );
}
