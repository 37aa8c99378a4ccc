/**
 * My account (every role, issue 30 §2): change one's own password (checked by the contract's rule, the
 * message in the member's language), the second factor's state and its (re)setup with a QR code, and one's
 * open sessions with "sign out other sessions".
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Badge, Button, Card, Form, Image, Input, Space, Table, Tag, Typography } from 'antd';
import { CONSOLE_MESSAGES } from '#contract/console-messages';
import {
  checkStaffPassword,
  roleNeedsSecondFactor,
  STAFF_PASSWORD_MAX,
  type ConsoleMe,
  type SecondFactorProposal,
  type StaffSessionView,
} from '#contract/staff';
import { api } from '../../api/client';
import { useConsole } from '../../store';
import { formatInstant } from '../../time';
import { useLoaded, type Loaded } from '../../use-loaded';

type SessionRow = StaffSessionView;

const PASSWORD_PROBLEMS = {
  tooShort: 'staffPasswordTooShort',
  tooLong: 'staffPasswordTooLong',
  tooSimple: 'staffPasswordTooSimple',
} as const;

function PasswordCard({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useConsole();
  const [form] = Form.useForm<{ oldPassword: string; newPassword: string; repeat: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async (values: { oldPassword: string; newPassword: string }) => {
    setBusy(true);
    try {
      await api.post('/password', { oldPassword: values.oldPassword, newPassword: values.newPassword });
      form.resetFields();
      void message.success(t('account.password.done'));
      onChanged();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('account.password.title')}</h2>}>
      <Form
        form={form}
        layout="vertical"
        style={{ maxWidth: 420 }}
        onFinish={(values) => void submit(values)}
        data-testid="password-form"
      >
        <Form.Item
          name="oldPassword"
          label={t('account.password.old')}
          rules={[{ required: true, message: t('account.password.required') }]}
        >
          <Input.Password autoComplete="current-password" maxLength={256} />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('account.password.new')}
          extra={t('account.password.help')}
          rules={[
            { required: true, message: t('account.password.required') },
            {
              validator: async (_, value: string | undefined) => {
                const problem = value ? checkStaffPassword(value) : null;
                if (problem) throw new Error(CONSOLE_MESSAGES[PASSWORD_PROBLEMS[problem]][language]);
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={STAFF_PASSWORD_MAX} />
        </Form.Item>
        <Form.Item
          name="repeat"
          label={t('account.password.repeat')}
          dependencies={['newPassword']}
          rules={[
            { required: true, message: t('account.password.required') },
            ({ getFieldValue }) => ({
              validator: async (_, value: string | undefined) => {
                if (value && value !== getFieldValue('newPassword')) throw new Error(t('account.password.mismatch'));
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={STAFF_PASSWORD_MAX} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('account.password.submit')}
        </Button>
      </Form>
    </Card>
  );
}

function SecondFactorCard({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { me, setMe } = useConsole();
  const [proposal, setProposal] = useState<{ secret: string; link: string; qr: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  if (!me) return null;
  const on = me.staff.secondFactor;
  const start = async () => {
    setBusy(true);
    try {
      const proposed = await api.post<SecondFactorProposal>('/totp/propose');
      const { toDataURL } = await import('qrcode');
      setProposal({ ...proposed, qr: await toDataURL(proposed.link, { margin: 1, width: 200 }) });
      setCode('');
      setPassword('');
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const confirm = async () => {
    if (!proposal) return;
    if (!/^\d{6}$/.test(code)) {
      void message.error(t('account.secondFactor.codeInvalid'));
      return;
    }
    setBusy(true);
    try {
      await api.post('/totp/confirm', { secret: proposal.secret, code, ...(on ? { password } : {}) });
      setProposal(null);
      void message.success(t('account.secondFactor.done'));
      setMe(await api.get<ConsoleMe>('/me'));
      onChanged();
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('account.secondFactor.title')}</h2>}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space>
          <Badge
            status={on ? 'success' : 'default'}
            text={on ? t('account.secondFactor.on') : t('account.secondFactor.off')}
            data-testid="second-factor-state"
          />
          {roleNeedsSecondFactor(me.staff.role) && (
            <Typography.Text>{t('account.secondFactor.required')}</Typography.Text>
          )}
        </Space>
        {!proposal ? (
          <Button onClick={() => void start()} loading={busy} data-testid="second-factor-start">
            {on ? t('account.secondFactor.setUpAgain') : t('account.secondFactor.setUp')}
          </Button>
        ) : (
          <Space direction="vertical">
            <Typography.Text>{t('account.secondFactor.step1')}</Typography.Text>
            <Image src={proposal.qr} alt={t('account.secondFactor.qrAlt')} width={200} height={200} preview={false} />
            <Typography.Text>
              {t('account.secondFactor.manual')}{' '}
              <Typography.Text code copyable data-testid="second-factor-secret">
                {proposal.secret}
              </Typography.Text>
            </Typography.Text>
            {on && (
              <label style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
                <Typography.Text>{t('account.secondFactor.password')}</Typography.Text>
                <Input.Password
                  autoComplete="current-password"
                  maxLength={256}
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  style={{ width: 280 }}
                  data-testid="second-factor-password"
                />
              </label>
            )}
            <Typography.Text>{t('account.secondFactor.step2')}</Typography.Text>
            <Space.Compact>
              <Input
                aria-label={t('account.secondFactor.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
                onPressEnter={() => void confirm()}
                style={{ width: 140 }}
                data-testid="second-factor-code"
              />
              <Button type="primary" onClick={() => void confirm()} loading={busy}>
                {t('account.secondFactor.confirm')}
              </Button>
            </Space.Compact>
            <Button type="link" onClick={() => setProposal(null)} style={{ padding: 0 }}>
              {t('account.secondFactor.cancel')}
            </Button>
          </Space>
        )}
      </Space>
    </Card>
  );
}

const loadSessions = () => api.get<SessionRow[]>('/sessions');

function SessionsCard({ sessions }: { sessions: Loaded<SessionRow[]> }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const rows = sessions.data;
  const load = sessions.reload;
  const others = (rows ?? []).filter((s) => !s.current).length;
  const signOutOthers = () =>
    modal.confirm({
      title: t('account.sessions.signOutOthersConfirm'),
      okText: t('account.sessions.confirm'),
      cancelText: t('account.sessions.cancel'),
      onOk: async () => {
        try {
          const { revoked } = await api.post<{ revoked: number }>('/sessions/revoke-others');
          void message.success(t('account.sessions.revoked', { count: revoked }));
          load();
        } catch (error) {
          void message.error((error as Error).message);
        }
      },
    });
  const signOut = (session: SessionRow) =>
    modal.confirm({
      title: t('account.sessions.signOutConfirm'),
      content: `${session.device || t('account.sessions.unknownDevice')} · ${session.ip}`,
      okText: t('account.sessions.confirm'),
      cancelText: t('account.sessions.cancel'),
      onOk: async () => {
        try {
          await api.post(`/sessions/${session.id}/revoke`);
          void message.success(t('account.sessions.revokedOne'));
          load();
        } catch (error) {
          void message.error((error as Error).message);
        }
      },
    });
  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('account.sessions.title')}</h2>}
      extra={
        <Button danger onClick={signOutOthers} disabled={others === 0} data-testid="sign-out-others">
          {t('account.sessions.signOutOthers')}
        </Button>
      }
    >
      <Typography.Paragraph>{t('account.sessions.intro')}</Typography.Paragraph>
      {sessions.error && <Alert type="error" showIcon message={sessions.error} />}
      <Table<SessionRow>
        rowKey="id"
        size="small"
        loading={sessions.loading}
        dataSource={rows ?? []}
        pagination={false}
        columns={[
          {
            title: t('account.sessions.device'),
            dataIndex: 'device',
            render: (device: string, session) => (
              <Space size={4}>
                <span>{device || t('account.sessions.unknownDevice')}</span>
                {session.current && <Tag>{t('account.sessions.current')}</Tag>}
              </Space>
            ),
          },
          { title: t('account.sessions.ip'), dataIndex: 'ip' },
          {
            title: t('account.sessions.started'),
            dataIndex: 'createdAt',
            render: (at: number) => formatInstant(at),
          },
          {
            title: t('account.sessions.lastUsed'),
            dataIndex: 'lastUsedAt',
            render: (at: number) => formatInstant(at),
          },
          {
            key: 'actions',
            title: '',
            render: (_: unknown, session) =>
              session.current ? null : (
                <Button type="link" size="small" onClick={() => signOut(session)}>
                  {t('account.sessions.signOut')}
                </Button>
              ),
          },
        ]}
      />
    </Card>
  );
}

export default function AccountPage() {
  const { t } = useTranslation();
  const { me } = useConsole();
  const sessions = useLoaded(loadSessions);
  if (!me) return null;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="account-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('account.title')}</h1>
        </div>
        <Typography.Text>
          {t('account.profile', {
            name: me.staff.name,
            email: me.staff.email,
            role: t(`staff.roles.${me.staff.role}`),
          })}
        </Typography.Text>
      </div>
      <PasswordCard onChanged={sessions.reload} />
      <SecondFactorCard onChanged={sessions.reload} />
      <SessionsCard sessions={sessions} />
    </Space>
  );
}
