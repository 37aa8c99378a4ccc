/**
 * A date field whose value is the text 'YYYY-MM-DD' (what the calls send and answer), picked with antd's
 * DatePicker between two such dates: the birthday of the profile and of a saved participant.
 */
import { DatePicker, type DatePickerProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { FormCheck } from '@/lib/form-rules';
import { FieldItem } from './field-item';
import { isMobileSite } from '@/lib/mobile-site';

export const DATE_FORMAT = 'YYYY-MM-DD';

/** How many years before today a birthday calendar opens: a plausible adult runner's birthday. */
const BIRTHDAY_OPENS_YEARS_AGO = 30;

/**
 * Where a birthday calendar opens while the field is empty: 30 years before today, kept within the field's
 * dates (a field's latest date, e.g. the youngest age allowed, would open it at a child's birthday). With a
 * value the calendar opens at the value.
 */
export function birthdayPickerStart(today: Dayjs, earliest?: Dayjs, latest?: Dayjs): Dayjs {
  const start = today.subtract(BIRTHDAY_OPENS_YEARS_AGO, 'year');
  if (latest && start.isAfter(latest)) return latest;
  if (earliest && start.isBefore(earliest)) return earliest;
  return start;
}

/**
 * On the mobile site the phone's on-screen keyboard stays down when the field takes the focus, so the calendar
 * is not hidden behind it (inputmode none; antd passes no inputMode on). The field still takes a date typed
 * on a keyboard, as on the desktop site: read-only, it could be set with the calendar only (issue 28).
 */
function keepOnScreenKeyboardDown(picker: { nativeElement?: HTMLElement | null } | null): void {
  picker?.nativeElement?.querySelector('input')?.setAttribute('inputmode', 'none');
}
/** The ref a DatePicker takes for that (none on the desktop site). */
export const datePickerInputRef = () => (isMobileSite() ? keepOnScreenKeyboardDown : undefined);

/**
 * antd's DatePicker whose calendar opens at its value, or at `opensAt` while it has none (antd's
 * defaultPickerValue alone would win over the value).
 */
export function OpeningDatePicker({ opensAt, ...props }: DatePickerProps & { opensAt?: Dayjs }) {
  const value = dayjs.isDayjs(props.value) ? props.value : undefined;
  return <DatePicker {...props} ref={datePickerInputRef()} defaultPickerValue={value ?? opensAt} />;
}

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
      <OpeningDatePicker
        format={DATE_FORMAT}
        placeholder={DATE_FORMAT}
        opensAt={birthdayPickerStart(dayjs(), dayjs(earliest, DATE_FORMAT), dayjs(latest, DATE_FORMAT))}
        minDate={dayjs(earliest, DATE_FORMAT)}
        maxDate={dayjs(latest, DATE_FORMAT)}
        style={{ width: '100%' }}
      />
    </FieldItem>
  );
}
