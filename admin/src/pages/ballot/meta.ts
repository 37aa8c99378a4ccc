/** The ballot (owners, issue 32): commit, draw, reveal, the server's re-run of each draw, the wait list. */
import TrophyOutlined from '@ant-design/icons/TrophyOutlined';
import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  key: 'ballot',
  path: 'ballot',
  raceScoped: true,
  permission: 'season',
  labelKey: 'ballot.menu',
  icon: TrophyOutlined,
  order: 34,
  load: () => import('./page'),
};
