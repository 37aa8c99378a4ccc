/** The commitment letter (issue 32): its current version, who has and has not signed it, the export. */
import FileDoneOutlined from '@ant-design/icons/FileDoneOutlined';
import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  key: 'letters',
  path: 'letters',
  raceScoped: true,
  permission: 'pickup',
  labelKey: 'letters.menu',
  icon: FileDoneOutlined,
  order: 56,
  load: () => import('./page'),
};
