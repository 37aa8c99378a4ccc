import { API_PATHS } from '#contract/api';
import { getEnv } from '@/config/env';
import { apiRequest } from '@/lib/api-client';
import { ENCRYPT_TYPE, encryptPassword } from '#contract/password-crypto';

export interface RegisterInput {
  accountEmail: string;
  captcha: string;
  loginPassword: string;
  verificationToken: string;
}

/** POST the email registration; the password travels encrypted, machineCode is empty (spec §7). */
export async function register(input: RegisterInput): Promise<void> {
  await apiRequest<unknown>({
    method: 'POST',
    url: API_PATHS.register,
    data: {
      accountEmail: input.accountEmail.trim(),
      captcha: input.captcha.trim(),
      loginPassword: encryptPassword(input.loginPassword, getEnv().passwordKey),
      encryptType: ENCRYPT_TYPE,
      verificationToken: input.verificationToken,
      machineCode: '',
    },
  });
}
