import CloudUploadOutlined from '@ant-design/icons/CloudUploadOutlined';
import type { ConsoleArea } from '../../areas';

/** Results and photos imports (owner, results): a preview with every bad row by line, then the import. */
export const area: ConsoleArea = {
  key: 'imports',
  path: 'imports',
  raceScoped: true,
  permission: 'results',
  labelKey: 'imports.menu',
  icon: CloudUploadOutlined,
  order: 60,
  load: () => import('./page'),
};
