/**
 * The user data of a login answer (spec §3 "User data"). Phone and email are masked; the password field
 * is always empty.
 */
import type { UserRecord } from '../../db/users-repository.ts';
import { maskEmail, maskPhone } from '../../lib/accounts.ts';

export const OS_ID = 1002;

/**
 * The personal centre's saved profile (routes/user-center/profile.ts), merged over userInfo's defaults: the
 * fields the runner saved, the real-name card type and its number masked, the age from the birthday.
 */
export interface UserInfoProfile {
  fields: Record<string, unknown>;
  cardType: number | null;
  maskedCardNumber: string;
  userAge: number;
}

export function userData(user: UserRecord, token: string, loginType: number, profile?: UserInfoProfile) {
  const phone = user.phone === null ? '' : maskPhone(user.phone);
  const email = user.email === null ? '' : maskEmail(user.email);
  const username = phone || email;
  const userId = user.id;
  return {
    accountInfo: {
      accountIcon: '',
      accountId: userId,
      accountNick: username,
      accountNo: String(userId),
      accountPhone: phone,
      accountStatus: 1,
      accountType: 1,
      extendInfo: '',
      grantSource: '',
      imUserName: '',
      imUserPassword: '',
      introduction: '',
      loginType,
      organizationId: '',
      osCode: '',
      osId: OS_ID,
      osName: '',
      signAuthed: false,
      thirdInfo: [],
      userId,
    },
    accountNonExpired: true,
    accountNonLocked: true,
    authorities: [],
    credentialsNonExpired: true,
    enabled: true,
    loginIdentityType: loginType,
    osId: OS_ID,
    password: '',
    token,
    username,
    userInfo: {
      authed: false,
      birthday: '',
      cardNumber: '',
      cardOriginalImg: '',
      cardType: '',
      educationLevel: '',
      extendInfo: '',
      graduateInstitution: '',
      major: '',
      realNameAuthedAuditStatus: 0,
      residentialAddress: '',
      residentialCityCode: '',
      residentialDistrictCode: '',
      residentialProvinceCode: '',
      userAge: 0,
      userEmail: email,
      userGender: 0,
      userHeight: 0,
      userIcon: '',
      userId,
      userName: '',
      userPhone: phone,
      userWeight: 0,
      ...(profile
        ? {
            ...profile.fields,
            cardType: profile.cardType ?? '',
            cardNumber: profile.maskedCardNumber,
            userAge: profile.userAge,
          }
        : {}),
    },
  };
}
