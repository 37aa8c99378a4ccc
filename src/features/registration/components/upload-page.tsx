/**
 * /upload: the runner's documents for the race (issue 13 §3-4): the race's note, an upload field with the
 * settings' limits (kind 'file': every extension of spec §5, size and count limits, the authenticity
 * question), saved as one upload value; after the deadline the files are shown, no longer changeable.
 */
import { Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentsAnswer } from '#contract/registration-screens';
import { FieldItem } from '@/components/form/field-item';
import { UploadField } from '@/components/form/upload-field';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { refusalText } from '@/lib/form-rules';
import { notify } from '@/lib/notify';
import { useRaceId } from '@/lib/use-race-id';
import { useAppStore } from '@/stores/app-store';
import { getDocuments, saveDocuments } from '../api/documents';
import { errorMessage, fieldRefusalsOf } from '../utils/field-refusals';
import { localText } from '../utils/form-utils';
import { useRaceTime } from '../utils/race-time';
import { useLoad } from '../utils/use-load';
import { LoadState, ScreenFrame, ScreenNotice } from './screen-frame';

export default function UploadPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload, set } = useLoad(() => getDocuments(raceId), raceId);
  return (
    <ScreenFrame
      title={t('registration.upload.title')}
      subtitle={t('registration.upload.subtitle')}
      testId="upload-page"
    >
      {raceId ? (
        <LoadState load={result} retry={reload}>
          {(data) => (
            <DocumentsContent
              data={data}
              raceId={raceId}
              onSaved={(saved) => set({ ...data, files: saved.files, updatedAt: saved.updatedAt })}
            />
          )}
        </LoadState>
      ) : (
        <ScreenNotice tone="off" title={t('registration.screen.noRace')} />
      )}
    </ScreenFrame>
  );
}

function DocumentsContent({
  data,
  raceId,
  onSaved,
}: {
  data: DocumentsAnswer;
  raceId: string;
  onSaved: (saved: { files: string; updatedAt: number }) => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const time = useRaceTime();
  const { settings } = data;
  const [form] = Form.useForm<{ files: string }>();
  const [saving, setSaving] = useState(false);
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useAnnounceFormErrors(node);

  if (settings.state === 'closed') {
    return <ScreenNotice tone="off" title={t('messages.documentsClosed')} testId="upload-closed" />;
  }
  const ended = settings.state === 'ended';

  const save = async ({ files }: { files?: string }) => {
    setSaving(true);
    try {
      const saved = await saveDocuments({ raceId, files: files ?? '' });
      notify.success(t('registration.upload.saved'));
      onSaved(saved);
    } catch (error) {
      const refusal = fieldRefusalsOf(error)?.files;
      if (refusal) form.setFields([{ name: 'files', errors: [refusalText(refusal)] }]);
      notify.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="rs-upload" ref={setNode}>
      <div className="rs-notice rs-notice--info" data-testid="upload-note">
        <strong className="rs-notice__title">{t('registration.upload.noteTitle')}</strong>
        <div className="rs-notice__body">
          <p>{localText(language, settings.note)}</p>
          {settings.deadline ? (
            <p>
              {t('registration.upload.deadline')}
              <time data-testid="upload-deadline">{time(settings.deadline)}</time>
            </p>
          ) : null}
        </div>
      </div>
      {ended ? <ScreenNotice tone="off" title={t('messages.documentsEnded')} testId="upload-ended" /> : null}
      <Form<{ files: string }>
        form={form}
        name="upload-form"
        layout="vertical"
        requiredMark={false}
        className="rs-form"
        initialValues={{ files: data.files }}
        onFinish={(values) => void save(values)}
      >
        <FieldItem
          name="files"
          label={<span id="upload-form_files_label">{t('registration.upload.files')}</span>}
          checks={[]}
          required={false}
          wide
        >
          <UploadField
            kind="file"
            maxSize={settings.maxSize}
            maxCount={settings.maxCount}
            confirmAuthenticity
            disabled={ended}
            aria-labelledby="upload-form_files_label"
          />
        </FieldItem>
        {data.updatedAt ? (
          <p className="rs-note form-field--wide" data-testid="upload-saved-at">
            {t('registration.upload.savedAt', { time: time(data.updatedAt) })}
          </p>
        ) : null}
        {!ended ? (
          <div className="rs-form__actions">
            <Button type="primary" size="large" htmlType="submit" loading={saving} data-testid="upload-save">
              {t('registration.upload.save')}
            </Button>
          </div>
        ) : null}
      </Form>
    </div>
  );
}
