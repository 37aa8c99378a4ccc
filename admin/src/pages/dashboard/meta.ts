/** The race's live figures (issue 30 §4): what a race director opens first. */
import DashboardOutlined from '@ant-design/icons/DashboardOutlined';
import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  key: 'dashboard',
  path: 'dashboard',
  raceScoped: true,
  permission: 'figures',
  labelKey: 'dashboard.menu',
  icon: DashboardOutlined,
  order: 10,
  load: () => import('./page'),
};
