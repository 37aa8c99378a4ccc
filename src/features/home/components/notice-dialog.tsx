import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { AntdScope } from '@/components/ui/antd-scope';

/** The notice a closed module shows (loaded when first needed). */
export default function NoticeDialog({ text, onClose }: { text: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <AntdScope>
      <Modal
        open={text !== null}
        onCancel={onClose}
        onOk={onClose}
        cancelButtonProps={{ style: { display: 'none' } }}
        okText={t('home.search.ok')}
        title={t('home.search.dialogTitle')}
        centered
      >
        <p data-testid="search-dialog-text">{text}</p>
      </Modal>
    </AntdScope>
  );
}
