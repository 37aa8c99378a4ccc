/** The three login tabs (spec §2, §4 login types 1 code, 0 password, 5 email). */
import { Form, Input } from 'antd';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkEmail, checkPassword, checkPhone } from '#contract/rules';
import { ruleOf } from '@/lib/form-rules';
import { sendPhoneCode } from '../api/send-phone-code';
import { useCodeContext } from '../hooks/use-code-context';
import { useLogin } from '../hooks/use-login';
import { GatedSubmit } from './agreement';
import { CodeField } from './code-field';

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
      <Form.Item name="phone" label={t('auth.fields.phone')} rules={[ruleOf((v) => checkPhone(v))]}>
        <Input placeholder={t('auth.placeholders.phone')} autoComplete="tel" inputMode="tel" maxLength={20} />
      </Form.Item>
      <CodeField
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
      <Form.Item name="phone" label={t('auth.fields.phone')} rules={[ruleOf((v) => checkPhone(v))]}>
        <Input placeholder={t('auth.placeholders.phone')} autoComplete="username" inputMode="tel" maxLength={20} />
      </Form.Item>
      <Form.Item name="password" label={t('auth.fields.password')} rules={[ruleOf(checkPassword)]}>
        <Input.Password placeholder={t('auth.placeholders.password')} autoComplete="current-password" maxLength={20} />
      </Form.Item>
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
      <Form.Item name="emailAddress" label={t('auth.fields.email')} rules={[ruleOf((v) => checkEmail(v, 'login'))]}>
        <Input placeholder={t('auth.placeholders.email')} autoComplete="email" inputMode="email" maxLength={100} />
      </Form.Item>
      <Form.Item name="password" label={t('auth.fields.password')} rules={[ruleOf(checkPassword)]}>
        <Input.Password placeholder={t('auth.placeholders.password')} autoComplete="current-password" maxLength={20} />
      </Form.Item>
      <GatedSubmit agreed={agreed} loading={loading}>
        {t('auth.actions.login')}
      </GatedSubmit>
      {footer}
    </Form>
  );
}
