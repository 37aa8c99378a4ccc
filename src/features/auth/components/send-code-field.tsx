/**
 * The verification-code field of the drawer's forms (the shared CodeField) with its send button (spec §4
 * send-code states): idle → (valid phone or email) slider check → passed → code sent → 60 s countdown →
 * "get code again". Pressing send while the slider is shown but not passed warns; a failed send (the api
 * client toasts the server's message) goes back to idle.
 */
import { useState } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { CodeField } from '@/components/form/code-field';
import { notify } from '@/lib/notify';
import { useCountdown } from '../hooks/use-countdown';
import type { SliderPass } from '@/lib/captcha';
import { SliderCaptcha } from '@/components/captcha/slider-captcha';

export const RESEND_SECONDS = 60;

type Stage = 'idle' | 'slider' | 'sending' | 'sent';

export interface SendCodeFieldProps {
  /** Validates the phone or email field; resolves with its value, or null when it is not valid. */
  target: () => Promise<string | null>;
  /** Sends the code once the slider has passed. */
  send: (pass: SliderPass, target: string) => Promise<void>;
}

export function SendCodeField({ target, send }: SendCodeFieldProps) {
  const { t } = useTranslation();
  const [stage, setStage] = useState<Stage>('idle');
  const countdown = useCountdown();

  const onClick = async () => {
    if (countdown.running || stage === 'sending') return;
    if (stage === 'slider') {
      notify.warning(t('messages.slideFirst'));
      return;
    }
    if (await target()) setStage('slider');
  };

  const onPass = async (pass: SliderPass) => {
    setStage('sending');
    try {
      // Read the address again: it may have been edited while the slider was shown.
      const address = await target();
      if (!address) {
        setStage('idle');
        return;
      }
      await send(pass, address);
      countdown.start(RESEND_SECONDS);
      setStage('sent');
    } catch {
      setStage('idle');
    }
  };

  const label = countdown.running
    ? t('auth.code.countdown', { count: countdown.left })
    : stage === 'sending'
      ? t('auth.code.sending')
      : stage === 'sent'
        ? t('auth.code.again')
        : t('auth.code.get');

  return (
    <>
      <CodeField
        label={t('auth.fields.captcha')}
        placeholder={t('auth.placeholders.captcha')}
        action={
          <Button
            className="auth-code-button"
            data-testid="send-code"
            disabled={countdown.running || stage === 'sending'}
            onClick={() => void onClick()}
          >
            {label}
          </Button>
        }
      />
      {stage === 'slider' || stage === 'sending' ? (
        <div className="auth-slider-row">
          <SliderCaptcha onPass={(pass) => void onPass(pass)} />
        </div>
      ) : null}
    </>
  );
}
