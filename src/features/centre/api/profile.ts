import { API_PATHS } from '#contract/api';
import type { PasswordChangeRequest, ProfileSaveRequest } from '#contract/entry';
import { ENCRYPT_TYPE, encryptPassword } from '#contract/password-crypto';
import { getEnv } from '@/config/env';
import { apiRequest } from '@/lib/api-client';
import type { UserData } from '@/lib/user-data';

/** The userInfo of a profile answer (spec §3 userInfo; the card number comes masked). */
export interface ProfileUserInfo {
  userName?: string;
  userGender?: number;
  birthday?: string;
  userEmail?: string;
  userHeight?: number;
  userWeight?: number;
  educationLevel?: string;
  graduateInstitution?: string;
  major?: string;
  residentialProvinceCode?: string;
  residentialCityCode?: string;
  residentialDistrictCode?: string;
  residentialAddress?: string;
  cardType?: number | '';
  cardNumber?: string;
  userPhone?: string;
  userAge?: number;
}

export type ProfileAnswer = UserData & { userInfo?: ProfileUserInfo };

/** GET the account's userData with the saved profile. */
export async function getProfile(): Promise<ProfileAnswer> {
  const envelope = await apiRequest<ProfileAnswer>({ method: 'GET', url: API_PATHS.profile, silent: 'answers' });
  return envelope.data;
}

/** POST the edited fields; field refusals come back as an ApiError with `data.fields`. */
export async function saveProfile(request: ProfileSaveRequest): Promise<ProfileAnswer> {
  const envelope = await apiRequest<ProfileAnswer>({
    method: 'POST',
    url: API_PATHS.profile,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}

/** POST the password change, each password encrypted like the login's (encryptType '1'). */
export async function changePassword(input: {
  oldPassword: string;
  loginPassword: string;
  confirmPassword: string;
}): Promise<void> {
  const key = getEnv().passwordKey;
  const data: PasswordChangeRequest = {
    oldPassword: encryptPassword(input.oldPassword, key),
    loginPassword: encryptPassword(input.loginPassword, key),
    confirmPassword: encryptPassword(input.confirmPassword, key),
    encryptType: ENCRYPT_TYPE,
  };
  await apiRequest<unknown>({ method: 'POST', url: API_PATHS.passwordChange, data, silent: 'answers' });
}
