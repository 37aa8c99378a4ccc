/** Bib assignment (owners, issue 32): per item, bibs given and awaited, a series previewed and assigned. */
import NumberOutlined from '@ant-design/icons/NumberOutlined';
import type { ConsoleArea } from '../../areas';

export const area: ConsoleArea = {
  key: 'bibs',
  path: 'bibs',
  raceScoped: true,
  permission: 'season',
  labelKey: 'bibs.menu',
  icon: NumberOutlined,
  order: 36,
  load: () => import('./page'),
};
