import { checkEmail } from '#contract/rules';
import { TextField, type FieldInputProps } from './text-field';
import type { FieldProps } from './field-item';

/**
 * An e-mail address: required; a login asks for a 'valid' address, registration and reset for a 'correct'
 * one (spec §5).
 */
export function EmailField({
  name = 'email',
  flow = 'account',
  checkOn = 'change',
  inputProps,
  ...rest
}: FieldProps & { flow?: 'login' | 'account'; inputProps?: FieldInputProps }) {
  return (
    <TextField
      name={name}
      checkOn={checkOn}
      checks={[(value) => checkEmail(value, flow)]}
      inputProps={{ autoComplete: 'email', inputMode: 'email', maxLength: 100, ...inputProps }}
      {...rest}
    />
  );
}
