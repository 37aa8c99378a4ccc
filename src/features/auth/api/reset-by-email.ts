import { API_PATHS } from '#contract/api';
import { getEnv } from '@/config/env';
import { apiRequest } from '@/lib/api-client';
import { ENCRYPT_TYPE, encryptPassword } from '#contract/password-crypto';

export interface ResetByEmailInput {
  accountEmail: string;
  captcha: string;
  loginPassword: string;
  confirmPassword: string;
  verificationToken: string;
}

/** POST a new password proven by an email code; both passwords travel encrypted. */
export async function resetByEmail(input: ResetByEmailInput): Promise<void> {
  const key = getEnv().passwordKey;
  await apiRequest<unknown>({
    method: 'POST',
    url: API_PATHS.resetByEmail,
    data: {
      accountEmail: input.accountEmail.trim(),
      verificationToken: input.verificationToken,
      captcha: input.captcha.trim(),
      encryptType: ENCRYPT_TYPE,
      loginPassword: encryptPassword(input.loginPassword, key),
      confirmPassword: encryptPassword(input.confirmPassword, key),
    },
  });
}
