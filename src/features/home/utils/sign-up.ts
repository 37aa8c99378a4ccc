import type { Language } from '@/stores/app-store';
import type { SignUpInfo, SignUpState } from '@/lib/sign-up-state';
import { moduleAction, type ModuleAction } from './module-action';

/**
 * What "sign up" does in a state: the module's action (its dialogText while its switch is off), except once
 * sign-up has closed, when it says so (`closedText`) instead of leading to a page that refuses.
 */
export function signUpAction(
  info: SignUpInfo,
  state: SignUpState,
  language: Language,
  texts: { notOpen: string; closed: string },
): ModuleAction {
  if (state === 'closed' && info.action.openStatus === 1) return { kind: 'notice', text: texts.closed };
  return moduleAction(info.action, language, texts.notOpen);
}
