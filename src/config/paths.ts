import { BALLOT_PAGE_ROUTE } from '#contract/console-ballot';

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
  // Sign-up and the personal centre (issue #14): reached at reg/#/… (the registration area, served by the
  // same build) and in the site itself. Each needs login except the public ballot page.
  signUp: '/my/signup',
  myIndex: '/my/my-index',
  /** One order: its lines, the pay button and, back from the cashier, the payment result. */
  order: '/my/order/:orderNo',
  profile: '/my/profile',
  password: '/my/password',
  /** The public ballot page: commitment, seed, entry list, winners, and a check in the browser. */
  ballot: BALLOT_PAGE_ROUTE,
  // After entry (issue #15): the personal centre's services; `?entryNo=` preselects a registration.
  letter: '/my/letter',
  pickup: '/my/pickup',
  participants: '/my/participants',
  refund: '/my/refund',
  /** The pick-up staff's check-in screen (a staff key, not a runner's login). */
  pickupCheckIn: '/pickup-check-in',
} as const;

/** Path of the personal centre inside the registration area. */
export const REG_AREA_MY_INDEX = 'reg/#/my/my-index';
