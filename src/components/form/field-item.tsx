/**
 * The shared shape of a form field (antd Form.Item): label above, the input, and one line under it kept for
 * the message whether or not one shows, so nothing below moves when a message appears or goes (a click on a
 * button right after leaving a field never misses). antd links the message to the input (aria-describedby,
 * aria-invalid) and the label to it (htmlFor): give every Form a `name` so the ids are unique on the page.
 */
import { ConfigProvider, Form, type FormItemProps } from 'antd';
import type { Rule } from 'antd/es/form';
import { ruleOf, type FormCheck } from '@/lib/form-rules';
import './form.css';

/**
 * When a field's own checks run:
 * - 'change' (the login drawer): on every change, and on submit;
 * - 'blur' (spec §5 "checked on blur"): on leaving the field and on submit; a message stays until the value
 *   changes, then goes until the field is left again.
 */
export type CheckOn = 'change' | 'blur';

/** What every shared field takes besides its own options. */
export interface FieldProps {
  /** The value's key in the form (each field has a default). */
  name?: string;
  label: React.ReactNode;
  placeholder?: string;
  checkOn?: CheckOn;
  /** More rules after the field's own (a server check on blur, say), with their own trigger. */
  rules?: Rule[];
  /** The triggers of the item when `rules` need one the field's own mode does not have. */
  validateTrigger?: string | string[];
  /** Whether the visitor must fill it (aria-required; no mark is shown): yes unless told otherwise. */
  required?: boolean;
  /** A whole row of a grid form. */
  wide?: boolean;
  className?: string;
}

/** The rules and triggers of a field's checks in a mode. */
export function checksOf(checks: FormCheck[], checkOn: CheckOn): Pick<FormItemProps, 'rules' | 'validateTrigger'> {
  if (checkOn === 'blur') {
    // A change runs no rule (they all wait for blur), which clears the message; leaving the field runs them.
    return { validateTrigger: ['onChange', 'onBlur'], rules: checks.map((check) => ruleOf(check, 'onBlur')) };
  }
  return { validateTrigger: 'onChange', rules: checks.map((check) => ruleOf(check)) };
}

/** Class names of a field's Form.Item. */
export const fieldClass = (wide: boolean | undefined, className: string | undefined): string =>
  ['form-field', wide && 'form-field--wide', className].filter(Boolean).join(' ');

/**
 * antd fades a message in and out (a fifth of a second): a message of two lines that goes as the value is
 * fixed would pull the button up under a click already on its way. Messages come and go at once, as the
 * search forms' did before.
 */
const NO_MOTION = { token: { motion: false } };

/** Form.Item with the shared look and a field's checks. */
export function FieldItem({
  checks,
  checkOn = 'change',
  rules = [],
  validateTrigger,
  required = true,
  wide,
  className,
  children,
  ...item
}: Omit<FormItemProps, 'rules'> & {
  checks: FormCheck[];
  checkOn?: CheckOn;
  rules?: Rule[];
  wide?: boolean;
}) {
  const own = checksOf(checks, checkOn);
  return (
    <ConfigProvider theme={NO_MOTION}>
      <Form.Item
        {...item}
        required={required}
        className={fieldClass(wide, className)}
        validateTrigger={validateTrigger ?? own.validateTrigger}
        rules={[...(own.rules ?? []), ...rules]}
      >
        {children}
      </Form.Item>
    </ConfigProvider>
  );
}
