/**
 * Change password (issue 14 §5; PATHS.password): the current password, the new one and its confirmation,
 * checked with the contract's rules (checkPassword, checkConfirm; spec §5 texts) and sent encrypted like the
 * login's. On success the server has revoked every token of the account: the stored user data and token are
 * cleared and the login drawer opens (spec §4 "Successful password change: clears stored user data and
 * token, back to login").
 */
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkConfirm, checkPassword, checkRequired } from '#contract/rules';
import { FieldItem } from '@/components/form/field-item';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { errorMessage } from '@/lib/field-refusals';
import { notify } from '@/lib/notify';
import { clearUserData } from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';
import { changePassword } from '../api/profile';
import { CentreFrame } from './centre-frame';

interface PasswordValues {
  oldPassword: string;
  loginPassword: string;
  confirmPassword: string;
}

export default function PasswordPage() {
  const { t } = useTranslation();
  return (
    <CentreFrame title={t('centre.menu.password')} testId="password-page">
      <PasswordForm />
    </CentreFrame>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useAnnounceFormErrors(node);

  const onFinish = async (values: PasswordValues) => {
    setSaving(true);
    setFailure(null);
    try {
      await changePassword(values);
      // Every token of the account is revoked: log in again with the new password.
      clearUserData();
      useAppStore.getState().setReloginConfirmOpen(false);
      useAppStore.getState().setLoginDrawerOpen(true);
      notify.success(t('centre.password.changed'));
    } catch (error) {
      setFailure(errorMessage(error));
      setSaving(false);
    }
  };

  return (
    <div ref={setNode}>
      <p className="centre-note">{t('centre.password.note')}</p>
      <Form<PasswordValues>
        form={form}
        name="centre-password"
        layout="vertical"
        className="centre-form centre-form--narrow"
        onFinish={(values) => void onFinish(values)}
        data-testid="password-form"
      >
        <FieldItem
          name="oldPassword"
          label={t('centre.password.old')}
          checks={[(value) => checkRequired(value, 'oldPasswordRequired')]}
          checkOn="blur"
        >
          <Input.Password autoComplete="current-password" maxLength={20} />
        </FieldItem>
        <FieldItem name="loginPassword" label={t('centre.password.new')} checks={[checkPassword]} checkOn="blur">
          <Input.Password autoComplete="new-password" maxLength={20} />
        </FieldItem>
        <FieldItem
          name="confirmPassword"
          label={t('centre.password.confirm')}
          dependencies={['loginPassword']}
          checks={[(value) => checkConfirm(value, form.getFieldValue('loginPassword') as string | undefined)]}
          checkOn="blur"
        >
          <Input.Password autoComplete="new-password" maxLength={20} />
        </FieldItem>
        {failure ? (
          <p className="centre-panel centre-panel--off" role="alert" data-testid="password-failure">
            {failure}
          </p>
        ) : null}
        <div className="centre-form__actions">
          <Button type="primary" htmlType="submit" loading={saving} data-testid="password-save">
            {t('centre.password.save')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
