import SettingOutlined from '@ant-design/icons/SettingOutlined';
import type { ConsoleArea } from '../../areas';

/** The race's settings (owner): race.json as forms and as JSON, saved with add-race's checks. */
export const area: ConsoleArea = {
  key: 'race',
  path: 'race',
  raceScoped: true,
  permission: 'race',
  labelKey: 'race.menu',
  icon: SettingOutlined,
  order: 22,
  load: () => import('./page'),
};
