/**
 * The login drawer (spec §2 "Login drawer", §4): full height from the top, the app download QR code on the
 * left, on the right the three login tabs (account-password by default) or one of the sub-screens —
 * registration by email, reset by email, reset by phone — each with a back link. Loaded with antd the
 * first time the drawer opens.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Drawer } from 'antd';
import { PageTabs } from '@/components/ui/page-tabs';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '@/components/ui/antd-scope';
import { getEnv } from '@/config/env';
import { isMobileSite } from '@/lib/mobile-site';
import { resolveImageUrl } from '@/lib/url';
import { useAppStore } from '@/stores/app-store';
import { useSiteStore } from '@/stores/site-store';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { RegisterForm, ResetEmailForm, ResetPhoneForm } from './account-forms';
import { Agreement } from './agreement';
import { CodeLoginForm, EmailLoginForm, PasswordLoginForm } from './login-forms';
import { QuickLogin } from './quick-login';
import './auth.css';

type View = 'login' | 'register' | 'resetEmail' | 'resetPhone';
type Tab = 'code' | 'password' | 'email';

function AppQr() {
  const { t } = useTranslation();
  const qr = resolveImageUrl(useSiteStore((s) => s.config?.appQrCode));
  return (
    <aside className="auth-qr" data-testid="app-qr">
      <h3 className="auth-qr__title">{t('auth.drawer.qrTitle')}</h3>
      {qr ? <img src={qr} alt={t('auth.drawer.qrAlt')} width={180} height={180} className="auth-qr__img" /> : null}
      <p className="auth-qr__text">{t('auth.drawer.qrText')}</p>
    </aside>
  );
}

function LoginLinks({ register, forgot, onGo }: { register: boolean; forgot: boolean; onGo: (view: View) => void }) {
  const { t } = useTranslation();
  const [choosing, setChoosing] = useState(false);
  if (!register && !forgot) return null;
  return (
    <div className="auth-links">
      <div className="auth-links__row">
        {register ? (
          <button type="button" className="auth-link" data-return="register" onClick={() => onGo('register')}>
            {t('auth.actions.registerNow')}
          </button>
        ) : (
          <span />
        )}
        {forgot ? (
          <button
            type="button"
            className="auth-link"
            data-return="resetEmail resetPhone"
            aria-expanded={choosing}
            onClick={() => setChoosing((c) => !c)}
          >
            {t('auth.actions.forgotPassword')}
          </button>
        ) : null}
      </div>
      {choosing ? (
        <div className="auth-links__choice" data-testid="reset-choice">
          <span>{t('auth.screens.resetChoice')}</span>
          <button type="button" className="auth-link" onClick={() => onGo('resetEmail')}>
            {t('auth.actions.resetByEmail')}
          </button>
          <button type="button" className="auth-link" onClick={() => onGo('resetPhone')}>
            {t('auth.actions.resetByPhone')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

interface LoginViewProps {
  tab: Tab;
  onTab: (tab: Tab) => void;
  agreed: boolean;
  onAgreed: (agreed: boolean) => void;
  onGo: (view: View) => void;
}

function LoginView({ tab, onTab, agreed, onAgreed, onGo }: LoginViewProps) {
  const { t } = useTranslation();
  const links = (register: boolean, forgot: boolean) => <LoginLinks register={register} forgot={forgot} onGo={onGo} />;
  return (
    <div className="auth-login">
      <PageTabs
        activeKey={tab}
        moreLabel={t('auth.tabs.more')}
        // English tab titles are long: a narrower gutter keeps all three in view, without the overflow menu.
        tabBarGutter={24}
        onChange={(key) => onTab(key as Tab)}
        centered
        items={[
          { key: 'code', label: t('auth.tabs.code'), children: <CodeLoginForm agreed={agreed} /> },
          {
            key: 'password',
            label: t('auth.tabs.password'),
            children: <PasswordLoginForm agreed={agreed} footer={links(false, true)} />,
          },
          {
            key: 'email',
            label: t('auth.tabs.email'),
            children: <EmailLoginForm agreed={agreed} footer={links(true, true)} />,
          },
        ]}
      />
      <Agreement checked={agreed} onChange={onAgreed} />
      {getEnv().debug ? <QuickLogin /> : null}
    </div>
  );
}

const TITLES = {
  register: 'auth.screens.register',
  resetEmail: 'auth.screens.resetEmail',
  resetPhone: 'auth.screens.resetPhone',
} as const;

export default function LoginDrawer() {
  const { t } = useTranslation();
  const open = useAppStore((s) => s.loginDrawerOpen);
  const setOpen = useAppStore((s) => s.setLoginDrawerOpen);
  const [view, setView] = useState<View>('login');
  // Kept here, so "back to login" returns to the tab the visitor came from.
  const [tab, setTab] = useState<Tab>('password');
  const [agreed, setAgreed] = useState(false);
  const back = () => setView('login');
  const main = useRef<HTMLElement>(null);
  const shown = useRef<View>('login');

  // Focus follows the view: into a sub-screen's title, and back to the link that opened it (or the
  // selected tab) when returning to login, so keyboard and screen-reader users are not left on the body.
  useEffect(() => {
    const from = shown.current;
    shown.current = view;
    if (from === view || !main.current) return;
    const visible = (el: HTMLElement) => el.offsetParent !== null;
    const candidates =
      view === 'login'
        ? [
            ...main.current.querySelectorAll<HTMLElement>(`[data-return~="${from}"]`),
            ...main.current.querySelectorAll<HTMLElement>('[role="tab"][aria-selected="true"]'),
          ]
        : [...main.current.querySelectorAll<HTMLElement>('.auth-sub__title')];
    candidates.find(visible)?.focus();
  }, [view]);
  const [mainNode, setMainNode] = useState<HTMLElement | null>(null);
  const mainRef = useCallback((node: HTMLElement | null) => {
    main.current = node;
    setMainNode(node);
  }, []);
  useAnnounceFormErrors(mainNode);

  return (
    <AntdScope>
      <Drawer
        open={open}
        // The mobile site (#16) slides the same content up from the bottom as a sheet.
        placement={isMobileSite() ? 'bottom' : 'top'}
        size={isMobileSite() ? 'auto' : '100%'}
        onClose={() => setOpen(false)}
        afterOpenChange={(visible) => {
          if (!visible) {
            setView('login');
            setTab('password');
          }
        }}
        destroyOnHidden
        closeIcon={<span aria-label={t('auth.drawer.close')}>✕</span>}
        title={null}
        aria-label={t('auth.drawer.title')}
        className="auth-drawer"
        rootClassName="auth-drawer-root"
        data-testid="login-drawer"
      >
        <div className="auth-card">
          <AppQr />
          <section className="auth-main" aria-label={t('auth.drawer.title')} ref={mainRef}>
            {view === 'login' ? (
              <LoginView tab={tab} onTab={setTab} agreed={agreed} onAgreed={setAgreed} onGo={setView} />
            ) : (
              <div className="auth-sub" data-testid={`screen-${view}`}>
                <button type="button" className="auth-link auth-back" onClick={back}>
                  ‹ {t('auth.actions.backToLogin')}
                </button>
                <h2 className="auth-sub__title" tabIndex={-1}>
                  {t(TITLES[view])}
                </h2>
                {view === 'register' ? <RegisterForm onDone={back} /> : null}
                {view === 'resetEmail' ? <ResetEmailForm onDone={back} /> : null}
                {view === 'resetPhone' ? <ResetPhoneForm onDone={back} /> : null}
              </div>
            )}
          </section>
        </div>
      </Drawer>
    </AntdScope>
  );
}
