/**
 * My profile (issue 14 §5; PATHS.profile): the userInfo fields of spec §3 a runner edits (name, gender,
 * birthday, e-mail, height, weight, education, school, major, residence with the region picker, address) and
 * the real-name certificate, which is set once: afterwards it shows masked and locked, with a note. Every
 * field is checked with contract/profile.ts checkProfileField, the very check the server runs.
 */
import { Button, Form, Input, InputNumber, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileSaveRequest } from '#contract/entry';
import {
  CERTIFICATE_TYPE_LABELS,
  CERTIFICATE_TYPE_LIST,
  CERTIFICATE_TYPES,
  GENDER_LABELS,
  isCertificateType,
  type CertificateType,
} from '#contract/enums';
import {
  EDUCATION_LEVELS,
  PROFILE_EARLIEST_BIRTHDAY,
  PROFILE_HEIGHT,
  PROFILE_TEXT_MAX,
  PROFILE_WEIGHT,
  checkProfileField,
  type ProfileKey,
} from '#contract/profile';
import { formatRaceTime } from '#contract/race-clock';
import type { RegionCodes } from '#contract/region';
import { checkCertificateNumber } from '#contract/rules';
import { useSelectClear } from '@/components/form/clear-button';
import { DATE_FORMAT, DateField } from '@/components/form/date-field';
import { FieldItem } from '@/components/form/field-item';
import { RegionField } from '@/components/form/region-picker';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { errorMessage, fieldRefusalsOf, showFieldRefusals } from '@/lib/field-refusals';
import type { FormCheck } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useLoad } from '@/lib/use-load';
import { saveUserData } from '@/lib/user-data';
import { getProfile, saveProfile, type ProfileAnswer, type ProfileUserInfo } from '../api/profile';
import { CentreFrame, LoadView } from './centre-frame';

interface ProfileValues {
  userName?: string;
  userGender?: 0 | 1 | 2;
  birthday?: string;
  userEmail?: string;
  userHeight?: number | null;
  userWeight?: number | null;
  educationLevel?: string;
  graduateInstitution?: string;
  major?: string;
  region?: RegionCodes;
  residentialAddress?: string;
  cardType?: CertificateType;
  cardNumber?: string;
}

export default function ProfilePage() {
  const { t } = useTranslation();
  const { result, reload, set } = useLoad(getProfile, 'profile');
  return (
    <CentreFrame title={t('centre.menu.profile')} testId="profile-page">
      <LoadView load={result} retry={reload}>
        {(data) => <ProfileForm data={data} onSaved={set} />}
      </LoadView>
    </CentreFrame>
  );
}

const today = () => formatRaceTime(Date.now(), DATE_FORMAT);
const fieldCheck =
  (key: ProfileKey): FormCheck =>
  (value) =>
    checkProfileField(key, value === null ? undefined : value, today());

function initialValues(info: ProfileUserInfo): ProfileValues {
  const region = [info.residentialProvinceCode, info.residentialCityCode, info.residentialDistrictCode];
  return {
    userName: info.userName ?? '',
    userGender: info.userGender === 1 || info.userGender === 2 ? info.userGender : undefined,
    birthday: info.birthday || undefined,
    // Without a saved profile address userInfo holds the account's masked login address: not one to edit.
    userEmail: info.userEmail && !info.userEmail.includes('*') ? info.userEmail : '',
    userHeight: info.userHeight || null,
    userWeight: info.userWeight || null,
    educationLevel: info.educationLevel || undefined,
    graduateInstitution: info.graduateInstitution ?? '',
    major: info.major ?? '',
    region: region.every((code) => code) ? (region as RegionCodes) : undefined,
    residentialAddress: info.residentialAddress ?? '',
    cardType: CERTIFICATE_TYPES.idCard,
  };
}

function toRequest(values: ProfileValues, cardLocked: boolean): ProfileSaveRequest {
  const [province = '', city = '', district = ''] = values.region ?? [];
  const request: ProfileSaveRequest = {
    userName: values.userName?.trim() ?? '',
    userGender: values.userGender ?? 0,
    birthday: values.birthday ?? '',
    userEmail: values.userEmail?.trim() ?? '',
    userHeight: values.userHeight ?? 0,
    userWeight: values.userWeight ?? 0,
    educationLevel: values.educationLevel ?? '',
    graduateInstitution: values.graduateInstitution?.trim() ?? '',
    major: values.major?.trim() ?? '',
    residentialProvinceCode: province,
    residentialCityCode: city,
    residentialDistrictCode: district,
    residentialAddress: values.residentialAddress?.trim() ?? '',
  };
  if (!cardLocked && values.cardNumber?.trim() && values.cardType !== undefined) {
    request.cardType = values.cardType;
    request.cardNumber = values.cardNumber.trim().toUpperCase();
  }
  return request;
}

/** Where a server refusal of a key shows (the region's three codes are one field here). */
const formName = (key: string) =>
  key.startsWith('residential') && key !== 'residentialAddress' ? 'region' : key === 'cardType' ? 'cardNumber' : key;

function ProfileForm({ data, onSaved }: { data: ProfileAnswer; onSaved: (data: ProfileAnswer) => void }) {
  const { t } = useTranslation();
  const clear = useSelectClear();
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useAnnounceFormErrors(node);
  const info = data.userInfo ?? {};
  const cardLocked = !!info.cardNumber;

  const onFinish = async (values: ProfileValues) => {
    setSaving(true);
    setFailure(null);
    try {
      const saved = await saveProfile(toRequest(values, cardLocked));
      saveUserData(saved);
      onSaved(saved);
      form.setFieldValue('cardNumber', '');
      notify.success(t('centre.profile.saved'));
    } catch (error) {
      const refusals = fieldRefusalsOf(error);
      if (refusals) {
        showFieldRefusals(form, refusals, formName);
      } else {
        setFailure(errorMessage(error));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <div ref={setNode}>
      <Form<ProfileValues>
        form={form}
        name="centre-profile"
        layout="vertical"
        className="centre-form centre-form--grid"
        initialValues={initialValues(info)}
        onFinish={(values) => void onFinish(values)}
        data-testid="profile-form"
      >
        <h2 className="centre-form__section">{t('centre.profile.basic')}</h2>
        <FieldItem
          name="userName"
          label={t('centre.profile.userName')}
          checks={[fieldCheck('userName')]}
          checkOn="blur"
        >
          <Input autoComplete="name" maxLength={PROFILE_TEXT_MAX.userName} />
        </FieldItem>
        <FieldItem name="userGender" label={t('centre.profile.gender')} checks={[]} required={false}>
          <Radio.Group
            options={([1, 2] as const).map((gender) => ({ value: gender, label: t(GENDER_LABELS[gender]) }))}
          />
        </FieldItem>
        <DateField
          name="birthday"
          label={t('centre.profile.birthday')}
          checks={[fieldCheck('birthday')]}
          required={false}
          earliest={PROFILE_EARLIEST_BIRTHDAY}
          latest={today()}
        />
        <FieldItem
          name="userEmail"
          label={t('centre.profile.email')}
          checks={[fieldCheck('userEmail')]}
          checkOn="blur"
          required={false}
        >
          <Input autoComplete="email" inputMode="email" maxLength={100} />
        </FieldItem>
        <FieldItem
          name="userHeight"
          label={t('centre.profile.height')}
          checks={[fieldCheck('userHeight')]}
          checkOn="blur"
          required={false}
        >
          <InputNumber
            min={PROFILE_HEIGHT.min}
            max={PROFILE_HEIGHT.max}
            precision={0}
            suffix="cm"
            style={{ width: '100%' }}
          />
        </FieldItem>
        <FieldItem
          name="userWeight"
          label={t('centre.profile.weight')}
          checks={[fieldCheck('userWeight')]}
          checkOn="blur"
          required={false}
        >
          <InputNumber
            min={PROFILE_WEIGHT.min}
            max={PROFILE_WEIGHT.max}
            precision={0}
            suffix="kg"
            style={{ width: '100%' }}
          />
        </FieldItem>
        <FieldItem name="educationLevel" label={t('centre.profile.education')} checks={[]} required={false}>
          <Select
            allowClear={clear}
            placeholder={t('centre.profile.choose')}
            options={EDUCATION_LEVELS.map((level) => ({ value: level, label: t(`centre.education.${level}`) }))}
          />
        </FieldItem>
        <FieldItem
          name="graduateInstitution"
          label={t('centre.profile.school')}
          checks={[fieldCheck('graduateInstitution')]}
          checkOn="blur"
          required={false}
        >
          <Input maxLength={PROFILE_TEXT_MAX.graduateInstitution} />
        </FieldItem>
        <FieldItem
          name="major"
          label={t('centre.profile.major')}
          checks={[fieldCheck('major')]}
          checkOn="blur"
          required={false}
        >
          <Input maxLength={PROFILE_TEXT_MAX.major} />
        </FieldItem>
        <RegionField name="region" label={t('centre.profile.region')} required={false} wide />
        <FieldItem
          name="residentialAddress"
          label={t('centre.profile.address')}
          checks={[fieldCheck('residentialAddress')]}
          checkOn="blur"
          required={false}
          wide
        >
          <Input autoComplete="street-address" maxLength={PROFILE_TEXT_MAX.residentialAddress} />
        </FieldItem>

        <h2 className="centre-form__section">{t('centre.profile.realName')}</h2>
        {cardLocked ? (
          <div className="centre-card-locked form-field--wide" data-testid="profile-card-locked">
            <dl className="centre-kv">
              <div>
                <dt>{t('centre.profile.cardType')}</dt>
                <dd>{isCertificateType(info.cardType) ? t(CERTIFICATE_TYPE_LABELS[info.cardType]) : ''}</dd>
              </div>
              <div>
                <dt>{t('centre.profile.cardNumber')}</dt>
                <dd data-testid="profile-card-number">{info.cardNumber}</dd>
              </div>
            </dl>
            <p className="centre-note">{t('centre.profile.cardLockedNote')}</p>
          </div>
        ) : (
          <>
            <p className="centre-note form-field--wide" data-testid="profile-card-note">
              {t('centre.profile.cardOnceNote')}
            </p>
            <FieldItem name="cardType" label={t('centre.profile.cardType')} checks={[]} required={false}>
              <Select
                options={CERTIFICATE_TYPE_LIST.map((type) => ({
                  value: type,
                  label: t(CERTIFICATE_TYPE_LABELS[type]),
                }))}
              />
            </FieldItem>
            <FieldItem
              name="cardNumber"
              label={t('centre.profile.cardNumber')}
              dependencies={['cardType']}
              checks={[
                (value) =>
                  value && value.trim()
                    ? checkCertificateNumber(form.getFieldValue('cardType') as CertificateType, value)
                    : null,
              ]}
              checkOn="blur"
              required={false}
            >
              <Input autoComplete="off" maxLength={32} />
            </FieldItem>
          </>
        )}

        {failure ? (
          <p className="centre-panel centre-panel--off form-field--wide" role="alert" data-testid="profile-failure">
            {failure}
          </p>
        ) : null}
        <div className="centre-form__actions form-field--wide">
          <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
            {t('centre.profile.save')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
