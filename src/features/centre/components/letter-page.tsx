/**
 * The electronic commitment letter (issue 15 §1; PATHS.letter): the race's letter (its body through the one
 * sanitising component), each statement ticked one by one, the runner's name typed as registered, and a
 * guardian's (under 18 on race day) or a relative's (over the race's age) name, relation and phone when the
 * entry needs them. A signed entry shows who signed when, with its co-signers; a signature of an older text
 * asks to sign the changed letter again. `?entryNo=` chooses the entry when the account has several.
 */
import { Button, Checkbox, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Cosigner, LetterAnswer, LetterEntry, LetterSignatureView } from '#contract/after-entry';
import type { Refusal } from '#contract/messages';
import { SafeHtml } from '@/components/ui/safe-html';
import { PATHS } from '@/config/paths';
import { errorMessage, fieldRefusalsOf } from '@/lib/field-refusals';
import { refusalText } from '@/lib/form-rules';
import { moveFocus } from '@/lib/move-focus';
import { notify } from '@/lib/notify';
import { pickLang } from '@/lib/pick-lang';
import { useLoad } from '@/lib/use-load';
import { useRaceId } from '@/lib/use-race-id';
import { useRaceTime } from '@/lib/use-race-time';
import { useAppStore } from '@/stores/app-store';
import { getLetter, signLetter } from '../api/letter';
import { CentreFrame, LoadView } from './centre-frame';
import '../letter.css';

export default function LetterPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const { result, reload, set } = useLoad(() => getLetter(raceId), raceId);
  return (
    <CentreFrame title={t('centre.letter.title')} testId="letter-page">
      <p className="centre-back">
        <Link to={PATHS.myIndex}>{t('centre.letter.back')}</Link>
      </p>
      <LoadView load={result} retry={reload}>
        {(data) => <Letter data={data} onChange={set} />}
      </LoadView>
    </CentreFrame>
  );
}

type LetterText = NonNullable<LetterAnswer['letter']>;

function Letter({ data, onChange }: { data: LetterAnswer; onChange: (data: LetterAnswer) => void }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const raceTime = useRaceTime();
  const [search, setSearch] = useSearchParams();
  const { letter } = data;
  const wanted = search.get('entryNo');
  const entry = data.entries.find((e) => e.entryNo === wanted) ?? data.entries[0];

  if (data.state === 'closed' || !letter) {
    return (
      <div className="centre-panel centre-panel--off" data-testid="letter-closed">
        {t('centre.letter.closed')}
      </div>
    );
  }
  const replaceEntry = (signed: LetterEntry) => {
    onChange({ ...data, entries: data.entries.map((e) => (e.entryNo === signed.entryNo ? signed : e)) });
    // The form is gone: focus goes to the signature that replaced it.
    moveFocus('[data-testid="letter-signed"]');
  };

  return (
    <>
      {letter.deadline ? (
        <p className="centre-note" data-testid="letter-deadline">
          {t('centre.letter.deadline', { time: raceTime(letter.deadline, 'YYYY-MM-DD HH:mm') })}
        </p>
      ) : null}
      {data.state === 'ended' ? (
        <div className="centre-panel centre-panel--warn" role="status" data-testid="letter-ended">
          {t('centre.letter.ended')}
        </div>
      ) : null}
      {entry === undefined ? (
        <div className="centre-panel centre-panel--info" data-testid="letter-no-entries">
          {t('centre.letter.noEntries')}
        </div>
      ) : (
        <>
          {data.entries.length > 1 ? (
            <label className="letter-entry-choice">
              <span>{t('centre.letter.entryLabel')}</span>
              <Select
                value={entry.entryNo}
                onChange={(entryNo: string) => setSearch({ entryNo }, { replace: true })}
                options={data.entries.map((e) => ({
                  value: e.entryNo,
                  label: t('centre.letter.entryOption', {
                    name: e.name,
                    item: pickLang(language, e.itemName.zh, e.itemName.en),
                    entryNo: e.entryNo,
                  }),
                }))}
                data-testid="letter-entry-select"
              />
            </label>
          ) : null}
          <article className="letter" data-testid="letter-text">
            <h2 className="letter__title">{pickLang(language, letter.title.zh, letter.title.en)}</h2>
            <SafeHtml className="letter__body" html={pickLang(language, letter.body.zh, letter.body.en)} />
          </article>
          {entry.signature ? <Signature signature={entry.signature} /> : null}
          {data.state === 'open' && !entry.signature?.current ? (
            <SignForm
              key={`${entry.entryNo} ${letter.versionHash}`}
              raceId={data.raceId}
              letter={letter}
              entry={entry}
              onSigned={replaceEntry}
            />
          ) : null}
        </>
      )}
    </>
  );
}

function Signature({ signature }: { signature: LetterSignatureView }) {
  const { t } = useTranslation();
  const raceTime = useRaceTime();
  const cosigner = (kind: 'guardian' | 'relative', c: LetterSignatureView['guardian']) =>
    c ? (
      <p data-testid={`letter-signed-${kind}`}>
        {t(`centre.letter.signed.${kind}`, { name: c.name, relation: c.relation, phone: c.phone })}
      </p>
    ) : null;
  return (
    <div
      className={`centre-panel ${signature.current ? 'centre-panel--ok' : 'centre-panel--warn'}`}
      role="status"
      data-testid={signature.current ? 'letter-signed' : 'letter-outdated'}
    >
      <p className="centre-panel__title">
        {t(signature.current ? 'centre.letter.signed.current' : 'centre.letter.signed.outdated')}
      </p>
      <p>
        {t('centre.letter.signed.by', {
          name: signature.signerName,
          time: raceTime(signature.signedAt, 'YYYY-MM-DD HH:mm'),
        })}
      </p>
      {cosigner('guardian', signature.guardian)}
      {cosigner('relative', signature.relative)}
      {signature.current ? null : <p>{t('centre.letter.signed.again')}</p>}
    </div>
  );
}

const EMPTY_COSIGNER: Cosigner = { name: '', relation: '', phone: '' };

function SignForm({
  raceId,
  letter,
  entry,
  onSigned,
}: {
  raceId: string;
  letter: LetterText;
  entry: LetterEntry;
  onSigned: (entry: LetterEntry) => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [ticked, setTicked] = useState<boolean[]>(() => letter.statements.map(() => false));
  const [signerName, setSignerName] = useState('');
  const [guardian, setGuardian] = useState<Cosigner>(EMPTY_COSIGNER);
  const [relative, setRelative] = useState<Cosigner>(EMPTY_COSIGNER);
  const [refusals, setRefusals] = useState<Record<string, Refusal>>({});
  const [busy, setBusy] = useState(false);

  const [failure, setFailure] = useState<string | null>(null);

  /** The id of a field's message ('guardian.name' → letter-error-guardian-name). */
  const errorId = (key: string) => `letter-error-${key.replace('.', '-')}`;
  const help = (key: string) => {
    const refusal = refusals[key];
    return refusal
      ? {
          validateStatus: 'error' as const,
          help: (
            <span id={errorId(key)} data-testid={`letter-error-${key}`}>
              {refusalText(refusal)}
            </span>
          ),
        }
      : {};
  };
  /** A refused field says so and names its message (the message is read with the field). */
  const invalid = (key: string) =>
    refusals[key] ? { 'aria-invalid': true as const, 'aria-describedby': errorId(key) } : {};
  const clear = (...keys: string[]) =>
    setRefusals((all) => Object.fromEntries(Object.entries(all).filter(([key]) => !keys.includes(key))));

  const submit = async () => {
    setBusy(true);
    setRefusals({});
    setFailure(null);
    try {
      const signed = await signLetter({
        raceId,
        entryNo: entry.entryNo,
        versionHash: letter.versionHash,
        accepted: ticked.flatMap((on, i) => (on ? [i] : [])),
        signerName,
        ...(entry.needs.guardian ? { guardian } : {}),
        ...(entry.needs.relative ? { relative } : {}),
      });
      notify.success(t('centre.letter.done'));
      onSigned(signed);
    } catch (error) {
      const fields = fieldRefusalsOf(error);
      if (fields) {
        setRefusals(fields);
        // Said by the alert below the form; focus goes to the first refused field, which reads its message.
        setFailure(errorMessage(error));
        moveFocus('[data-testid="letter-form"] [aria-invalid="true"]');
      } else {
        notify.error(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };

  const cosignerFields = (kind: 'guardian' | 'relative', value: Cosigner, change: (c: Cosigner) => void) => (
    <fieldset className="letter-cosigner" data-testid={`letter-${kind}`}>
      <legend>{t(`centre.letter.${kind}.title`)}</legend>
      <p className="centre-note">{t(`centre.letter.${kind}.why`)}</p>
      {(['name', 'relation', 'phone'] as const).map((field) => (
        <Form.Item
          key={field}
          label={t(`centre.letter.cosigner.${field}`)}
          htmlFor={`letter-${kind}-${field}`}
          {...help(`${kind}.${field}`)}
        >
          <Input
            id={`letter-${kind}-${field}`}
            {...invalid(`${kind}.${field}`)}
            value={value[field]}
            maxLength={field === 'relation' ? 20 : field === 'phone' ? 11 : 50}
            placeholder={t(`centre.letter.cosigner.${field}Placeholder`)}
            onChange={(e) => {
              change({ ...value, [field]: e.target.value });
              clear(`${kind}.${field}`);
            }}
            data-testid={`letter-${kind}-${field}`}
          />
        </Form.Item>
      ))}
    </fieldset>
  );

  return (
    <Form layout="vertical" className="letter-form" data-testid="letter-form" onFinish={() => void submit()}>
      <h2 className="letter-form__title">{t('centre.letter.form.title', { name: entry.name })}</h2>
      <Form.Item label={t('centre.letter.form.statements')} {...help('accepted')}>
        <ol className="letter-statements">
          {letter.statements.map((statement, i) => (
            <li key={i}>
              <Checkbox
                checked={ticked[i]}
                {...(ticked[i] ? {} : invalid('accepted'))}
                onChange={(e) => {
                  setTicked((all) => all.map((on, k) => (k === i ? e.target.checked : on)));
                  clear('accepted');
                }}
                data-testid={`letter-statement-${i}`}
              >
                {pickLang(language, statement.zh, statement.en)}
              </Checkbox>
            </li>
          ))}
        </ol>
      </Form.Item>
      <Form.Item
        label={t('centre.letter.form.name')}
        extra={t('centre.letter.form.nameHint')}
        htmlFor="letter-signer-name"
        {...help('signerName')}
      >
        <Input
          id="letter-signer-name"
          {...invalid('signerName')}
          value={signerName}
          maxLength={50}
          onChange={(e) => {
            setSignerName(e.target.value);
            clear('signerName');
          }}
          data-testid="letter-signer-name"
        />
      </Form.Item>
      {entry.needs.guardian ? cosignerFields('guardian', guardian, setGuardian) : null}
      {entry.needs.relative ? cosignerFields('relative', relative, setRelative) : null}
      {failure ? (
        <p className="centre-panel centre-panel--off" role="alert" data-testid="letter-failure">
          {failure}
        </p>
      ) : null}
      <Button type="primary" htmlType="submit" loading={busy} data-testid="letter-sign">
        {t(entry.signature ? 'centre.letter.form.signAgain' : 'centre.letter.form.sign')}
      </Button>
    </Form>
  );
}
