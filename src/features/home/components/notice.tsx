import { Suspense, lazy } from 'react';

const NoticeDialog = lazy(() => import('./notice-dialog'));

/** The notice dialog, loaded (with antd) only when a notice is first shown. */
export function Notice({ text, onClose }: { text: string | null; onClose: () => void }) {
  if (text === null) return null;
  return (
    <Suspense fallback={null}>
      <NoticeDialog text={text} onClose={onClose} />
    </Suspense>
  );
}
