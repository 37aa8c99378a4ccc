import ReconciliationOutlined from '@ant-design/icons/ReconciliationOutlined';
import type { ConsoleArea } from '../../areas';

/** Reconciliation of the payment providers' daily bills (finance, owner): runs, differences, handling. */
export const area: ConsoleArea = {
  key: 'reconciliation',
  path: 'reconciliation',
  raceScoped: false,
  permission: 'payments.reconcile',
  labelKey: 'reconciliation.menu',
  icon: ReconciliationOutlined,
  order: 70,
  load: () => import('./page'),
};
