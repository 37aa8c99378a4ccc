/**
 * Asks before leaving a changed, unsent form (issue #28): the browser's own prompt on reload or close
 * (beforeunload), and a confirm in the site's language on a move inside the app (react-router's blocker).
 * `active` is read at the moment of leaving, so a page that has just sent its form leaves unasked.
 */
import { Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router-dom';

export function LeaveGuard({ active }: { active: () => boolean }) {
  const { t } = useTranslation();
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (!active()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    return currentLocation.pathname !== nextLocation.pathname && active();
  });
  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={t('entry.leave.title')}
      okText={t('entry.leave.ok')}
      cancelText={t('entry.leave.stay')}
      onOk={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
      centered
      data-testid="entry-leave-confirm"
    >
      <p>{t('entry.leave.text')}</p>
    </Modal>
  );
}
