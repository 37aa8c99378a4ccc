/**
 * A date field whose value is the text 'YYYY-MM-DD' (what the calls send and answer), picked with antd's
 * DatePicker between two such dates: the birthday of the profile and of a saved participant.
 */
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FormCheck } from '@/lib/form-rules';
import { FieldItem } from './field-item';
import { isMobileSite } from '@/lib/mobile-site';

export const DATE_FORMAT = 'YYYY-MM-DD';

export function DateField({
  name,
  label,
  checks,
  required,
  earliest,
  latest,
}: {
  name: string;
  label: React.ReactNode;
  checks: FormCheck[];
  required?: boolean;
  /** The first and last dates offered, 'YYYY-MM-DD'. */
  earliest: string;
  latest: string;
}) {
  return (
    <FieldItem
      name={name}
      label={label}
      checks={checks}
      required={required}
      getValueProps={(value: unknown) => ({
        value: typeof value === 'string' && value ? dayjs(value, DATE_FORMAT) : undefined,
      })}
      normalize={(value: Dayjs | null) => (value ? value.format(DATE_FORMAT) : undefined)}
    >
      <DatePicker
        format={DATE_FORMAT}
        placeholder={DATE_FORMAT}
        minDate={dayjs(earliest, DATE_FORMAT)}
        maxDate={dayjs(latest, DATE_FORMAT)}
        inputReadOnly={isMobileSite()}
        style={{ width: '100%' }}
      />
    </FieldItem>
  );
}
