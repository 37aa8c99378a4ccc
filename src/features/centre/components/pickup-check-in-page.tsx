/**
 * The staff's pack pick-up check-in screen (issue 15 §2; PATHS.pickupCheckIn, a hidden page of the site, no
 * runner login): the staff key the organiser issued (`site staff-key-issue`) is typed once and kept for the
 * browser session; then each pass code is typed or scanned (a keyboard-wedge scanner types the code and
 * Enter) and the answer shows big: the holder (name, masked certificate, item, bib, the slot's day and times) to hand the pack
 * over, or the refusal (already collected at …, unknown pass). A pass shown outside its booked day and slot
 * gets a warning (booked for …, now …) and is handed over only when staff confirm. The key is checked when it
 * is typed and when the screen opens with a kept one, before any scan; a refused key is forgotten and said so.
 */
import { Button, Input, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatPassCode,
  normalizePassCode,
  type PickupCheckInAnswer,
  type PickupOutsideSlot,
} from '#contract/after-entry';
import { AntdScope } from '@/components/ui/antd-scope';
import { ApiError } from '@/lib/api-client';
import { pickLang } from '@/lib/pick-lang';
import { useRaceId } from '@/lib/use-race-id';
import { useRaceTime } from '@/lib/use-race-time';
import { sessionStore } from '@/lib/storage';
import { useAppStore } from '@/stores/app-store';
import { checkInPass, checkStaffKey } from '../api/pickup';
import '../pickup.css';

/** Where the staff key is kept for the browser session. */
export const STAFF_KEY_STORAGE = 'pickupStaffKey';
/** The envelope code of a refused staff key (staffKeyInvalid). */
const KEY_REFUSED = 403;

type Result =
  | { kind: 'ok'; pass: string; answer: PickupCheckInAnswer }
  | { kind: 'refused'; pass: string; message: string }
  | { kind: 'outside'; pass: string; outside: PickupOutsideSlot };

/** The data of a pickupOutsideSlot refusal, or undefined for any other. */
function outsideSlotOf(error: unknown): PickupOutsideSlot | undefined {
  if (!(error instanceof ApiError) || error.code !== 409) return undefined;
  const data = error.data as Partial<PickupOutsideSlot> | null | undefined;
  return data && typeof data.slotId === 'string' && typeof data.now === 'string'
    ? (data as PickupOutsideSlot)
    : undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export default function PickupCheckInPage() {
  const { t } = useTranslation();
  const raceId = useRaceId();
  const [key, setKey] = useState(() => sessionStore.getItem(STAFF_KEY_STORAGE) ?? '');
  // A kept key is checked when the screen opens; a typed one before it is kept.
  const [keyState, setKeyState] = useState<'checking' | 'good'>(key ? 'checking' : 'good');
  const [keyError, setKeyError] = useState<string>();
  const [result, setResult] = useState<Result>();
  const [busy, setBusy] = useState(false);
  const forgetKey = (error?: string) => {
    sessionStore.removeItem(STAFF_KEY_STORAGE);
    setKey('');
    setKeyState('good');
    setKeyError(error);
  };

  useEffect(() => {
    if (!raceId || !key || keyState !== 'checking') return;
    let live = true;
    checkStaffKey(raceId, key).then(
      () => live && setKeyState('good'),
      (error: unknown) => {
        if (!live) return;
        if (error instanceof ApiError && error.code === KEY_REFUSED) forgetKey(messageOf(error));
        // Not reachable now: the first scan will say what is wrong.
        else setKeyState('good');
      },
    );
    return () => {
      live = false;
    };
  }, [raceId, key, keyState]);

  const check = async (pass: string, confirmed = false) => {
    if (!raceId || busy) return;
    setBusy(true);
    try {
      const answer = await checkInPass(raceId, pass, key, confirmed);
      setResult({ kind: 'ok', pass, answer });
    } catch (error) {
      const outside = confirmed ? undefined : outsideSlotOf(error);
      setResult(outside ? { kind: 'outside', pass, outside } : { kind: 'refused', pass, message: messageOf(error) });
      if (error instanceof ApiError && error.code === KEY_REFUSED) forgetKey(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="pickup-check" data-testid="pickup-check-in-page">
      <AntdScope>
        <h1 className="pickup-check__title">{t('centre.pickup.checkIn.title')}</h1>
        <p className="pickup-check__intro">{t('centre.pickup.checkIn.intro')}</p>
        {!raceId ? (
          <div className="centre-panel centre-panel--off">{t('centre.pickup.checkIn.noRace')}</div>
        ) : key && keyState === 'checking' ? (
          <p className="pickup-check__label" role="status" data-testid="pickup-check-key-checking">
            {t('centre.pickup.checkIn.keyChecking')}
          </p>
        ) : key ? (
          <>
            <PassForm busy={busy} onPass={(pass) => void check(pass)} />
            <Button
              type="link"
              className="pickup-check__change"
              onClick={() => forgetKey()}
              data-testid="pickup-check-key-change"
            >
              {t('centre.pickup.checkIn.changeKey')}
            </Button>
          </>
        ) : (
          <KeyForm
            raceId={raceId}
            error={keyError}
            onError={setKeyError}
            onKey={(typed) => {
              sessionStore.setItem(STAFF_KEY_STORAGE, typed);
              setKeyError(undefined);
              setResult(undefined);
              setKeyState('good');
              setKey(typed);
            }}
          />
        )}
        {result ? (
          <ResultPanel
            result={result}
            busy={busy}
            onConfirm={(pass) => void check(pass, true)}
            onDismiss={() => setResult(undefined)}
          />
        ) : null}
      </AntdScope>
    </div>
  );
}

function KeyForm({
  raceId,
  error,
  onError,
  onKey,
}: {
  raceId: string;
  error: string | undefined;
  onError: (error: string | undefined) => void;
  onKey: (key: string) => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [checking, setChecking] = useState(false);
  const submit = async () => {
    const key = typed.trim();
    if (!key || checking) return;
    setChecking(true);
    onError(undefined);
    try {
      await checkStaffKey(raceId, key);
      onKey(key);
    } catch (refusal) {
      onError(messageOf(refusal));
    } finally {
      setChecking(false);
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
      <label className="pickup-check__label" htmlFor="pickup-staff-key">
        {t('centre.pickup.checkIn.key')}
      </label>
      <div className="pickup-check__row">
        <Input.Password
          id="pickup-staff-key"
          size="large"
          autoComplete="off"
          value={typed}
          status={error ? 'error' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'pickup-staff-key-error' : undefined}
          onChange={(event) => setTyped(event.target.value)}
          data-testid="pickup-check-key"
        />
        <Button
          type="primary"
          size="large"
          htmlType="submit"
          loading={checking}
          disabled={!typed.trim()}
          data-testid="pickup-check-start"
        >
          {t('centre.pickup.checkIn.start')}
        </Button>
      </div>
      {error ? (
        <p
          id="pickup-staff-key-error"
          className="pickup-check__key-error"
          role="alert"
          data-testid="pickup-check-key-error"
        >
          {error}
        </p>
      ) : null}
    </form>
  );
}

function PassForm({ busy, onPass }: { busy: boolean; onPass: (pass: string) => void }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const input = useRef<InputRef>(null);
  useEffect(() => {
    if (!busy) input.current?.focus();
  }, [busy]);
  const submit = () => {
    const pass = normalizePassCode(typed);
    if (!pass || busy) return;
    setTyped('');
    onPass(pass);
  };
  return (
    <form
      className="pickup-check__form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
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

function ResultPanel({
  result,
  busy,
  onConfirm,
  onDismiss,
}: {
  result: Result;
  busy: boolean;
  onConfirm: (pass: string) => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const raceTime = useRaceTime();
  const pass = /^[0-9A-Z]{10}$/.test(result.pass) ? formatPassCode(result.pass) : result.pass;
  const slotLine = (slotId: string, slot: PickupCheckInAnswer['slot']) =>
    slot ? t('centre.pickup.checkIn.slotTimes', slot) : slotId;
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
  if (result.kind === 'outside') {
    const { outside } = result;
    return (
      <section
        className="pickup-check__result pickup-check__result--outside"
        role="alert"
        data-testid="pickup-check-result"
        data-kind="outside"
      >
        <p className="pickup-check__verdict">{t('centre.pickup.checkIn.outside')}</p>
        <dl className="pickup-check__holder">
          <div>
            <dt>{t('centre.pickup.checkIn.slot')}</dt>
            <dd data-testid="pickup-check-outside-slot">{slotLine(outside.slotId, outside.slot)}</dd>
          </div>
          <div>
            <dt>{t('centre.pickup.checkIn.now')}</dt>
            <dd data-testid="pickup-check-outside-now">{outside.now}</dd>
          </div>
        </dl>
        <p className="pickup-check__reason">{t('centre.pickup.checkIn.outsideAsk')}</p>
        <div className="pickup-check__row">
          <Button
            type="primary"
            size="large"
            loading={busy}
            onClick={() => onConfirm(result.pass)}
            data-testid="pickup-check-confirm"
          >
            {t('centre.pickup.checkIn.confirmAnyway')}
          </Button>
          <Button size="large" onClick={onDismiss} data-testid="pickup-check-dismiss">
            {t('centre.pickup.checkIn.dismiss')}
          </Button>
        </div>
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
    [t('centre.pickup.checkIn.slot'), slotLine(answer.slotId, answer.slot)],
    [t('centre.pickup.checkIn.entryNo'), answer.entryNo],
  ];
  return (
    <section className="pickup-check__result pickup-check__result--ok" role="status" data-testid="pickup-check-result">
      <p className="pickup-check__verdict">{t('centre.pickup.checkIn.ok')}</p>
      {answer.outsideSlot ? (
        <p className="pickup-check__reason" data-testid="pickup-check-outside-note">
          {t('centre.pickup.checkIn.outsideDone')}
        </p>
      ) : null}
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
