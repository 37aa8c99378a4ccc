/** The three login tabs (spec §2, §4 login types 1 code, 0 password, 5 email). */
import { Form, Input } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkPassword } from '#contract/rules';
import { EmailField } from '@/components/form/email-field';
import { FieldItem } from '@/components/form/field-item';
import { PhoneField } from '@/components/form/phone-field';
import { sendPhoneCode } from '../api/send-phone-code';
import { useCodeContext } from '../hooks/use-code-context';
import { useLogin } from '../hooks/use-login';
import { GatedSubmit } from './agreement';
import { SendCodeField } from './send-code-field';

interface LoginFormProps {
  agreed: boolean;
  /** Links under the button (register now, forgot password). */
  footer?: React.ReactNode;
}

/** Validates one field and answers its trimmed value, or null when it fails. */
export async function fieldValue(form: FormInstance, name: string): Promise<string | null> {
  try {
    const values = (await form.validateFields([name])) as Record<string, string>;
    return values[name].trim();
  } catch {
    return null;
  }
}

/** The login password: required, 6-20 letters and digits with both. */
function PasswordField() {
  const { t } = useTranslation();
  return (
    <FieldItem name="password" label={t('auth.fields.password')} checks={[checkPassword]}>
      <Input.Password placeholder={t('auth.placeholders.password')} autoComplete="current-password" maxLength={20} />
    </FieldItem>
  );
}

export function CodeLoginForm({ agreed, footer }: LoginFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { submit, loading } = useLogin();
  const context = useCodeContext();
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      name="login-code"
      data-testid="form-code"
      onFinish={(v: { phone: string; captcha: string }) =>
        submit({ loginType: '1', phone: v.phone, captcha: v.captcha })
      }
    >
      <PhoneField label={t('auth.fields.phone')} placeholder={t('auth.placeholders.phone')} />
      <SendCodeField
        target={() => fieldValue(form, 'phone')}
        send={(pass, userPhone) => sendPhoneCode({ ...pass, userPhone, ...context })}
      />
      <GatedSubmit agreed={agreed} loading={loading}>
        {t('auth.actions.login')}
      </GatedSubmit>
      {footer}
    </Form>
  );
}

export function PasswordLoginForm({ agreed, footer }: LoginFormProps) {
  const { t } = useTranslation();
  const { submit, loading } = useLogin();
  return (
    <Form
      layout="vertical"
      requiredMark={false}
      name="login-password"
      data-testid="form-password"
      onFinish={(v: { phone: string; password: string }) =>
        submit({ loginType: '0', phone: v.phone, password: v.password })
      }
    >
      <PhoneField
        label={t('auth.fields.phone')}
        placeholder={t('auth.placeholders.phone')}
        inputProps={{ autoComplete: 'username' }}
      />
      <PasswordField />
      <GatedSubmit agreed={agreed} loading={loading}>
        {t('auth.actions.login')}
      </GatedSubmit>
      {footer}
    </Form>
  );
}

export function EmailLoginForm({ agreed, footer }: LoginFormProps) {
  const { t } = useTranslation();
  const { submit, loading } = useLogin();
  return (
    <Form
      layout="vertical"
      requiredMark={false}
      name="login-email"
      data-testid="form-email"
      onFinish={(v: { emailAddress: string; password: string }) =>
        submit({ loginType: '5', accountEmail: v.emailAddress, password: v.password })
      }
    >
      <EmailField
        name="emailAddress"
        flow="login"
        label={t('auth.fields.email')}
        placeholder={t('auth.placeholders.email')}
      />
      <PasswordField />
      <GatedSubmit agreed={agreed} loading={loading}>
        {t('auth.actions.login')}
      </GatedSubmit>
      {footer}
    </Form>
  );
}
