/**
 * "Choose from my participants" on the sign-up page (issue 15 §3): the account's saved participants, and
 * picking one fills the person's form with their name, gender, certificate type and masked number, birthday,
 * phone and emergency contact. The masked numbers go back as shown with the participant's id
 * (SAVED_PARTICIPANT_KEY); the server puts the stored numbers in their place. Nothing shows while the account
 * has no saved participant (or the list cannot be read: the form is filled by hand as before).
 */
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SAVED_PARTICIPANT_KEY, type SavedParticipant } from '#contract/after-entry';
import { PARTICIPANT_KEYS } from '#contract/entry';
import type { RegistrationForm } from '#contract/registration-form';
import { getSavedParticipants } from '../api/saved-participants';
import type { FormValues } from './registration-form';

/** The form values a saved participant fills (only the keys the form has), with its id. */
export function savedParticipantValues(form: RegistrationForm, participant: SavedParticipant): FormValues {
  const keyOf = (type: 'certificateType' | 'certificateNumber') => form.fields.find((f) => f.type === type)?.key;
  const has = (key: string) => form.fields.some((f) => f.key === key);
  const pairs: [string | undefined, unknown][] = [
    [PARTICIPANT_KEYS.name, participant.name],
    [PARTICIPANT_KEYS.gender, participant.gender],
    [keyOf('certificateType'), participant.certificateType],
    [keyOf('certificateNumber'), participant.certificateNumber],
    [PARTICIPANT_KEYS.birthday, participant.birthday],
    [PARTICIPANT_KEYS.phone, participant.phone],
    [PARTICIPANT_KEYS.emergencyName, participant.emergencyName],
    [PARTICIPANT_KEYS.emergencyPhone, participant.emergencyPhone],
  ];
  const values: FormValues = {};
  for (const [key, value] of pairs) if (key !== undefined && has(key)) values[key] = value;
  values[SAVED_PARTICIPANT_KEY] = participant.id;
  return values;
}

/** The account's saved participants, loaded once per page ([] until answered or when they cannot be read). */
export function useSavedParticipants(): SavedParticipant[] {
  const [list, setList] = useState<SavedParticipant[]>([]);
  useEffect(() => {
    let live = true;
    getSavedParticipants().then(
      (answer) => live && setList(answer),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}

export function SavedParticipantPicker({
  participants,
  pickedId,
  onPick,
}: {
  participants: SavedParticipant[];
  pickedId: number | undefined;
  onPick: (participant: SavedParticipant) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  if (participants.length === 0) return null;
  return (
    <div className="en-saved-picker" data-testid="saved-participant-picker">
      <label htmlFor={id} className="en-saved-picker__label">
        {t('entry.savedParticipants.label')}
      </label>
      <select
        id={id}
        className="form-select en-saved-picker__select"
        value={pickedId ?? ''}
        onChange={(event) => {
          const picked = participants.find((p) => String(p.id) === event.target.value);
          if (picked) onPick(picked);
        }}
        data-testid="saved-participant-select"
      >
        <option value="" disabled>
          {t('entry.savedParticipants.placeholder')}
        </option>
        {participants.map((p) => (
          <option key={p.id} value={p.id}>
            {t('entry.savedParticipants.option', { name: p.name, number: p.certificateNumber })}
          </option>
        ))}
      </select>
      <p className="en-saved-picker__hint">{t('entry.savedParticipants.hint')}</p>
    </div>
  );
}
