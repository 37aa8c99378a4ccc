/** Debug configuration only (spec §2, §6): one click logs in with a preset demo account of the server seed. */
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LoginInput } from '../api/login';
import { useLogin } from '../hooks/use-login';

/** The demo account of the reference server's seed. */
export const DEMO_ACCOUNT = { phone: '13800138000', email: 'runner@example.com', password: 'Runner2027' } as const;

const PRESETS: { key: 'demoPassword' | 'demoEmail'; input: LoginInput }[] = [
  { key: 'demoPassword', input: { loginType: '0', phone: DEMO_ACCOUNT.phone, password: DEMO_ACCOUNT.password } },
  { key: 'demoEmail', input: { loginType: '5', accountEmail: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password } },
];

export function QuickLogin() {
  const { t } = useTranslation();
  const { submit, loading } = useLogin();
  return (
    <div className="auth-quick" data-testid="quick-login">
      <span className="auth-quick__title">{t('auth.debug.title')}</span>
      {PRESETS.map(({ key, input }) => (
        <Button key={key} size="small" disabled={loading} onClick={() => void submit(input)}>
          {t(`auth.debug.${key}`)}
        </Button>
      ))}
    </div>
  );
}
