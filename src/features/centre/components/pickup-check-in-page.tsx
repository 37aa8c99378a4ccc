/**
 * The staff's pack pick-up check-in screen (issue 15 §2; PATHS.pickupCheckIn, a hidden page of the site, no
 * runner login): the staff key the organiser issued (`site staff-key-issue`) is typed once and kept for the
 * browser session; then each pass code is typed or scanned (a keyboard-wedge scanner types the code and
 * Enter) and the answer shows big: the holder (name, masked certificate, item, bib, the slot's day and times) to hand the pack
 * over, or the refusal (already collected at …, unknown pass). A refused key is forgotten.
 */
import { Button, Input, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPassCode, normalizePassCode, type PickupCheckInAnswer } from '#contract/after-entry';
import { AntdScope } from '@/components/ui/antd-scope';
import { ApiError } from '@/lib/api-client';
import { pickLang } from '@/lib/pick-lang';
import { useRaceId } from '@/lib/use-race-id';
import { useRaceTime } from '@/lib/use-race-time';
import { sessionStore } from '@/lib/storage';
import { useAppStore } from '@/stores/app-store';
import { checkInPass } from '../api/pickup';
import '../pickup.css';

/** Where the staff key is kept for the browser session. */
export const STAFF_KEY_STORAGE = 'pickupStaffKey';
/** The envelope code of a refused staff key (staffKeyInvalid). */
const KEY_REFUSED = 403;

type Result =
  { kind: 'ok'; pass: string; answer: PickupCheckInAnswer } | { kind: 'refused'; pass: string; message: string };

export default function PickupCheckInPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const [key, setKey] = useState(() => sessionStore.getItem(STAFF_KEY_STORAGE) ?? '');
  const [result, setResult] = useState<Result>();
  const forgetKey = () => {
    sessionStore.removeItem(STAFF_KEY_STORAGE);
    setKey('');
  };
  return (
    <div className="pickup-check" data-testid="pickup-check-in-page">
      <AntdScope>
        <h1 className="pickup-check__title">{t('centre.pickup.checkIn.title')}</h1>
        <p className="pickup-check__intro">{t('centre.pickup.checkIn.intro')}</p>
        {!raceId ? (
          <div className="centre-panel centre-panel--off">{t('centre.pickup.checkIn.noRace')}</div>
        ) : key ? (
          <>
            <PassForm
              raceId={raceId}
              staffKey={key}
              onResult={(next, keyRefused) => {
                setResult(next);
                if (keyRefused) forgetKey();
              }}
            />
            <Button
              type="link"
              className="pickup-check__change"
              onClick={forgetKey}
              data-testid="pickup-check-key-change"
            >
              {t('centre.pickup.checkIn.changeKey')}
            </Button>
          </>
        ) : (
          <KeyForm
            onKey={(typed) => {
              sessionStore.setItem(STAFF_KEY_STORAGE, typed);
              setKey(typed);
            }}
          />
        )}
        {result ? <ResultPanel result={result} /> : null}
      </AntdScope>
    </div>
  );
}

function KeyForm({ onKey }: { onKey: (key: string) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  return (
    <form
      className="pickup-check__form"
      onSubmit={(event) => {
        event.preventDefault();
        if (typed.trim()) onKey(typed.trim());
      }}
    >
      <label className="pickup-check__label" htmlFor="pickup-staff-key">
        {t('centre.pickup.checkIn.key')}
      </label>
      <div className="pickup-check__row">
        <Input.Password
          id="pickup-staff-key"
          size="large"
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          data-testid="pickup-check-key"
        />
        <Button type="primary" size="large" htmlType="submit" disabled={!typed.trim()} data-testid="pickup-check-start">
          {t('centre.pickup.checkIn.start')}
        </Button>
      </div>
    </form>
  );
}

function PassForm({
  raceId,
  staffKey,
  onResult,
}: {
  raceId: string;
  staffKey: string;
  onResult: (result: Result, keyRefused: boolean) => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef<InputRef>(null);
  useEffect(() => {
    if (!busy) input.current?.focus();
  }, [busy]);
  const submit = async () => {
    const pass = normalizePassCode(typed);
    if (!pass || busy) return;
    setBusy(true);
    try {
      const answer = await checkInPass(raceId, pass, staffKey);
      onResult({ kind: 'ok', pass, answer }, false);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      onResult({ kind: 'refused', pass, message }, error instanceof ApiError && error.code === KEY_REFUSED);
    } finally {
      setTyped('');
      setBusy(false);
    }
  };
  return (
    <form
      className="pickup-check__form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className="pickup-check__label" htmlFor="pickup-pass-code">
        {t('centre.pickup.checkIn.pass')}
      </label>
      <div className="pickup-check__row">
        <Input
          id="pickup-pass-code"
          ref={input}
          size="large"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder={t('centre.pickup.checkIn.passPlaceholder')}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          className="pickup-check__pass-input"
          data-testid="pickup-check-pass"
        />
        <Button type="primary" size="large" htmlType="submit" loading={busy} data-testid="pickup-check-submit">
          {t('centre.pickup.checkIn.submit')}
        </Button>
      </div>
    </form>
  );
}

function ResultPanel({ result }: { result: Result }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const raceTime = useRaceTime();
  const pass = /^[0-9A-Z]{10}$/.test(result.pass) ? formatPassCode(result.pass) : result.pass;
  if (result.kind === 'refused') {
    return (
      <section
        className="pickup-check__result pickup-check__result--refused"
        role="alert"
        data-testid="pickup-check-result"
      >
        <p className="pickup-check__verdict">{t('centre.pickup.checkIn.refused')}</p>
        <p className="pickup-check__reason" data-testid="pickup-check-reason">
          {result.message}
        </p>
        <p className="pickup-check__pass">{pass}</p>
      </section>
    );
  }
  const { answer } = result;
  const rows: [string, string][] = [
    [t('centre.pickup.checkIn.name'), answer.name],
    [t('centre.pickup.checkIn.cert'), answer.certificateNumber],
    [t('centre.pickup.checkIn.item'), pickLang(language, answer.itemName.zh, answer.itemName.en)],
    [t('centre.pickup.checkIn.bib'), answer.bib ?? t('centre.pickup.checkIn.noBib')],
    [t('centre.pickup.checkIn.slot'), answer.slot ? t('centre.pickup.checkIn.slotTimes', answer.slot) : answer.slotId],
    [t('centre.pickup.checkIn.entryNo'), answer.entryNo],
  ];
  return (
    <section className="pickup-check__result pickup-check__result--ok" role="status" data-testid="pickup-check-result">
      <p className="pickup-check__verdict">{t('centre.pickup.checkIn.ok')}</p>
      <dl className="pickup-check__holder">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="pickup-check__pass">
        {pass} · {raceTime(answer.collectedAt, 'YYYY-MM-DD HH:mm:ss')}
      </p>
    </section>
  );
}
