/**
 * The human check (spec §4, §7 "Captcha") before a code is sent or a registration is looked up for confirmation: drag the handle (the piece, pieceWidth px) along the trackWidth px
 * track onto the marked spot. The drop position x (the piece's left edge, 0…trackWidth − pieceWidth; the
 * mark is drawn at targetX the same way) and the drag's trail ([ms since the press, x] pairs) go to the
 * verify call; code 0 passes, anything else loads a new challenge. The handle also moves with the arrow
 * keys (Shift: bigger steps) and drops with Enter; its value text tells how far the mark is, so a
 * screen-reader user can pass it too.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCaptchaChallenge, verifyCaptcha, type CaptchaChallenge, type SliderPass } from '@/lib/captcha';
import './slider-captcha.css';

type Phase = 'loading' | 'ready' | 'dragging' | 'checking' | 'passed' | 'failed' | 'error';

const DEFAULT_PIECE = 40;

export function SliderCaptcha({ onPass }: { onPass: (pass: SliderPass) => void }) {
  const { t } = useTranslation();
  const [challenge, setChallenge] = useState<CaptchaChallenge | null>(null);
  const [phase, setPhase] = useState<Phase>('loading');
  const [x, setX] = useState(0);
  const drag = useRef<{ startClient: number; startX: number; t0: number; trail: [number, number][] } | null>(null);
  const xRef = useRef(0);
  const retryTimer = useRef<number | undefined>(undefined);

  const fetchChallenge = useCallback(
    () =>
      getCaptchaChallenge()
        .then((c) => {
          setChallenge(c);
          setPhase('ready');
        })
        .catch(() => setPhase('error')),
    [],
  );

  /** A new challenge after a failed drop or a failed load. */
  const load = useCallback(() => {
    setPhase('loading');
    setX(0);
    xRef.current = 0;
    drag.current = null;
    void fetchChallenge();
  }, [fetchChallenge]);

  useEffect(() => {
    void fetchChallenge();
    return () => window.clearTimeout(retryTimer.current);
  }, [fetchChallenge]);

  const width = challenge?.trackWidth ?? 300;
  const piece = challenge?.pieceWidth ?? DEFAULT_PIECE;
  const maxX = Math.max(0, width - piece);
  const clamp = (value: number) => Math.min(maxX, Math.max(0, Math.round(value)));

  const move = (to: number) => {
    const next = clamp(to);
    xRef.current = next;
    setX(next);
    drag.current?.trail.push([Date.now() - drag.current.t0, next]);
  };

  const begin = (clientX: number) => {
    if (phase !== 'ready' || !challenge) return false;
    drag.current = { startClient: clientX, startX: xRef.current, t0: Date.now(), trail: [[0, xRef.current]] };
    setPhase('dragging');
    return true;
  };

  const release = useCallback(async () => {
    const current = drag.current;
    if (!current || !challenge) return;
    drag.current = null;
    setPhase('checking');
    try {
      const pass = await verifyCaptcha({ sessionId: challenge.sessionId, x: xRef.current, trail: current.trail });
      setPhase('passed');
      onPass({ nc_token: pass.token, sig: pass.sig, sessionId: pass.sessionId, scene: pass.scene });
    } catch {
      setPhase('failed');
      retryTimer.current = window.setTimeout(load, 1000);
    }
  }, [challenge, load, onPass]);

  const onMouseDown = (event: React.MouseEvent) => {
    if (event.button !== 0 || !begin(event.clientX)) return;
    event.preventDefault();
    const onMove = (e: MouseEvent) => drag.current && move(drag.current.startX + e.clientX - drag.current.startClient);
    const onUp = () => {
      document.removeEventListener('mousemove', onMove);
      document.removeEventListener('mouseup', onUp);
      void release();
    };
    document.addEventListener('mousemove', onMove);
    document.addEventListener('mouseup', onUp);
  };

  const onTouchStart = (event: React.TouchEvent) => {
    const touch = event.touches[0];
    if (!touch || !begin(touch.clientX)) return;
    const onMove = (e: TouchEvent) => {
      const p = e.touches[0];
      if (p && drag.current) move(drag.current.startX + p.clientX - drag.current.startClient);
    };
    const onEnd = () => {
      document.removeEventListener('touchmove', onMove);
      document.removeEventListener('touchend', onEnd);
      void release();
    };
    document.addEventListener('touchmove', onMove, { passive: true });
    document.addEventListener('touchend', onEnd);
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    const step = event.shiftKey ? 20 : 4;
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      if (phase === 'ready') begin(0);
      if (phase === 'ready' || phase === 'dragging') move(xRef.current + (event.key === 'ArrowRight' ? step : -step));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      // A drop without a move is sent too: the server judges it (and a failed try loads a new challenge).
      if (phase === 'ready') begin(0);
      if (phase === 'ready' || phase === 'dragging') void release();
    }
  };

  // Where the mark is, for screen-reader users: the same information the drawn mark gives by sight (the
  // target is part of the challenge the browser receives). The server still checks the drop and the trail.
  const distance = challenge ? challenge.targetX - x : 0;
  const position = !challenge
    ? undefined
    : Math.abs(distance) <= challenge.tolerance
      ? t('form.slider.position.onMark')
      : t(distance > 0 ? 'form.slider.position.toRight' : 'form.slider.position.toLeft', { count: Math.abs(distance) });

  const status =
    phase === 'checking'
      ? t('form.slider.checking')
      : phase === 'passed'
        ? t('form.slider.passed')
        : phase === 'failed'
          ? t('form.slider.failed')
          : phase === 'error'
            ? t('form.slider.loadFailed')
            : t('form.slider.hint');

  return (
    <div className={`slider-captcha slider-captcha--${phase}`} data-testid="slider-captcha" data-phase={phase}>
      <div className="slider-captcha__label">{t('form.slider.label')}</div>
      <div className="slider-captcha__track" style={{ width }} data-testid="slider-track">
        <div className="slider-captcha__fill" style={{ width: x + piece / 2 }} />
        {challenge ? (
          <div
            className="slider-captcha__target"
            style={{ left: challenge.targetX, width: piece }}
            data-testid="slider-target"
            aria-hidden="true"
          />
        ) : null}
        <div
          role="slider"
          tabIndex={phase === 'ready' || phase === 'dragging' ? 0 : -1}
          aria-label={t('form.slider.handle')}
          aria-valuemin={0}
          aria-valuemax={maxX}
          aria-valuenow={x}
          aria-valuetext={position}
          aria-disabled={phase !== 'ready' && phase !== 'dragging'}
          className="slider-captcha__handle"
          style={{ left: x, width: piece }}
          data-testid="slider-handle"
          onMouseDown={onMouseDown}
          onTouchStart={onTouchStart}
          onKeyDown={onKeyDown}
        >
          <span aria-hidden="true">{phase === 'passed' ? '✓' : '»'}</span>
        </div>
      </div>
      <div className="slider-captcha__status" role="status">
        {status}
        {phase === 'error' ? (
          <button type="button" className="slider-captcha__retry" onClick={load}>
            {t('form.slider.retry')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
