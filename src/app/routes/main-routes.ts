/**
 * Built-in routes (spec §2): under the layout root ("Main routes under layout root /") and the top-level
 * screens outside it.
 */
import { PATHS } from '@/config/paths';
import type { TopLevelPageName } from './page-registry';
import type { FlatRoute } from './route-model';

const hidden = (
  name: string,
  component: string,
  path: string,
  title: string,
  titleEn: string,
  requiresAuth = false,
): FlatRoute => ({
  kind: 'page',
  path,
  component,
  handle: {
    name,
    title,
    titleEn,
    component,
    hidden: true,
    activeMenu: PATHS.home,
    layout: 'site',
    ...(requiresAuth ? { requiresAuth } : {}),
  },
});

/** A page of the personal centre: hidden, needs login, and lights no menu item (it is not under Home). */
const centre = (name: string, component: string, path: string, title: string, titleEn: string): FlatRoute => {
  const route = hidden(name, component, path, title, titleEn, true);
  return { ...route, handle: { ...route.handle, activeMenu: undefined } };
};

export const HOME_ROUTE: FlatRoute = {
  kind: 'page',
  path: PATHS.home,
  component: 'Home',
  handle: { name: 'home', title: '首页', titleEn: 'Home', component: 'Home', layout: 'site' },
};

/** The search pages: hidden from the menu, they highlight Home. Registered once their module exists. */
export const HIDDEN_MAIN_ROUTES: FlatRoute[] = [
  hidden('registrationSearch', 'RegistrationSearch', PATHS.registrationSearch, '报名查询', 'Registration Search'),
  hidden('scoreSearch', 'ScoreSearch', PATHS.scoreSearch, '成绩查询', 'Score Search'),
  hidden('pbSearch', 'PbSearch', PATHS.pbSearch, '个人最好成绩', 'Personal Best'),
  hidden('multipleScoreSearch', 'MultipleScoreSearch', PATHS.multipleScoreSearch, '历史成绩查询', 'Historical Scores'),
  hidden('imageSearch', 'ImageSearch', PATHS.imageSearch, '照片查询', 'Photo Search'),
  hidden('videoCollection', 'VideoCollection', PATHS.videoCollection, '视频集锦', 'Video Collection'),
  hidden('imageCollection', 'ImageCollection', PATHS.imageCollection, '图片集锦', 'Photo Collection'),
  hidden('certificateVerify', 'CertificateVerify', PATHS.certificateVerify, '证书验证', 'Certificate Verification'),
  // Sign-up (issue #14): the sign-up page needs login; the ballot page is public.
  hidden('signUp', 'SignUp', PATHS.signUp, '在线报名', 'Sign Up', true),
  hidden('ballot', 'Ballot', PATHS.ballot, '抽签公示', 'Ballot'),
  // The personal centre (issue #14 §5): each page needs login.
  centre('myIndex', 'MyIndex', PATHS.myIndex, '我的报名', 'My Registrations'),
  centre('myOrder', 'MyOrder', PATHS.order, '订单详情', 'Order Details'),
  centre('myProfile', 'MyProfile', PATHS.profile, '个人资料', 'Profile'),
  centre('myPassword', 'MyPassword', PATHS.password, '修改密码', 'Change Password'),
  centre('myParticipants', 'MyParticipants', PATHS.participants, '常用参赛人', 'My Participants'),
  centre('myLetter', 'MyLetter', PATHS.letter, '电子承诺书', 'Commitment Letter'),
  centre('myPickup', 'MyPickup', PATHS.pickup, '领物预约', 'Pack Pick-up'),
  centre('myRefund', 'MyRefund', PATHS.refund, '退款申请', 'Refund Request'),
  centre('myMessages', 'MyMessages', PATHS.messages, '我的消息', 'My Messages'),
  hidden('pickupCheckIn', 'PickupCheckIn', PATHS.pickupCheckIn, '领物核验', 'Pick-up Check-in'),
];

const topLevel = (
  name: string,
  component: TopLevelPageName,
  path: string,
  title: string,
  titleEn: string,
  requiresAuth: boolean,
): FlatRoute => ({
  kind: 'page',
  path,
  component,
  handle: { name, title, titleEn, component, hidden: true, layout: 'bare', requiresAuth },
});

/**
 * The top-level routes (spec §2 "Top-level routes"), outside the site layout. The registration screens hold
 * a runner's personal data and need login (issue #13 builds their pages); the language helper does not.
 */
export const TOP_LEVEL_ROUTES: FlatRoute[] = [
  topLevel('upload', 'Upload', PATHS.upload, '资料上传', 'Upload Documents', true),
  topLevel('direct', 'Direct', PATHS.direct, '直通资格申请', 'Direct Entry Application', true),
  topLevel('post', 'Post', PATHS.post, '赛事包邮寄', 'Race Pack Delivery', true),
  topLevel('confirm', 'Confirm', PATHS.confirm, '报名确认', 'Registration Confirmation', true),
  topLevel('I18NDemos', 'I18NDemos', PATHS.i18NDemos, '语言选择', 'Language', false),
];
