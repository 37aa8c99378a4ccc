import AuditOutlined from '@ant-design/icons/AuditOutlined';
import type { ConsoleArea } from '../../areas';

/** The audit log (owners only): read, filter, verify the chain, export. */
export const area: ConsoleArea = {
  key: 'audit',
  path: 'audit',
  raceScoped: false,
  permission: 'staff',
  labelKey: 'audit.menu',
  icon: AuditOutlined,
  order: 85,
  load: () => import('./page'),
};
