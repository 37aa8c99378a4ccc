import CalendarOutlined from '@ant-design/icons/CalendarOutlined';
import type { ConsoleArea } from '../../areas';

/** The entry season (owner): opening and closing entry per item and channel; invitation and direct-pass codes. */
export const area: ConsoleArea = {
  key: 'season',
  path: 'season',
  raceScoped: true,
  permission: 'season',
  labelKey: 'season.menu',
  icon: CalendarOutlined,
  order: 30,
  load: () => import('./page'),
};
