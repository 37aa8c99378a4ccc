import RollbackOutlined from '@ant-design/icons/RollbackOutlined';
import type { ConsoleArea } from '../../areas';

/** Refunds and deferrals of a race (money: finance, owner): the requests with the rules, and the refunds owed. */
export const area: ConsoleArea = {
  key: 'refunds',
  path: 'refunds',
  raceScoped: true,
  permission: 'money',
  labelKey: 'refunds.menu',
  icon: RollbackOutlined,
  order: 40,
  load: () => import('./page'),
};
