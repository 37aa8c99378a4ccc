/** The race's entries (issue 30 §5): search, filters, pages of 50, and the export of the filtered list. */
import TeamOutlined from '@ant-design/icons/TeamOutlined';
import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  key: 'entries',
  path: 'entries',
  raceScoped: true,
  permission: 'entries.read',
  labelKey: 'entries.menu',
  icon: TeamOutlined,
  order: 20,
  load: () => import('./page'),
};
