import SolutionOutlined from '@ant-design/icons/SolutionOutlined';
import type { ConsoleArea } from '../../areas';

/** Staff accounts (owners only): add, change, reset, sign out, remove. */
export const area: ConsoleArea = {
  key: 'staff',
  path: 'staff',
  raceScoped: false,
  permission: 'staff',
  labelKey: 'staff.menu',
  icon: SolutionOutlined,
  order: 80,
  load: () => import('./page'),
};
