import AuditOutlined from '@ant-design/icons/AuditOutlined';
import type { ConsoleArea } from '../../areas';

/** Direct-pass review (owner, service): the race's applications with their documents, approved or rejected. */
export const area: ConsoleArea = {
  key: 'review',
  path: 'review',
  raceScoped: true,
  permission: 'review',
  labelKey: 'review.menu',
  icon: AuditOutlined,
  order: 32,
  load: () => import('./page'),
};
