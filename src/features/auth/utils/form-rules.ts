/** antd Form rules built from the pure checks of validation.ts, with messages in the current language. */
import type { RuleObject } from 'antd/es/form';
import i18n from 'i18next';
import type { AuthMessageKey } from './validation';

type Check = (value: string | undefined) => AuthMessageKey | null | Promise<AuthMessageKey | null>;

/** One rule that runs a check and rejects with its translated message. */
export function ruleOf(check: Check, validateTrigger?: string): RuleObject {
  return {
    validateTrigger,
    validator: async (_rule, value: string | undefined) => {
      const key = await check(value);
      if (key) throw new Error(i18n.t(key));
    },
  };
}
