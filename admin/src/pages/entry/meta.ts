/**
 * One entry (issue 30 §5): reached from the entry list (or a link), never from the menu. Staff who may read
 * entries see it; the actions show for the permissions they need (the server checks each call).
 */
import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  key: 'entry',
  path: 'entries/:entryId',
  raceScoped: true,
  permission: 'entries.read',
  labelKey: 'entry.tabs.person',
  order: 900,
  menu: false,
  load: () => import('./page'),
};
