/**
 * Every path of the API contract (spec §7), shared by the SPA and the reference server so that the two
 * can never drift apart. Paths the spec hides are fixed here; an organiser's own API implements the same.
 */
export const API_PATHS = {
  /** GET ?domainName= → { domainName, fileMd5, uri }; `uri` is then fetched as the site configuration. */
  siteConfigLookup: '/website-centre/api/website/config',
  /** GET ?domainName= → { raceId, domainName }, or data null when no race is bound to the domain. */
  raceByDomain: '/website-centre/api/website/race-binding',
  /** POST { raceId } → race base information (imgDetail etc.). */
  raceBaseInfo: '/website-centre/api/race/base-info',
  /** POST {} with the token header → code 0 when the token is valid. */
  commonInfo: '/changzheng-basic-center-api/api/common/getCommonInfo',
  /** GET ?t= → the cloud config index (storage provider and hosts). */
  cloudConfigIndex: '/config/cz/',
  /** GET ?t= → a translation file: map key → { en, zh }. */
  translationsPrefix: '/config/i18n/',
  /** GET → every country of the ISO list (dictCode 'country'). */
  countryList: '/changzheng-basic-center-api/api/iso/country/listAll',
  /** Published site-configuration documents are served below this prefix, by MD5. */
  siteConfigFilesPrefix: '/website-centre/files/site-config/',
  /** User-centre image upload, and the two base uploads. */
  uploadImageUserCentre: '/pangu-uc/uc/api/user/upload/image',
  uploadImage: '/api/base/uploadImage',
  uploadFile: '/api/base/uploadFile',
  /** Uploaded and demo files are served below this prefix (the default file host of the bundled server). */
  filesPrefix: '/files/',
} as const;

/** Path prefixes that belong to the API (used by the dev proxy and by the server's SPA fallback). */
export const API_PREFIXES = [
  '/website-centre',
  '/changzheng-basic-center-api',
  '/config',
  '/user-center',
  '/pangu-uc',
  '/api',
  '/files',
  '/dev',
] as const;

export const translationsPath = (name: string) => `${API_PATHS.translationsPrefix}${encodeURIComponent(name)}`;
