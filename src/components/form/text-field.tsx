import { Input, type FormItemProps, type InputProps } from 'antd';
import { checkName, checkRequiredText } from '#contract/rules';
import type { MessageCode } from '#contract/messages';
import type { FormCheck } from '@/lib/form-rules';
import { FieldItem, type FieldProps } from './field-item';

/** Input attributes a caller may set on a field's input (autocomplete, length, input mode...). */
export type FieldInputProps = Omit<InputProps, 'value' | 'onChange' | 'onBlur' | 'id' | 'placeholder'>;

/** A one-line text field with the caller's checks. */
export function TextField({
  name,
  label,
  placeholder,
  checks,
  checkOn = 'blur',
  inputProps,
  ...rest
}: Omit<FieldProps, 'name'> & {
  name: string;
  checks: FormCheck[];
  inputProps?: FieldInputProps;
  /** Fields whose change checks this one again (once it has been typed in or checked). */
  dependencies?: FormItemProps['dependencies'];
}) {
  return (
    <FieldItem name={name} label={label} checks={checks} checkOn={checkOn} {...rest}>
      <Input placeholder={placeholder} {...inputProps} />
    </FieldItem>
  );
}

/**
 * A name, or any required text (spec §5): more than spaces and double quotes, checked on blur; `messages`
 * names the caller's messages (the name's by default).
 */
export function NameField({
  name = 'name',
  messages,
  inputProps,
  ...rest
}: FieldProps & { messages?: { required: MessageCode; invalid: MessageCode }; inputProps?: FieldInputProps }) {
  const check: FormCheck = messages ? (value) => checkRequiredText(value, messages) : checkName;
  return <TextField name={name} checks={[check]} inputProps={{ autoComplete: 'name', ...inputProps }} {...rest} />;
}
