import { API_PATHS } from '#contract/api';
import { getEnv } from '@/config/env';
import { apiRequest } from '@/lib/api-client';
import { ENCRYPT_TYPE, encryptPassword } from '#contract/password-crypto';

export interface ResetByPhoneInput {
  phone: string;
  captcha: string;
  loginPassword: string;
  confirmPassword: string;
  verificationToken: string;
}

/** POST a new password proven by an SMS code; both passwords travel encrypted, enterprise 0. */
export async function resetByPhone(input: ResetByPhoneInput): Promise<void> {
  const key = getEnv().passwordKey;
  await apiRequest<unknown>({
    method: 'POST',
    url: API_PATHS.resetByPhone,
    data: {
      phone: input.phone.trim(),
      loginPassword: encryptPassword(input.loginPassword, key),
      confirmPassword: encryptPassword(input.confirmPassword, key),
      encryptType: ENCRYPT_TYPE,
      enterprise: 0,
      verificationToken: input.verificationToken,
      captcha: input.captcha.trim(),
    },
  });
}
