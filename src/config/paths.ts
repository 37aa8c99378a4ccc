/** Every built-in route path of the SPA in one place (spec §2 "Main routes under layout root /"). */
export const PATHS = {
  root: '/',
  home: '/home',
  registrationSearch: '/registration-search',
  scoreSearch: '/score-search',
  pbSearch: '/pb-search',
  multipleScoreSearch: '/multiple-score-search',
  imageSearch: '/image-search',
  certificateVerify: '/certificate',
  videoCollection: '/video-collection',
  imageCollection: '/image-collection',
  // Top-level routes outside the site layout (spec §2): the registration screens and the language helper.
  upload: '/upload',
  direct: '/direct',
  post: '/post',
  confirm: '/confirm',
  i18NDemos: '/i18NDemos',
} as const;

/** Path of the personal centre inside the registration area. */
export const REG_AREA_MY_INDEX = 'reg/#/my/my-index';
