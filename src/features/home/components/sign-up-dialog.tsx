import { useState } from 'react';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '@/components/ui/antd-scope';
import { ModuleIcon } from '@/components/ui/icons';
import type { ModuleAction } from '../utils/module-action';

/**
 * The sign-up-or-search dialog (loaded with antd when first opened): sign up, or registration search.
 * A choice that is not open shows its notice here ('Not open yet, stay tuned' by default).
 */
export default function SignUpDialog({
  signUp,
  search,
  onGo,
  onClose,
}: {
  signUp: ModuleAction;
  search: ModuleAction;
  /** Follows a route or an external link (the dialog closes). */
  onGo: (action: ModuleAction) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<string | null>(null);
  const choose = (action: ModuleAction) => (action.kind === 'notice' ? setNotice(action.text) : onGo(action));

  return (
    <AntdScope>
      <Modal
        open
        centered
        width={560}
        title={<span className="signup-dialog__title">{t('home.signUp.dialog.title')}</span>}
        onCancel={onClose}
        footer={null}
        classNames={{ body: 'signup-dialog' }}
      >
        {notice === null ? (
          <div className="signup-dialog__choices" data-testid="signup-dialog">
            <button type="button" className="signup-choice signup-choice--signup" onClick={() => choose(signUp)}>
              <span className="signup-choice__icon" aria-hidden>
                <ModuleIcon kind="signup" />
              </span>
              <span className="signup-choice__title">{t('home.signUp.dialog.signUp')}</span>
              <span className="signup-choice__hint">{t('home.signUp.dialog.signUpHint')}</span>
            </button>
            <button type="button" className="signup-choice signup-choice--search" onClick={() => choose(search)}>
              <span className="signup-choice__icon" aria-hidden>
                <ModuleIcon kind="registration" />
              </span>
              <span className="signup-choice__title">{t('home.signUp.dialog.search')}</span>
              <span className="signup-choice__hint">{t('home.signUp.dialog.searchHint')}</span>
            </button>
          </div>
        ) : (
          <div className="signup-dialog__notice">
            <p data-testid="signup-dialog-notice">{notice}</p>
            <div className="signup-dialog__actions">
              <button type="button" className="button" onClick={() => setNotice(null)}>
                {t('home.signUp.dialog.back')}
              </button>
              <button type="button" className="button button--primary" onClick={onClose}>
                {t('home.signUp.dialog.ok')}
              </button>
            </div>
          </div>
        )}
      </Modal>
    </AntdScope>
  );
}
