/**
 * The participants of a sign-up: the published registration form, rendered by the registration form
 * renderer with its `item` field fixed to the chosen item. One person, or, when the race allows several,
 * a list of people each filled in turn ("add another person", up to MAX_PEOPLE_PER_SUBMISSION), then one
 * submission. Each person's age is checked against the item's limits on race day before anything is sent;
 * the server's refusals (keyed `${person}.${field}`) open that person's form with the messages on its fields.
 * Each person may be picked from the account's saved participants (saved-participant-picker.tsx): the form
 * opens filled with them, and their id goes with the person's values. The page's slider check (`slider`) is
 * shown just above the submit button. At most `maxPeople` people (the account's limit for the race).
 * A draft (the sign-up's, utils/entry-draft.ts) fills the people and the open form once; every change is
 * reported with `onDraftChange`. A draft keeps no certificate numbers (nor phones): each restored person is
 * marked "enter … again" until their form is saved again, the first one's edit button takes the focus, and
 * submitting opens the first marked person instead of sending.
 */
import { Alert, Button, Tag } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SAVED_PARTICIPANT_KEY } from '#contract/after-entry';
import { MAX_PEOPLE_PER_SUBMISSION, PARTICIPANT_KEYS, ageProblem, type EntryItemInfo } from '#contract/entry';
import type { Refusal } from '#contract/messages';
import type { RegistrationForm } from '#contract/registration-form';
import { refusalText } from '@/lib/form-rules';
import { useAppStore } from '@/stores/app-store';
import { secretFields } from '../utils/entry-draft';
import { localText } from '../utils/form-utils';
import { RegistrationFormView, type FormValues } from './registration-form';
import { SavedParticipantPicker, savedParticipantValues, useSavedParticipants } from './saved-participant-picker';

/** Refusals of each person, by person index. */
export type PeopleRefusals = Record<number, Record<string, Refusal>>;

/** Splits the server's `${index}.${field}` refusals by person; a key with no index belongs to the first person. */
export function refusalsByPerson(fields: Record<string, Refusal>): PeopleRefusals {
  const byPerson: PeopleRefusals = {};
  for (const [key, refusal] of Object.entries(fields)) {
    const match = /^(\d+)\.(.+)$/.exec(key);
    const index = match ? Number(match[1]) : 0;
    const field = match ? (match[2] as string) : key;
    (byPerson[index] ??= {})[field] = refusal;
  }
  return byPerson;
}

/** The age refusals of people outside the item's limits on race day (contract ageProblem). */
export function ageRefusals(
  people: FormValues[],
  item: Pick<EntryItemInfo, 'minAge' | 'maxAge'> | undefined,
  raceDate: string | undefined,
): PeopleRefusals {
  const refusals: PeopleRefusals = {};
  if (!item || !raceDate) return refusals;
  people.forEach((person, index) => {
    const birthday = person[PARTICIPANT_KEYS.birthday];
    if (typeof birthday !== 'string' || !birthday) return;
    const problem = ageProblem(item, birthday, raceDate);
    if (problem) {
      const params = Object.fromEntries(Object.entries(problem.params).filter(([, v]) => v !== undefined));
      refusals[index] = { [PARTICIPANT_KEYS.birthday]: { code: problem.code, params } as Refusal };
    }
  });
  return refusals;
}

/** What the people of a sign-up are so far: those saved and the open form's values. */
export interface PeopleDraft {
  people: FormValues[];
  current: FormValues;
}

export function EntryPeople({
  form,
  raceId,
  itemCode,
  allowMultiple,
  maxPeople,
  refusals,
  submitting,
  onSubmit,
  slider,
  draft,
  onDraftChange,
}: {
  form: RegistrationForm;
  raceId: string;
  itemCode: string;
  allowMultiple: boolean;
  /** The most people this account may enter (MAX_PEOPLE_PER_SUBMISSION at most). */
  maxPeople: number;
  /** The human check, shown above the submit button. */
  slider: ReactNode;
  /** Refusals to show (the age check's or the server's), by person. */
  refusals: PeopleRefusals;
  submitting: boolean;
  onSubmit: (people: FormValues[]) => void | Promise<void>;
  /** A restored draft: the people and the open form start with it. */
  draft?: PeopleDraft;
  /** Every change to the people or the open form. */
  onDraftChange?: (draft: PeopleDraft) => void;
}) {
  const { t } = useTranslation();
  const hasItemField = form.fields.some((f) => f.key === PARTICIPANT_KEYS.item);
  const locked = hasItemField ? { [PARTICIPANT_KEYS.item]: itemCode } : undefined;
  const [people, setPeople] = useState<FormValues[]>(() => (allowMultiple ? (draft?.people ?? []) : []));
  // The restored open form's values, until that form is saved or left.
  const [restored, setRestored] = useState<FormValues | undefined>(() =>
    draft && Object.keys(draft.current).length ? draft.current : undefined,
  );
  const report = (list: FormValues[], values: FormValues) => onDraftChange?.({ people: list, current: values });
  // A saved participant picked for the person whose form is open: the form opens again filled with them.
  const saved = useSavedParticipants();
  const [picked, setPicked] = useState<{ index: number; values: FormValues } | null>(null);
  const pickedFor = (index: number) => (picked?.index === index ? picked.values : undefined);
  const pickedId = (index: number) => pickedFor(index)?.[SAVED_PARTICIPANT_KEY] as number | undefined;
  /** The person's values with the id of the saved participant picked for them (now, or when first saved). */
  const withSavedId = (index: number, values: FormValues): FormValues => {
    const id = pickedFor(index)?.[SAVED_PARTICIPANT_KEY] ?? people[index]?.[SAVED_PARTICIPANT_KEY];
    return id === undefined ? values : { ...values, [SAVED_PARTICIPANT_KEY]: id };
  };
  const picker = (index: number) => (
    <SavedParticipantPicker
      participants={saved}
      pickedId={(pickedId(index) ?? people[index]?.[SAVED_PARTICIPANT_KEY]) as number | undefined}
      onPick={(participant) => setPicked({ index, values: savedParticipantValues(form, participant) })}
    />
  );
  // Restored people whose certificate number (and phone) the draft did not keep: marked until saved again.
  const language = useAppStore((s) => s.language);
  const secretLabels = secretFields(form).map((f) => localText(language, f.label));
  const [retype, setRetype] = useState<boolean[]>(() =>
    allowMultiple && secretLabels.length ? (draft?.people ?? []).map(() => true) : [],
  );
  const firstRetype = retype.indexOf(true);
  const editButtons = useRef<(HTMLElement | null)[]>([]);
  useEffect(() => {
    // Once, on a restored list: the first person to complete takes the focus.
    if (firstRetype >= 0) editButtons.current[firstRetype]?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Every person enters the item chosen now (one saved before another item was chosen too).
  const send = (list: FormValues[]) => {
    if (firstRetype >= 0) {
      setEditing(firstRetype);
      return;
    }
    return onSubmit(locked ? list.map((values) => ({ ...values, ...locked })) : list);
  };
  // The person whose form is open (a new one at people.length), or null while the list is shown.
  const [editing, setEditing] = useState<number | null>(() =>
    allowMultiple && draft?.people.length ? (restored ? draft.people.length : null) : 0,
  );
  const firstRefused = Object.keys(refusals)
    .map(Number)
    .sort((a, b) => a - b)[0];
  // A refusal opens the first refused person's form (once per set of refusals).
  const [shownRefusals, setShownRefusals] = useState(refusals);
  if (shownRefusals !== refusals) {
    setShownRefusals(refusals);
    if (firstRefused !== undefined && allowMultiple) setEditing(firstRefused);
  }

  if (!allowMultiple) {
    return (
      <div className="en-people" data-testid="entry-people">
        {picker(0)}
        <RegistrationFormView
          key={`person-0-${itemCode}-${pickedId(0) ?? ''}`}
          form={form}
          raceId={raceId}
          name="entry-person-0"
          initialValues={pickedFor(0) ?? draft?.current}
          lockedValues={locked}
          fieldErrors={refusals[0]}
          submitting={submitting}
          submitLabel={t('entry.signUp.submit')}
          beforeActions={slider}
          onSubmit={(values) => send([withSavedId(0, values)])}
          onValuesChange={(values) => report([], values)}
        />
      </div>
    );
  }

  const save = (values: FormValues) => {
    const index = editing ?? people.length;
    const next = [...people];
    next[index] = withSavedId(index, values);
    setPeople(next);
    setRetype((marks) => marks.map((mark, i) => mark && i !== index));
    setEditing(null);
    setPicked(null);
    setRestored(undefined);
    report(next, {});
  };
  const nameOf = (values: FormValues, index: number) =>
    typeof values[PARTICIPANT_KEYS.name] === 'string' && values[PARTICIPANT_KEYS.name]
      ? String(values[PARTICIPANT_KEYS.name])
      : t('entry.signUp.personN', { n: index + 1 });

  return (
    <div className="en-people" data-testid="entry-people">
      {people.length ? (
        <ol className="en-people__list" data-testid="entry-people-list">
          {people.map((values, index) => {
            const refused = refusals[index];
            return (
              <li key={index} className="en-person" data-testid={`entry-person-${index}`}>
                <span className="en-person__name">{nameOf(values, index)}</span>
                {retype[index] ? (
                  <Tag color="warning" id={`entry-person-retype-${index}`} data-testid={`entry-person-retype-${index}`}>
                    {t('entry.signUp.personRetype', { fields: secretLabels.join(language === 'zh' ? '、' : ', ') })}
                  </Tag>
                ) : null}
                {refused ? (
                  <Tag color="error">
                    {t('entry.signUp.personRefused', {
                      message: refusalText(Object.values(refused)[0] as Refusal),
                    })}
                  </Tag>
                ) : null}
                <span className="en-person__actions">
                  <Button
                    size="small"
                    ref={(button) => {
                      editButtons.current[index] = button;
                    }}
                    onClick={() => setEditing(index)}
                    disabled={submitting}
                    aria-describedby={retype[index] ? `entry-person-retype-${index}` : undefined}
                    data-testid={`entry-person-edit-${index}`}
                  >
                    {t('entry.signUp.editPerson')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    disabled={submitting}
                    onClick={() => {
                      const next = people.filter((_, i) => i !== index);
                      setPeople(next);
                      setRetype((marks) => marks.filter((_, i) => i !== index));
                      setEditing(null);
                      report(next, {});
                    }}
                  >
                    {t('entry.signUp.removePerson')}
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
      ) : null}
      {editing !== null ? (
        <section className="en-person-form" aria-label={t('entry.signUp.personN', { n: editing + 1 })}>
          <h3 className="rs-section-title">{t('entry.signUp.personN', { n: editing + 1 })}</h3>
          {picker(editing)}
          <RegistrationFormView
            key={`person-${editing}-${itemCode}-${people.length}-${pickedId(editing) ?? ''}`}
            form={form}
            raceId={raceId}
            name={`entry-person-${editing}`}
            initialValues={pickedFor(editing) ?? people[editing] ?? (editing === people.length ? restored : undefined)}
            lockedValues={locked}
            fieldErrors={refusals[editing]}
            submitLabel={t('entry.signUp.savePerson')}
            onSubmit={save}
            onValuesChange={(values) => report(people, values)}
          />
          {people.length ? (
            <Button
              type="link"
              onClick={() => {
                setEditing(null);
                setPicked(null);
                setRestored(undefined);
                report(people, {});
              }}
            >
              {t('entry.signUp.cancelPerson')}
            </Button>
          ) : null}
        </section>
      ) : (
        <>
          {people.length ? slider : null}
          <div className="rs-actions en-people__actions">
            {people.length < Math.min(maxPeople, MAX_PEOPLE_PER_SUBMISSION) ? (
              <Button onClick={() => setEditing(people.length)} data-testid="entry-add-person" disabled={submitting}>
                {t('entry.signUp.addPerson')}
              </Button>
            ) : (
              <Alert
                type="info"
                showIcon
                title={t('entry.signUp.maxPeople', { max: Math.min(maxPeople, MAX_PEOPLE_PER_SUBMISSION) })}
              />
            )}
            <Button
              type="primary"
              size="large"
              loading={submitting}
              disabled={!people.length}
              onClick={() => void send(people)}
              data-testid="entry-submit"
            >
              {t('entry.signUp.submitPeople', { count: people.length })}
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
