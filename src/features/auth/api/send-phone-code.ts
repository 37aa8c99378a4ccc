import { API_PATHS } from '#contract/api';
import { apiRequest } from '@/lib/api-client';
import type { SliderPass } from '@/lib/captcha';

export interface SendPhoneCodeInput extends SliderPass {
  userPhone: string;
  raceAppBusinessType: number;
  cloudType: string;
}

/** POST captchaType '2': the login code by SMS (answer not used). */
export async function sendPhoneCode(input: SendPhoneCodeInput): Promise<void> {
  await apiRequest<unknown>({ method: 'POST', url: API_PATHS.sendPhoneCode, data: { captchaType: '2', ...input } });
}
