import { API_PATHS } from '#contract/api';
import { getEnv } from '@/config/env';
import { apiRequest, OS_ID } from '@/lib/api-client';
import { ENCRYPT_TYPE, encryptPassword } from '#contract/password-crypto';
import type { UserData } from '@/lib/user-data';

/** Login types of spec §4: 1 phone + code, 0 phone + password, 5 email + password. */
export type LoginInput =
  | { loginType: '1'; phone: string; captcha: string }
  | { loginType: '0'; phone: string; password: string }
  | { loginType: '5'; accountEmail: string; password: string };

/** The form-encoded body of the login call (spec §7). Passwords travel encrypted (encryptType '1'). */
export function loginBody(input: LoginInput): URLSearchParams {
  const body = new URLSearchParams({ osId: OS_ID, loginType: input.loginType });
  if (input.loginType === '1') {
    body.set('phone', input.phone.trim());
    body.set('captcha', input.captcha.trim());
    return body;
  }
  if (input.loginType === '0') body.set('phone', input.phone.trim());
  else body.set('accountEmail', input.accountEmail.trim());
  body.set('password', encryptPassword(input.password, getEnv().passwordKey));
  body.set('encryptType', ENCRYPT_TYPE);
  return body;
}

/** POST login → the user data (token included). A refusal shows the server's message (spec §8). */
export async function login(input: LoginInput): Promise<UserData> {
  const envelope = await apiRequest<UserData>({ method: 'POST', url: API_PATHS.login, data: loginBody(input) });
  return envelope.data;
}
