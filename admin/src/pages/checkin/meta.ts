import ScanOutlined from '@ant-design/icons/ScanOutlined';
import type { ConsoleArea } from '../../areas';

/** The volunteers' pick-up check-in screen (phone or tablet): look a pass up, hand the pack over, offline too. */
export const area: ConsoleArea = {
  key: 'checkin',
  path: 'checkin',
  raceScoped: true,
  permission: 'checkIn',
  labelKey: 'checkin.menu',
  icon: ScanOutlined,
  order: 52,
  load: () => import('./page'),
};
