import PictureOutlined from '@ant-design/icons/PictureOutlined';
import type { ConsoleArea } from '../../areas';

/** The race's asset library (owner, service): images and documents, used by, upload, replace, delete. */
export const area: ConsoleArea = {
  key: 'assets',
  path: 'assets',
  raceScoped: true,
  permission: 'site',
  labelKey: 'assets.menu',
  icon: PictureOutlined,
  order: 25,
  load: () => import('./page'),
};
