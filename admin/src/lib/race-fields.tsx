/**
 * Fields the races and race pages share: a race time typed as race.json keeps it (YYYY-MM-DD HH:mm:ss on the
 * race's clock, checked as typed by the one race-time rule), and the time zone chosen from the runtime's list.
 */
import { Input, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RACE_TIME_FORMAT, raceTimeProblem } from '#contract/site-config/race-time';
import { DEFAULT_RACE_TIME_ZONE } from '#contract/time-zone';

/** The problem of a typed race time in the console's words ('' when empty or fine). */
export function useRaceTimeError(value: string | undefined, required = false): string {
  const { t } = useTranslation();
  const text = value?.trim() ?? '';
  if (text === '') return required ? t('race.fields.required') : '';
  return raceTimeProblem(text) ? t('race.fields.timeFormat', { format: RACE_TIME_FORMAT }) : '';
}

export function RaceTimeInput({
  id,
  value,
  onChange,
  testId,
}: {
  id: string;
  value: string | undefined;
  onChange: (value: string) => void;
  testId?: string;
}) {
  return (
    <Input
      id={id}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value)}
      placeholder="YYYY-MM-DD HH:mm:ss"
      maxLength={19}
      style={{ width: 200 }}
      data-testid={testId}
      autoComplete="off"
    />
  );
}

/** Every IANA zone the browser knows (the server checks the name again). */
function timeZones(): string[] {
  const supported = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  return zones.includes(DEFAULT_RACE_TIME_ZONE) ? zones : [DEFAULT_RACE_TIME_ZONE, ...zones];
}

export function TimeZoneSelect({
  id,
  value,
  onChange,
  testId,
}: {
  id: string;
  value: string | undefined;
  onChange: (value: string) => void;
  testId?: string;
}) {
  const options = useMemo(() => timeZones().map((zone) => ({ value: zone, label: zone })), []);
  return (
    <Select
      id={id}
      showSearch
      value={value ?? DEFAULT_RACE_TIME_ZONE}
      onChange={onChange}
      options={options}
      style={{ width: 240 }}
      data-testid={testId}
      popupMatchSelectWidth={false}
    />
  );
}
