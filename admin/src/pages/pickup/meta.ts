import GiftOutlined from '@ant-design/icons/GiftOutlined';
import type { ConsoleArea } from '../../areas';

/** Pack pick-up (organiser): slots and capacities, live booked/collected figures, staff check-in keys, export. */
export const area: ConsoleArea = {
  key: 'pickup',
  path: 'pickup',
  raceScoped: true,
  permission: 'pickup',
  labelKey: 'pickup.menu',
  icon: GiftOutlined,
  order: 50,
  load: () => import('./page'),
};
