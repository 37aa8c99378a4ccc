import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';
import type { SliderPass } from '@/lib/captcha';

export interface SendResetPhoneCodeInput extends SliderPass {
  userPhone: string;
  raceAppBusinessType: number;
  cloudType: string;
}

/** POST captchaType '3': the password-reset code by SMS → verificationToken. */
export async function sendResetPhoneCode(input: SendResetPhoneCodeInput): Promise<{ verificationToken: string }> {
  const envelope = await apiRequest<{ verificationToken: string }>({
    method: 'POST',
    url: API_PATHS.sendResetPhoneCode,
    data: { captchaType: '3', ...input },
  });
  return envelope.data;
}
