/**
 * The sub-screens of the drawer: registration by email, password reset by email, password reset by phone
 * (spec §2, §3 "Forms", §4). Each sends its code through the slider, keeps the verificationToken of the
 * answer, and on success goes back to login.
 */
import { useState } from 'react';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkConfirm, checkEmail, checkPassword } from '#contract/rules';
import { EmailField } from '@/components/form/email-field';
import { FieldItem } from '@/components/form/field-item';
import { PhoneField } from '@/components/form/phone-field';
import { ruleOf } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { clearUserData } from '@/lib/user-data';
import { checkEmailRegistered } from '../api/check-email-registered';
import { register } from '../api/register';
import { resetByEmail } from '../api/reset-by-email';
import { resetByPhone } from '../api/reset-by-phone';
import { sendEmailCode } from '../api/send-email-code';
import { sendResetPhoneCode } from '../api/send-reset-phone-code';
import { useCodeContext } from '../hooks/use-code-context';
import { useSubmitting } from '../hooks/use-submitting';
import { Agreement, GatedSubmit } from './agreement';
import { SendCodeField } from './send-code-field';
import { fieldValue } from './login-forms';

interface ScreenProps {
  /** Back to the login view. */
  onDone: () => void;
}

/** Registered email → the field error; a failed check lets the server decide on submit. */
async function registeredCheck(value: string | undefined) {
  if (checkEmail(value, 'account')) return null;
  try {
    return (await checkEmailRegistered(value!)) ? { code: 'emailRegistered' as const } : null;
  } catch {
    return null;
  }
}

/**
 * The password and its confirmation. `fresh`: a new account's password ("Password"), not a new one for an
 * existing account ("New password"); both are new to the browser's password manager (autocomplete).
 */
function PasswordPair({ first, second, fresh = false }: { first: string; second: string; fresh?: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <>
      <FieldItem
        name={first}
        label={t(fresh ? 'auth.fields.password' : 'auth.fields.newPassword')}
        checks={[checkPassword]}
      >
        <Input.Password placeholder={t('auth.placeholders.newPassword')} autoComplete="new-password" maxLength={20} />
      </FieldItem>
      <FieldItem
        name={second}
        label={t('auth.fields.confirmPassword')}
        dependencies={[first]}
        checks={[(v) => checkConfirm(v, form.getFieldValue(first) as string | undefined)]}
      >
        <Input.Password
          placeholder={t('auth.placeholders.confirmPassword')}
          autoComplete="new-password"
          maxLength={20}
        />
      </FieldItem>
    </>
  );
}

interface RegisterValues {
  accountEmail: string;
  captcha: string;
  loginPassword: string;
  loginPasswordConfirm: string;
}

export function RegisterForm({ onDone }: ScreenProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RegisterValues>();
  const { cloudType } = useCodeContext();
  const [token, setToken] = useState('');
  const [agreed, setAgreed] = useState(false);
  const { loading, run } = useSubmitting();

  const onFinish = (v: RegisterValues) =>
    run(async () => {
      await register({
        accountEmail: v.accountEmail,
        captcha: v.captcha,
        loginPassword: v.loginPassword,
        verificationToken: token,
      });
      notify.success(t('auth.messages.registerSuccess'));
      onDone();
    });

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      name="register"
      data-testid="form-register"
      onFinish={(v) => void onFinish(v)}
    >
      <EmailField
        name="accountEmail"
        label={t('auth.fields.email')}
        placeholder={t('auth.placeholders.email')}
        validateTrigger={['onChange', 'onBlur']}
        rules={[ruleOf(registeredCheck, 'onBlur')]}
      />
      <SendCodeField
        target={() => fieldValue(form, 'accountEmail')}
        send={async (pass, accountEmail) => {
          const answer = await sendEmailCode({ ...pass, accountEmail, emailSendType: 1, cloudType });
          setToken(answer.verificationToken);
        }}
      />
      <PasswordPair first="loginPassword" second="loginPasswordConfirm" fresh />
      <Agreement checked={agreed} onChange={setAgreed} withRegistration />
      <GatedSubmit agreed={agreed} loading={loading}>
        {t('auth.actions.register')}
      </GatedSubmit>
    </Form>
  );
}

/** After a password change the stored login is gone (spec §4): clear it, confirm, back to login. */
function useResetDone(onDone: () => void) {
  const { t } = useTranslation();
  return () => {
    clearUserData();
    notify.success(t('auth.messages.resetSuccess'));
    onDone();
  };
}

interface ResetEmailValues {
  accountEmail: string;
  captcha: string;
  loginPassword: string;
  confirmPassword: string;
}

export function ResetEmailForm({ onDone }: ScreenProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetEmailValues>();
  const { raceAppBusinessType } = useCodeContext();
  const [token, setToken] = useState('');
  const { loading, run } = useSubmitting();
  const done = useResetDone(onDone);

  const onFinish = (v: ResetEmailValues) =>
    run(async () => {
      await resetByEmail({ ...v, verificationToken: token });
      done();
    });

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      name="reset-email"
      data-testid="form-reset-email"
      onFinish={(v) => void onFinish(v)}
    >
      <EmailField name="accountEmail" label={t('auth.fields.email')} placeholder={t('auth.placeholders.email')} />
      <SendCodeField
        target={() => fieldValue(form, 'accountEmail')}
        send={async (pass, accountEmail) => {
          const answer = await sendEmailCode({ ...pass, accountEmail, emailSendType: 2, raceAppBusinessType });
          setToken(answer.verificationToken);
        }}
      />
      <PasswordPair first="loginPassword" second="confirmPassword" />
      <GatedSubmit agreed loading={loading}>
        {t('auth.actions.submitReset')}
      </GatedSubmit>
    </Form>
  );
}

interface ResetPhoneValues {
  phone: string;
  captcha: string;
  loginPassword: string;
  confirmPassword: string;
}

export function ResetPhoneForm({ onDone }: ScreenProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetPhoneValues>();
  const context = useCodeContext();
  const [token, setToken] = useState('');
  const { loading, run } = useSubmitting();
  const done = useResetDone(onDone);

  const onFinish = (v: ResetPhoneValues) =>
    run(async () => {
      await resetByPhone({ ...v, verificationToken: token });
      done();
    });

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      name="reset-phone"
      data-testid="form-reset-phone"
      onFinish={(v) => void onFinish(v)}
    >
      <PhoneField label={t('auth.fields.phone')} placeholder={t('auth.placeholders.phone')} strict />
      <SendCodeField
        target={() => fieldValue(form, 'phone')}
        send={async (pass, userPhone) => {
          const answer = await sendResetPhoneCode({ ...pass, userPhone, ...context });
          setToken(answer.verificationToken);
        }}
      />
      <PasswordPair first="loginPassword" second="confirmPassword" />
      <GatedSubmit agreed loading={loading}>
        {t('auth.actions.submitReset')}
      </GatedSubmit>
    </Form>
  );
}
