import FlagOutlined from '@ant-design/icons/FlagOutlined';
import type { ConsoleArea } from '../../areas';

/** The organiser's races (owner): new race, each race's domains bound and unbound (the CLI's add-race, bind, unbind). */
export const area: ConsoleArea = {
  key: 'races',
  path: 'races',
  raceScoped: false,
  permission: 'race',
  labelKey: 'races.menu',
  icon: FlagOutlined,
  order: 14,
  load: () => import('./page'),
};
