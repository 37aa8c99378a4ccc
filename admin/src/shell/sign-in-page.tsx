/** Staff sign-in: e-mail and password, then the authenticator's code when the member has a second factor. */
import { Alert, Button, Card, Form, Input } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InputRef } from 'antd';
import type { ConsoleMe } from '#contract/staff';
import { api, ConsoleApiError } from '../api/client';
import { useAction } from '../lib/use-action';
import { useConsole } from '../store';
import { LanguageSwitch } from './language-switch';

interface Fields {
  email: string;
  password: string;
  totp?: string;
}

export function SignInPage() {
  const { t } = useTranslation();
  const setMe = useConsole((s) => s.setMe);
  const [form] = Form.useForm<Fields>();
  const [askTotp, setAskTotp] = useState(false);
  const { busy, error, run } = useAction();
  const totpRef = useRef<InputRef>(null);

  useEffect(() => {
    if (askTotp) totpRef.current?.focus();
  }, [askTotp]);

  const submit = (fields: Fields) =>
    run(async () => {
      try {
        setMe(await api.post<ConsoleMe>('/login', { ...fields, email: fields.email.trim() }));
      } catch (failure) {
        const code = failure instanceof ConsoleApiError ? failure.msgCode : undefined;
        if (code === 'staffTotpWrong') form.setFieldValue('totp', '');
        if (code !== 'staffTotpRequired') throw failure;
        // Not a mistake: this member signs in with the authenticator's code too.
        setAskTotp(true);
      }
    });

  return (
    <main className="console-sign-in" data-testid="console-sign-in">
      <div className="console-sign-in__language">
        <LanguageSwitch />
      </div>
      <Card className="console-sign-in__card">
        <p className="console-sign-in__brand">{t('shell.title')}</p>
        <h1 className="console-sign-in__heading">{t('shell.signIn.heading')}</h1>
        {error && <Alert className="console-sign-in__error" type="error" showIcon message={error} role="alert" />}
        <Form form={form} layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
          <Form.Item
            name="email"
            label={t('shell.signIn.email')}
            rules={[{ required: true, whitespace: true, message: t('shell.signIn.emailRequired') }]}
          >
            <Input type="email" autoComplete="username" maxLength={254} />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('shell.signIn.password')}
            rules={[{ required: true, message: t('shell.signIn.passwordRequired') }]}
          >
            <Input.Password autoComplete="current-password" maxLength={256} />
          </Form.Item>
          {askTotp && (
            <Form.Item
              name="totp"
              label={t('shell.signIn.totp')}
              extra={t('shell.signIn.totpHelp')}
              rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('shell.signIn.totpRequired') }]}
            >
              <Input ref={totpRef} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="console-sign-in-submit">
            {t('shell.signIn.submit')}
          </Button>
        </Form>
        <p className="console-sign-in__help">{t('shell.signIn.help')}</p>
      </Card>
    </main>
  );
}
