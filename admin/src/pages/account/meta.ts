import UserOutlined from '@ant-design/icons/UserOutlined';
import type { ConsoleArea } from '../../areas';

/** My account (every role): own password, second factor and sessions. */
export const area: ConsoleArea = {
  key: 'account',
  path: 'account',
  raceScoped: false,
  permission: null,
  labelKey: 'account.menu',
  icon: UserOutlined,
  order: 90,
  load: () => import('./page'),
};
