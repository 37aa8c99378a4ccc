/** Built-in routes under the layout root (spec §2 "Main routes under layout root /"). */
import { PATHS } from '@/config/paths';
import type { FlatRoute } from './route-model';

const hidden = (name: string, component: string, path: string, title: string, titleEn: string): FlatRoute => ({
  kind: 'page',
  path,
  component,
  handle: { name, title, titleEn, component, hidden: true, activeMenu: PATHS.home },
});

export const HOME_ROUTE: FlatRoute = {
  kind: 'page',
  path: PATHS.home,
  component: 'Home',
  handle: { name: 'home', title: '首页', titleEn: 'Home', component: 'Home' },
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
];
