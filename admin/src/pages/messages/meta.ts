import MessageOutlined from '@ant-design/icons/MessageOutlined';
import type { ConsoleArea } from '../../areas';

/** Messages to runners (issue 32 §2): to chosen entrants, their delivery, and the system messages' wording. */
export const area: ConsoleArea = {
  key: 'messages',
  path: 'messages',
  raceScoped: true,
  permission: 'messages',
  labelKey: 'messages.menu',
  icon: MessageOutlined,
  order: 65,
  load: () => import('./page'),
};
