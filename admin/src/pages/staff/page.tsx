/**
 * Staff (owner only, issue 30 §2): who has a console account, with what role and races, whether their second
 * factor is on and when they last signed in; add a member (the one-time password is shown once, with a copy
 * button), change their role or races, reset their password (and second factor), end their sessions, remove
 * them. Each change asks for a confirmation; the server records it in the audit log.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  App,
  Badge,
  Button,
  Checkbox,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import {
  STAFF_ROLES,
  roleNeedsSecondFactor,
  type StaffListed,
  type StaffRole,
  type StaffSessionView,
} from '#contract/staff';
import { api } from '../../api/client';
import { raceLabel, useConsole } from '../../store';
import { formatInstant } from '../../time';
import { useLoaded } from '../../use-loaded';

type StaffMember = StaffListed;
type SessionRow = StaffSessionView;

interface MemberForm {
  email?: string;
  name?: string;
  role?: StaffRole;
  races?: string[];
}

/** The one-time password of a member just added or reset, shown once. */
interface OneTime {
  email: string;
  role: StaffRole;
  password: string;
}

const loadStaff = () => api.get<StaffMember[]>('/staff');
const consoleUrl = () => `${window.location.origin}/admin/`;

function OneTimePassword({ shown, onClose }: { shown: OneTime | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.password);
      void message.success(t('staff.copied'));
    } catch {
      void message.error(t('staff.copyFailed'));
    }
  };
  return (
    <Modal
      open={shown !== null}
      title={t('staff.passwordTitle')}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="one-time-done">
          {t('staff.done')}
        </Button>
      }
    >
      {shown && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('staff.passwordShownOnce')} />
          <Space.Compact style={{ width: '100%' }}>
            <Input
              readOnly
              value={shown.password}
              aria-label={t('staff.passwordTitle')}
              data-testid="one-time-password"
              style={{ fontFamily: 'monospace', fontSize: 18 }}
              onFocus={(event) => event.target.select()}
            />
            <Button onClick={() => void copy()}>{t('staff.copy')}</Button>
          </Space.Compact>
          <Typography.Paragraph>
            {t('staff.passwordInstruction', { email: shown.email, url: consoleUrl() })}
            {roleNeedsSecondFactor(shown.role) ? ` ${t('staff.passwordSecondFactor')}` : ''}
          </Typography.Paragraph>
        </Space>
      )}
    </Modal>
  );
}

function RoleSelect(props: { value?: StaffRole; onChange?: (role: StaffRole) => void; id?: string }) {
  const { t } = useTranslation();
  return (
    <Select
      {...props}
      options={STAFF_ROLES.map((role) => ({
        value: role,
        label: `${t(`staff.roles.${role}`)} — ${t(`staff.roleHelp.${role}`)}`,
      }))}
    />
  );
}

function RacesSelect(props: { value?: string[]; onChange?: (races: string[]) => void; id?: string }) {
  const { t } = useTranslation();
  const { language, races } = useConsole();
  return (
    <Select
      {...props}
      mode="multiple"
      allowClear
      placeholder={t('staff.allRaces')}
      options={races.map((race) => ({ value: race.raceId, label: raceLabel(race, language) }))}
    />
  );
}

/** The add and change form: e-mail only when adding. */
function MemberModal(props: {
  open: boolean;
  editing: StaffMember | null;
  onClose: () => void;
  onDone: (result: { added?: OneTime }) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const { open, editing } = props;
  const submit = async (values: MemberForm) => {
    setBusy(true);
    try {
      const races = values.races && values.races.length > 0 ? values.races : null;
      if (editing) {
        await api.post(`/staff/${editing.id}`, { name: values.name ?? '', role: values.role, races });
        void message.success(t('staff.saved'));
        props.onDone({});
      } else {
        const added = await api.post<{ staff: StaffMember; password: string }>('/staff', {
          email: values.email ?? '',
          name: values.name ?? '',
          role: values.role,
          races,
        });
        props.onDone({ added: { email: added.staff.email, role: added.staff.role, password: added.password } });
      }
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={editing ? t('staff.editTitle', { name: editing.name }) : t('staff.add')}
      footer={null}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form<MemberForm>
        key={editing?.id ?? 'new'}
        layout="vertical"
        initialValues={editing ? { name: editing.name, role: editing.role, races: editing.races ?? [] } : {}}
        onFinish={(values) => void submit(values)}
        disabled={busy}
        data-testid="member-form"
      >
        {!editing && (
          <Form.Item
            name="email"
            label={t('staff.form.email')}
            rules={[{ required: true, message: t('staff.form.emailRequired') }]}
          >
            <Input type="email" autoComplete="off" maxLength={254} />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('staff.form.name')}>
          <Input maxLength={60} placeholder={t('staff.form.namePlaceholder')} />
        </Form.Item>
        <Form.Item
          name="role"
          label={t('staff.form.role')}
          rules={[{ required: true, message: t('staff.form.roleRequired') }]}
        >
          <RoleSelect />
        </Form.Item>
        <Form.Item name="races" label={t('staff.form.races')} extra={t('staff.form.racesHelp')}>
          <RacesSelect />
        </Form.Item>
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={props.onClose}>{t('staff.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="member-submit">
            {editing ? t('staff.save') : t('staff.add')}
          </Button>
        </Space>
      </Form>
    </Modal>
  );
}

function SessionsModal({ member, onClose }: { member: StaffMember | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const me = useConsole((s) => s.me);
  const load = useCallback(
    () => (member ? api.get<SessionRow[]>(`/staff/${member.id}/sessions`) : Promise.resolve([])),
    [member],
  );
  const sessions = useLoaded(load);
  const rows = sessions.data ?? [];
  const revokeAll = () => {
    if (!member) return;
    modal.confirm({
      title: t('staff.revokeAllConfirm', { name: member.name }),
      okText: t('staff.confirm'),
      cancelText: t('staff.cancel'),
      onOk: async () => {
        try {
          const { revoked } = await api.post<{ revoked: number }>(`/staff/${member.id}/sessions/revoke`);
          void message.success(t('staff.revoked', { count: revoked }));
          sessions.reload();
        } catch (error) {
          void message.error((error as Error).message);
        }
      },
    });
  };
  return (
    <Modal
      open={member !== null}
      title={member ? t('staff.sessionsTitle', { name: member.name }) : ''}
      onCancel={onClose}
      width={760}
      footer={
        <Space>
          <Button danger onClick={revokeAll} disabled={rows.length === 0 || member?.id === me?.staff.id}>
            {t('staff.revokeAll')}
          </Button>
          <Button onClick={onClose}>{t('staff.cancel')}</Button>
        </Space>
      }
    >
      {sessions.error && <Alert type="error" showIcon message={sessions.error} />}
      <Table<SessionRow>
        rowKey="id"
        size="small"
        loading={sessions.loading}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('staff.noSessions') }}
        columns={[
          {
            title: t('staff.session.device'),
            dataIndex: 'device',
            render: (device: string) => device || t('staff.session.unknownDevice'),
          },
          { title: t('staff.session.ip'), dataIndex: 'ip' },
          {
            title: t('staff.session.started'),
            dataIndex: 'createdAt',
            render: (at: number) => formatInstant(at),
          },
          {
            title: t('staff.session.lastUsed'),
            dataIndex: 'lastUsedAt',
            render: (at: number) => formatInstant(at),
          },
        ]}
      />
    </Modal>
  );
}

export default function StaffPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { me, language, races } = useConsole();
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<StaffMember | null>(null);
  const [oneTime, setOneTime] = useState<OneTime | null>(null);
  const [sessionsOf, setSessionsOf] = useState<StaffMember | null>(null);

  const listed = useLoaded(loadStaff);
  const load = listed.reload;

  const raceName = (raceId: string) => {
    const race = races.find((r) => r.raceId === raceId);
    return race ? raceLabel(race, language) : raceId;
  };

  const resetPassword = (member: StaffMember) => {
    let resetSecondFactor = false;
    modal.confirm({
      title: t('staff.resetTitle', { name: member.name }),
      content: (
        <Space direction="vertical">
          <span>{t('staff.resetConfirm', { name: member.name })}</span>
          {member.secondFactor && (
            <Checkbox onChange={(event) => (resetSecondFactor = event.target.checked)}>
              {t('staff.resetSecondFactor')}
            </Checkbox>
          )}
        </Space>
      ),
      okText: t('staff.resetPassword'),
      cancelText: t('staff.cancel'),
      onOk: async () => {
        try {
          const reset = await api.post<{ staff: StaffMember; password: string }>(`/staff/${member.id}/password`, {
            resetSecondFactor,
          });
          setOneTime({ email: member.email, role: member.role, password: reset.password });
          load();
        } catch (error) {
          void message.error((error as Error).message);
        }
      },
    });
  };

  const remove = (member: StaffMember) => {
    modal.confirm({
      title: t('staff.remove'),
      content: t('staff.removeConfirm', { name: member.name, email: member.email }),
      okText: t('staff.remove'),
      okButtonProps: { danger: true },
      cancelText: t('staff.cancel'),
      onOk: async () => {
        try {
          await api.post(`/staff/${member.id}/remove`);
          void message.success(t('staff.removed', { name: member.name }));
          load();
        } catch (error) {
          void message.error((error as Error).message);
        }
      },
    });
  };

  const columns: TableColumnsType<StaffMember> = [
    {
      title: t('staff.columns.name'),
      dataIndex: 'name',
      render: (name: string, member) => (
        <Space size={4}>
          <span>{name}</span>
          {member.id === me?.staff.id && <Tag>{t('staff.you')}</Tag>}
        </Space>
      ),
    },
    { title: t('staff.columns.email'), dataIndex: 'email' },
    {
      title: t('staff.columns.role'),
      dataIndex: 'role',
      render: (role: StaffRole) => <Tag>{t(`staff.roles.${role}`)}</Tag>,
    },
    {
      title: t('staff.columns.races'),
      dataIndex: 'races',
      render: (list: string[] | null) => (list ? list.map(raceName).join('、') : t('staff.allRaces')),
    },
    {
      title: t('staff.columns.secondFactor'),
      dataIndex: 'secondFactor',
      render: (on: boolean) => <Badge status={on ? 'success' : 'default'} text={on ? t('staff.on') : t('staff.off')} />,
    },
    {
      title: t('staff.columns.lastSignIn'),
      dataIndex: 'lastSignInAt',
      render: (at: number | null) => (at === null ? t('staff.never') : formatInstant(at)),
    },
    {
      title: t('staff.columns.status'),
      key: 'status',
      render: (_: unknown, member) =>
        member.locked ? (
          <Badge status="error" text={t('staff.status.locked')} />
        ) : member.mustChangePassword ? (
          <Badge status="warning" text={t('staff.status.mustChange')} />
        ) : (
          <Badge status="success" text={t('staff.status.active')} />
        ),
    },
    {
      title: t('staff.columns.actions'),
      key: 'actions',
      render: (_: unknown, member) => (
        <Space wrap size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => {
              setEditing(member);
              setFormOpen(true);
            }}
          >
            {t('staff.edit')}
          </Button>
          <Button type="link" size="small" onClick={() => resetPassword(member)}>
            {t('staff.resetPassword')}
          </Button>
          <Button type="link" size="small" onClick={() => setSessionsOf(member)}>
            {t('staff.sessions')}
          </Button>
          <Button type="link" size="small" danger onClick={() => remove(member)} disabled={member.id === me?.staff.id}>
            {t('staff.remove')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="staff-page">
      <div>
        <div className="console-page-head" style={{ marginBottom: 4 }}>
          <h1>{t('staff.title')}</h1>
          <Button
            type="primary"
            onClick={() => {
              setEditing(null);
              setFormOpen(true);
            }}
            data-testid="staff-add"
          >
            {t('staff.add')}
          </Button>
        </div>
        <Typography.Text>{t('staff.intro')}</Typography.Text>
      </div>
      {listed.error && <Alert type="error" showIcon message={listed.error} />}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
      <div role="region" aria-label={t('staff.title')} tabIndex={0} style={{ overflowX: 'auto' }}>
        <Table<StaffMember>
          rowKey="id"
          loading={listed.loading}
          dataSource={listed.data ?? []}
          columns={columns}
          pagination={false}
        />
      </div>
      <MemberModal
        open={formOpen}
        editing={editing}
        onClose={() => setFormOpen(false)}
        onDone={({ added }) => {
          setFormOpen(false);
          if (added) setOneTime(added);
          load();
        }}
      />
      <OneTimePassword shown={oneTime} onClose={() => setOneTime(null)} />
      <SessionsModal member={sessionsOf} onClose={() => setSessionsOf(null)} />
    </Space>
  );
}
