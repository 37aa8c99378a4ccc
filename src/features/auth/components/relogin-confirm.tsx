/**
 * The re-login confirm (spec §8 'Your login has expired, please log in again'), loaded with antd when an
 * answer first reports an expired login. OK clears the dead login and opens the drawer; closing it clears
 * the dead login too, so the banner no longer offers a personal centre that cannot work.
 */
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '@/components/ui/antd-scope';
import { clearUserData } from '@/lib/user-data';
import { useAppStore } from '@/stores/app-store';

export default function ReloginConfirm() {
  const { t } = useTranslation();
  const open = useAppStore((s) => s.reloginConfirmOpen);
  const close = (relogin: boolean) => {
    const state = useAppStore.getState();
    clearUserData();
    state.setReloginConfirmOpen(false);
    if (relogin) state.setLoginDrawerOpen(true);
  };
  return (
    <AntdScope>
      <Modal
        open={open}
        title={t('auth.relogin.title')}
        okText={t('auth.relogin.ok')}
        cancelText={t('auth.relogin.cancel')}
        onOk={() => close(true)}
        onCancel={() => close(false)}
        centered
        data-testid="relogin-confirm"
      >
        <p>{t('auth.relogin.text')}</p>
      </Modal>
    </AntdScope>
  );
}
