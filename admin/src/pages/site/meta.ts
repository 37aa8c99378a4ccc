import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import type { ConsoleArea } from '../../areas';

/** The race's website (owner, service): the draft site configuration, its check, preview, publication and versions. */
export const area: ConsoleArea = {
  key: 'site',
  path: 'site',
  raceScoped: true,
  permission: 'site',
  labelKey: 'site.menu',
  icon: GlobalOutlined,
  order: 24,
  load: () => import('./page'),
};
