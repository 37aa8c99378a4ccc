import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';
import type { SliderPass } from '@/lib/captcha';

/** emailSendType: 1 registration, 2 password reset. */
export type SendEmailCodeInput = SliderPass & { accountEmail: string } & (
    { emailSendType: 1; cloudType: string } | { emailSendType: 2; raceAppBusinessType: number }
  );

export interface EmailCodeAnswer {
  captchaCode?: string;
  verificationToken: string;
}

/** POST captchaType '20': a registration or reset code by email. */
export async function sendEmailCode(input: SendEmailCodeInput): Promise<EmailCodeAnswer> {
  const envelope = await apiRequest<EmailCodeAnswer>({
    method: 'POST',
    url: API_PATHS.sendEmailCode,
    data: { captchaType: '20', ...input },
  });
  return envelope.data;
}
