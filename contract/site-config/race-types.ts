/** Race binding and race base information (spec §3 "Race information", "Race binding"). */
import type {
  DirectApplicationSettings,
  DocumentUploadSettings,
  PackMailingSettings,
} from '#contract/registration-screens';
import type { EntrySettings } from '#contract/entry';
import type { CommitmentLetterSettings, PackPickupSettings } from '#contract/after-entry';

export interface RaceBinding {
  raceId: string;
  domainName: string;
}

/** Dates are 'YYYY-MM-DD HH:mm:ss' in the race's local time: `timeZone`, else China Standard Time. */
export interface RaceInfo {
  raceId: string;
  raceName: string;
  raceNameEn?: string;
  auditStatus?: number;
  cityId?: string;
  contactName?: string;
  contactPhone?: string;
  createUser?: string;
  detailAddress?: string;
  districtId?: string;
  startTime?: string;
  endTime?: string;
  /** Comma-separated image URLs of the race (poster first, then the route map). */
  imgDetail?: string;
  itemTimeSetting?: string;
  organizationId?: string;
  progressStatus?: number;
  provinceId?: string;
  raceCategoryId?: string;
  raceFeatures?: string;
  raceItemTypeName?: string;
  raceStatus?: number;
  signUpStartTime?: string;
  signUpEndTime?: string;
  showSignUpStartTime?: string;
  showSignUpEndTime?: string;
  signUpMaxNumber?: number;
  signUpOpenStatus?: number;
  signUpUrl?: string;
  submitStatus?: number;
  /** IANA zone of the race's times (e.g. 'Europe/London'); Asia/Shanghai when absent (src/lib/time-zone.ts). */
  timeZone?: string;
  updateUser?: string;
  /** The direct-pass application window (/direct; contract/registration-screens.ts). */
  directApplication?: DirectApplicationSettings;
  /** Race-pack mailing instead of pick-up (/post). */
  packMailing?: PackMailingSettings;
  /** Documents the runners hand in (/upload). */
  documentUpload?: DocumentUploadSettings;
  /** Sign-up: items, entry models and channels (contract/entry.ts; issue 14). */
  entry?: EntrySettings;
  /** The electronic commitment letter (contract/after-entry.ts; issue 15). */
  commitmentLetter?: CommitmentLetterSettings;
  /** Pack pick-up days, slots and who may book (contract/after-entry.ts; issue 15). */
  packPickup?: PackPickupSettings;
}

export interface SiteConfigLookup {
  domainName: string;
  fileMd5: string;
  uri: string;
}

/** One country of the ISO list (spec §3 "Country item"). */
export interface CountryItem {
  id: number;
  twoCode: string;
  threeCode: string;
  numberCode: string;
  cnName: string;
  enName: string;
  dictCode: 'country';
  itemName: string;
  itemCode: string;
  itemSort: number;
}

/** The cloud config index served at /config/cz/. */
export interface CloudConfigIndex {
  /** aliyun | huoshanyun | tencentyun */
  cloudType: string;
  fileHost?: string;
  imageHost?: string;
  updatedAt?: string;
}

/** A translation file: key → { en, zh }. */
export type TranslationFile = Record<string, { en: string; zh: string }>;

/** The response envelope of every call (spec §7). */
/** The order labels of a registration (spec §3 "Order labels"), in their order. */
export const ORDER_FIELDS = [
  'orderNo',
  'subOrderNo',
  'createTime',
  'serialNo',
  'payTime',
  'amountPaid',
  'orderAmount',
  'coupon',
  'discount',
] as const;
