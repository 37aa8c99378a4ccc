import { Input, type InputProps } from 'antd';
import { checkCaptcha } from '#contract/rules';
import { FieldItem, type FieldProps } from './field-item';
import type { FieldInputProps } from './text-field';

/** The input and, beside it, the caller's send button; Form.Item's value, id and aria-* go to the input. */
function CodeInput({ action, ...input }: InputProps & { action: React.ReactNode }) {
  return (
    <div className="form-code-row">
      <Input {...input} />
      {action}
    </div>
  );
}

/**
 * A verification code (required, not only spaces) with the caller's send button beside it. The sending
 * itself (slider check, countdown) belongs to the caller: the login drawer's is in features/auth.
 */
export function CodeField({
  name = 'captcha',
  label,
  placeholder,
  action,
  checkOn = 'change',
  inputProps,
  ...rest
}: FieldProps & { action: React.ReactNode; inputProps?: FieldInputProps }) {
  return (
    <FieldItem name={name} label={label} checks={[checkCaptcha]} checkOn={checkOn} {...rest}>
      <CodeInput action={action} placeholder={placeholder} autoComplete="one-time-code" maxLength={8} {...inputProps} />
    </FieldItem>
  );
}
