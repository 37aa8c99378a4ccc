/**
 * antd Form rules built from the contract's rules (#contract/rules): a rule rejects with the message of its
 * code in the current language (`messages.<code>` of the locale files, parameters interpolated).
 */
import type { FormRule } from 'antd';
import i18n from 'i18next';
import type { Refusal } from '#contract/messages';

export type FormCheck = (value: string | undefined) => Refusal | null | Promise<Refusal | null>;

/** The text of a refusal in the current language. */
export const refusalText = (refusal: Refusal): string => i18n.t(`messages.${refusal.code}`, refusal.params ?? {});

/** One rule that runs a check and rejects with its translated message. */
/** An antd rule object (`FormRule` less its function form). */
export type RuleObject = Exclude<FormRule, (...args: never[]) => unknown>;

export function ruleOf(check: FormCheck, validateTrigger?: string | string[]): RuleObject {
  return {
    validateTrigger,
    validator: async (_rule: unknown, value: string | undefined) => {
      const refusal = await check(value);
      if (refusal) throw new Error(refusalText(refusal));
    },
  };
}
