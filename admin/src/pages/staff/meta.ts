import TeamOutlined from '@ant-design/icons/TeamOutlined';
import type { ConsoleArea } from '../../areas';

/** Staff accounts (owners only): add, change, reset, sign out, remove. */
export const area: ConsoleArea = {
  key: 'staff',
  path: 'staff',
  raceScoped: false,
  permission: 'staff',
  labelKey: 'staff.menu',
  icon: TeamOutlined,
  order: 80,
  load: () => import('./page'),
};
