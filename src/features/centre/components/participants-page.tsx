/**
 * My participants (issue 15 §3; PATHS.participants): the people the account registers, kept for the next
 * sign-up. The list shows each one's name, adult or minor (age today), certificate type and masked number,
 * masked phone, emergency contact and birthday; a participant is added or edited in a form whose fields are
 * checked on blur with contract/saved-participants.ts (the registration form's §5 rules, the very check the
 * server runs), and deleted after a confirmation. A masked number left as shown keeps the stored one.
 */
import { Button, Form, Modal, Radio } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_SAVED_PARTICIPANTS, type ParticipantSaveRequest, type SavedParticipant } from '#contract/after-entry';
import { CERTIFICATE_TYPE_LABELS, CERTIFICATE_TYPES, GENDER_LABELS } from '#contract/enums';
import { formatRaceTime } from '#contract/race-clock';
import {
  checkParticipantField,
  PARTICIPANT_EARLIEST_BIRTHDAY,
  PARTICIPANT_NAME_MAX,
  type ParticipantField,
} from '#contract/saved-participants';
import { CertificateFields } from '@/components/form/certificate-fields';
import { DATE_FORMAT, DateField } from '@/components/form/date-field';
import { FieldItem } from '@/components/form/field-item';
import { TextField } from '@/components/form/text-field';
import { useAnnounceFormErrors } from '@/components/form/use-announce-form-errors';
import { errorMessage, fieldRefusalsOf, showFieldRefusals } from '@/lib/field-refusals';
import type { FormCheck } from '@/lib/form-rules';
import { moveFocus } from '@/lib/move-focus';
import { notify } from '@/lib/notify';
import { useLoad } from '@/lib/use-load';
import { deleteParticipant, listParticipants, saveParticipant } from '../api/participants';
import { CentreFrame, LoadView } from './centre-frame';
import '../participants.css';

const today = () => formatRaceTime(Date.now(), DATE_FORMAT);
/** A participant's name heading in the list: where focus goes after their form is saved or left. */
const cardHeading = (id: number | string) => `[data-testid="participant-${id}"] h2`;
const ADD_BUTTON = '[data-testid="participants-add"]';
const PAGE_TITLE = '[data-testid="participants-page"] h1';

type Values = Omit<ParticipantSaveRequest, 'id'>;
/** The form: a participant being added (null) or edited. */
type Editing = { participant: SavedParticipant | null } | null;

export default function ParticipantsPage() {
  const { t } = useTranslation();
  const { result, reload, set } = useLoad(listParticipants, 'participants');
  return (
    <CentreFrame title={t('centre.menu.participants')} testId="participants-page">
      <LoadView load={result} retry={reload}>
        {(list) => <Participants list={list} onChange={set} />}
      </LoadView>
    </CentreFrame>
  );
}

function Participants({ list, onChange }: { list: SavedParticipant[]; onChange: (list: SavedParticipant[]) => void }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<SavedParticipant | null>(null);
  const [busy, setBusy] = useState(false);
  /** A participant was just deleted: the closing dialog hands focus on (their card went with it). */
  const deleted = useRef(false);
  const full = list.length >= MAX_SAVED_PARTICIPANTS;

  const onSaved = (saved: SavedParticipant) => {
    const known = list.some((p) => p.id === saved.id);
    onChange(known ? list.map((p) => (p.id === saved.id ? saved : p)) : [...list, saved]);
    setEditing(null);
    notify.success(t('centre.participants.saved'));
    moveFocus(cardHeading(saved.id));
  };
  /** The form left unsaved: back to the participant it edited, or to the add button. */
  const onCancel = () => {
    const id = editing?.participant?.id;
    setEditing(null);
    moveFocus(id === undefined ? ADD_BUTTON : cardHeading(id), PAGE_TITLE);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteParticipant(deleting.id);
      deleted.current = true;
      onChange(list.filter((p) => p.id !== deleting.id));
      notify.success(t('centre.participants.deleted'));
    } catch (error) {
      notify.error(errorMessage(error));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  return (
    <>
      <div className="participants__bar">
        <p className="centre-note">{t('centre.participants.intro', { max: MAX_SAVED_PARTICIPANTS })}</p>
        {editing ? null : (
          <Button
            type="primary"
            disabled={full}
            onClick={() => setEditing({ participant: null })}
            data-testid="participants-add"
          >
            {t('centre.participants.add')}
          </Button>
        )}
      </div>
      {full && !editing ? (
        <p className="centre-panel centre-panel--warn" data-testid="participants-full">
          {t('centre.participants.full', { max: MAX_SAVED_PARTICIPANTS })}
        </p>
      ) : null}
      {editing ? (
        <ParticipantForm
          key={editing.participant?.id ?? 'new'}
          participant={editing.participant}
          onSaved={onSaved}
          onCancel={onCancel}
        />
      ) : null}
      {list.length === 0 && !editing ? (
        <div className="centre-panel centre-empty" data-testid="participants-empty">
          <p>{t('centre.participants.empty')}</p>
        </div>
      ) : (
        <ul className="participants__list" data-testid="participants-list">
          {list.map((participant) => (
            <ParticipantCard
              key={participant.id}
              participant={participant}
              onEdit={() => setEditing({ participant })}
              onDelete={() => setDeleting(participant)}
            />
          ))}
        </ul>
      )}
      <Modal
        open={deleting !== null}
        title={t('centre.participants.deleteTitle')}
        okText={t('centre.participants.delete')}
        cancelText={t('centre.participants.cancel')}
        okButtonProps={{ danger: true, loading: busy, ...{ 'data-testid': 'participants-delete-ok' } }}
        onOk={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        // Deleted: the card and its button are gone; focus goes to the add button (else the title).
        afterClose={() => {
          if (deleted.current) moveFocus(ADD_BUTTON, PAGE_TITLE);
          deleted.current = false;
        }}
        centered
      >
        <p>{t('centre.participants.deleteText', { name: deleting?.name ?? '' })}</p>
      </Modal>
    </>
  );
}

function ParticipantCard({
  participant,
  onEdit,
  onDelete,
}: {
  participant: SavedParticipant;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const p = participant;
  return (
    <li className="centre-entry participants__card" data-testid={`participant-${p.id}`}>
      <header className="centre-entry__head">
        <h2 className="centre-entry__item">
          <span data-testid="participant-name">{p.name}</span>
          <span className="participants__gender">{t(GENDER_LABELS[p.gender])}</span>
        </h2>
        <span className={`centre-tag ${p.adult ? 'centre-tag--s1' : 'centre-tag--s4'}`} data-testid="participant-adult">
          {t(p.adult ? 'centre.participants.adult' : 'centre.participants.minor')}
        </span>
      </header>
      <div className="participants__body">
        <dl className="centre-kv participants__kv">
          <div>
            <dt>{t(CERTIFICATE_TYPE_LABELS[p.certificateType])}</dt>
            <dd data-testid="participant-certificate">{p.certificateNumber}</dd>
          </div>
          <div>
            <dt>{t('centre.participants.phone')}</dt>
            <dd data-testid="participant-phone">{p.phone}</dd>
          </div>
          <div>
            <dt>{t('centre.participants.birthday')}</dt>
            <dd>
              {p.birthday} <span className="participants__age">{t('centre.participants.age', { age: p.age })}</span>
            </dd>
          </div>
          <div>
            <dt>{t('centre.participants.emergency')}</dt>
            <dd>
              {p.emergencyName} · {p.emergencyPhone}
            </dd>
          </div>
        </dl>
        <div className="participants__actions">
          <Button onClick={onEdit} data-testid="participant-edit">
            {t('centre.participants.edit')}
          </Button>
          <Button danger onClick={onDelete} data-testid="participant-delete">
            {t('centre.participants.delete')}
          </Button>
        </div>
      </div>
    </li>
  );
}

function initialValues(p: SavedParticipant | null): Partial<Values> {
  if (!p) return { certificateType: CERTIFICATE_TYPES.idCard };
  const { id: _id, age: _age, adult: _adult, updatedAt: _at, ...values } = p;
  return values;
}

function ParticipantForm({
  participant,
  onSaved,
  onCancel,
}: {
  participant: SavedParticipant | null;
  onSaved: (saved: SavedParticipant) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [node, setNode] = useState<HTMLDivElement | null>(null);
  useAnnounceFormErrors(node);
  const original = initialValues(participant);

  /** The contract's check of a field, against the form's other values. */
  const check =
    (key: ParticipantField): FormCheck =>
    (value) =>
      checkParticipantField(key, { ...form.getFieldsValue(true), [key]: value }, today());
  /** A number field: a masked number left as answered stands for the stored one. */
  const keep = (key: 'certificateNumber' | 'phone' | 'emergencyPhone'): FormCheck => {
    const own = check(key);
    return (value) => (participant && value === original[key] ? null : own(value));
  };

  const onFinish = async (values: Values) => {
    setSaving(true);
    setFailure(null);
    try {
      const request: ParticipantSaveRequest = {
        ...(participant ? { id: participant.id } : {}),
        name: values.name?.trim() ?? '',
        gender: values.gender,
        certificateType: values.certificateType,
        certificateNumber: values.certificateNumber?.trim() ?? '',
        birthday: values.birthday ?? '',
        phone: values.phone?.trim() ?? '',
        emergencyName: values.emergencyName?.trim() ?? '',
        emergencyPhone: values.emergencyPhone?.trim() ?? '',
      };
      onSaved(await saveParticipant(request));
    } catch (error) {
      const refusals = fieldRefusalsOf(error);
      if (refusals) {
        showFieldRefusals(form, refusals);
      } else {
        setFailure(errorMessage(error));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <div ref={setNode} className="centre-panel participants__form-panel">
      <h2 className="centre-panel__title">
        {t(participant ? 'centre.participants.editTitle' : 'centre.participants.newTitle')}
      </h2>
      {participant ? <p className="centre-note">{t('centre.participants.maskedNote')}</p> : null}
      <Form<Values>
        form={form}
        name="centre-participant"
        layout="vertical"
        className="centre-form centre-form--grid"
        initialValues={original}
        onFinish={(values) => void onFinish(values)}
        data-testid="participant-form"
      >
        <TextField
          name="name"
          label={t('centre.participants.name')}
          checks={[check('name')]}
          inputProps={{ autoComplete: 'off', maxLength: PARTICIPANT_NAME_MAX }}
        />
        <FieldItem name="gender" label={t('centre.participants.gender')} checks={[check('gender') as FormCheck]}>
          <Radio.Group
            options={([1, 2] as const).map((gender) => ({ value: gender, label: t(GENDER_LABELS[gender]) }))}
          />
        </FieldItem>
        <CertificateFields
          typeLabel={t('centre.participants.certificateType')}
          numberLabel={t('centre.participants.certificateNumber')}
          numberInputProps={{ maxLength: 32 }}
          numberChecks={[keep('certificateNumber')]}
        />
        <DateField
          name="birthday"
          label={t('centre.participants.birthday')}
          checks={[check('birthday')]}
          earliest={PARTICIPANT_EARLIEST_BIRTHDAY}
          latest={today()}
        />
        <TextField
          name="phone"
          label={t('centre.participants.phone')}
          checks={[keep('phone')]}
          inputProps={{ autoComplete: 'off', inputMode: 'tel', maxLength: 11 }}
        />
        <TextField
          name="emergencyName"
          label={t('centre.participants.emergencyName')}
          dependencies={['name']}
          checks={[check('emergencyName')]}
          inputProps={{ autoComplete: 'off', maxLength: PARTICIPANT_NAME_MAX }}
        />
        <TextField
          name="emergencyPhone"
          label={t('centre.participants.emergencyPhone')}
          dependencies={['phone']}
          checks={[keep('emergencyPhone')]}
          inputProps={{ autoComplete: 'off', inputMode: 'tel', maxLength: 11 }}
        />
        {failure ? (
          <p className="centre-panel centre-panel--off form-field--wide" role="alert" data-testid="participant-failure">
            {failure}
          </p>
        ) : null}
        <div className="centre-form__actions form-field--wide">
          <Button type="primary" htmlType="submit" loading={saving} data-testid="participant-save">
            {t('centre.participants.save')}
          </Button>
          <Button onClick={onCancel} data-testid="participant-cancel">
            {t('centre.participants.cancel')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
