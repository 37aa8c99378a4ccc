/**
 * The first sign-in's steps, before anything else opens (the server allows nothing else until they are done):
 * change the one-time password, then, for owners and finance, set up the authenticator (TOTP).
 */
import { Alert, Button, Card, Form, Input, Spin, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkStaffPassword, STAFF_PASSWORD_MAX, type ConsoleMe, type SecondFactorProposal } from '#contract/staff';
import { CONSOLE_MESSAGES } from '#contract/console-messages';
import { api } from '../api/client';
import { useAction } from '../lib/use-action';
import { useConsole } from '../store';
import { LanguageSwitch } from './language-switch';

const PASSWORD_MESSAGES = {
  tooShort: 'staffPasswordTooShort',
  tooLong: 'staffPasswordTooLong',
  tooSimple: 'staffPasswordTooSimple',
} as const;

export function SetupPage({ me }: { me: ConsoleMe }) {
  const { t } = useTranslation();
  const steps = [
    { key: 'changePassword', title: t('shell.setup.stepPassword') },
    ...(me.pending.includes('setUpSecondFactor') || !me.pending.includes('changePassword')
      ? [{ key: 'setUpSecondFactor', title: t('shell.setup.stepSecondFactor') }]
      : []),
  ];
  const current = me.pending[0] ?? 'changePassword';
  return (
    <main className="console-sign-in" data-testid="console-setup">
      <div className="console-sign-in__language">
        <LanguageSwitch />
      </div>
      <Card className="console-sign-in__card console-sign-in__card--wide">
        <p className="console-sign-in__brand">{t('shell.title')}</p>
        <h1 className="console-sign-in__heading">{t('shell.setup.heading')}</h1>
        <p>{t('shell.setup.intro')}</p>
        {steps.length > 1 && (
          <Steps
            size="small"
            className="console-setup__steps"
            current={steps.findIndex((s) => s.key === current)}
            items={steps.map((s) => ({ title: s.title }))}
          />
        )}
        {current === 'changePassword' ? <PasswordStep /> : <SecondFactorStep />}
      </Card>
    </main>
  );
}

/** Refreshes who is signed in: the next pending step, or the console. */
async function refreshMe() {
  useConsole.getState().setMe(await api.get<ConsoleMe>('/me'));
}

function PasswordStep() {
  const { t } = useTranslation();
  const language = useConsole((s) => s.language);
  const { busy, error, run } = useAction();
  const submit = (fields: { oldPassword: string; newPassword: string }) =>
    run(async () => {
      await api.post('/password', { oldPassword: fields.oldPassword, newPassword: fields.newPassword });
      await refreshMe();
    });
  return (
    <Form layout="vertical" onFinish={submit} requiredMark={false} disabled={busy} data-testid="console-setup-password">
      <h2 className="console-setup__title">{t('shell.setup.stepPassword')}</h2>
      {error && <Alert type="error" showIcon message={error} role="alert" className="console-sign-in__error" />}
      <Form.Item
        name="oldPassword"
        label={t('shell.setup.oldPassword')}
        rules={[{ required: true, message: t('shell.signIn.passwordRequired') }]}
      >
        <Input.Password autoComplete="current-password" maxLength={256} />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label={t('shell.setup.newPassword')}
        extra={t('shell.setup.passwordRule')}
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const problem = checkStaffPassword(value ?? '');
              if (problem) throw new Error(CONSOLE_MESSAGES[PASSWORD_MESSAGES[problem]][language]);
            },
          },
        ]}
      >
        <Input.Password autoComplete="new-password" maxLength={STAFF_PASSWORD_MAX} />
      </Form.Item>
      <Form.Item
        name="again"
        label={t('shell.setup.newPasswordAgain')}
        dependencies={['newPassword']}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_rule, value: string | undefined) => {
              if (value !== getFieldValue('newPassword')) throw new Error(t('shell.setup.passwordMismatch'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" maxLength={STAFF_PASSWORD_MAX} />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy}>
        {t('shell.setup.savePassword')}
      </Button>
    </Form>
  );
}

function SecondFactorStep() {
  const { t } = useTranslation();
  const [proposal, setProposal] = useState<SecondFactorProposal | null>(null);
  const [qr, setQr] = useState('');
  const { busy, error, setError, run } = useAction();
  useEffect(() => {
    let live = true;
    api.post<SecondFactorProposal>('/totp/propose').then(
      async (made) => {
        if (!live) return;
        setProposal(made);
        const { toDataURL } = await import('qrcode');
        const image = await toDataURL(made.link, { margin: 1, width: 200 });
        if (live) setQr(image);
      },
      (failure: unknown) => live && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      live = false;
    };
  }, [setError]);
  const submit = ({ code }: { code: string }) =>
    proposal &&
    run(async () => {
      await api.post('/totp/confirm', { secret: proposal.secret, code: code.trim() });
      await refreshMe();
    });
  return (
    <div data-testid="console-setup-totp">
      <h2 className="console-setup__title">{t('shell.setup.stepSecondFactor')}</h2>
      <p>{t('shell.setup.secondFactorIntro')}</p>
      {error && <Alert type="error" showIcon message={error} role="alert" className="console-sign-in__error" />}
      {proposal ? (
        <>
          <div className="console-setup__qr">
            {qr ? <img src={qr} alt={t('shell.setup.qrAlt')} width={200} height={200} /> : <Spin />}
          </div>
          <p>
            {t('shell.setup.secret')}:{' '}
            <Typography.Text code copyable data-testid="console-totp-secret">
              {proposal.secret}
            </Typography.Text>
          </p>
          <Form layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
            <Form.Item
              name="code"
              label={t('shell.setup.code')}
              rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('shell.signIn.totpRequired') }]}
            >
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {t('shell.setup.confirm')}
            </Button>
          </Form>
        </>
      ) : (
        !error && <Spin />
      )}
    </div>
  );
}
