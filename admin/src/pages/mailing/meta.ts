/** Race-pack mailing (issue 32): the runners who chose mailing, the list's export, the tracking-number import. */
import SendOutlined from '@ant-design/icons/SendOutlined';
import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  key: 'mailing',
  path: 'mailing',
  raceScoped: true,
  permission: 'pickup',
  labelKey: 'mailing.menu',
  icon: SendOutlined,
  order: 54,
  load: () => import('./page'),
};
