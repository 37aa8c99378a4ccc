import FormOutlined from '@ant-design/icons/FormOutlined';
import type { ConsoleArea } from '../../areas';

/** The registration form of each entry channel: fields, JSON, checks, preview, publish, versions ('site'). */
export const area: ConsoleArea = {
  key: 'forms',
  path: 'forms',
  raceScoped: true,
  permission: 'site',
  labelKey: 'forms.menu',
  icon: FormOutlined,
  order: 26,
  load: () => import('./page'),
};
