import { checkPhone } from '#contract/rules';
import { TextField, type FieldInputProps } from './text-field';
import type { FieldProps } from './field-item';

/**
 * A mobile number: required ('Please enter phone number'); `strict` also wants a mainland mobile number,
 * 11 digits from 1[3-9] ('Please enter a correct phone number').
 */
export function PhoneField({
  name = 'phone',
  strict = false,
  checkOn = 'change',
  inputProps,
  ...rest
}: FieldProps & { strict?: boolean; inputProps?: FieldInputProps }) {
  return (
    <TextField
      name={name}
      checkOn={checkOn}
      checks={[(value) => checkPhone(value, { strict })]}
      inputProps={{ autoComplete: 'tel', inputMode: 'tel', maxLength: strict ? 11 : 20, ...inputProps }}
      {...rest}
    />
  );
}
