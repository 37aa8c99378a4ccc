/**
 * The inputs of the registration form's own field types (the renderer puts each in a Form.Item): clothing
 * size with its chart, past events, score verification, the read-only fee state and the country list. Each
 * takes the value and onChange of its Form.Item, its id (the label's target) and the id of its label (for
 * the groups, which a label cannot point at).
 */
import { Button, Checkbox, DatePicker, Input, Radio, Select, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ClothingSize,
  ClothingSizeField,
  ScoreClaim,
  ScoreFeeState,
  ScoreVerificationField,
} from '#contract/registration-form';
import { SCORE_CERTIFICATE_UPLOAD, SCORE_CLAIM_LENGTHS, SCORE_FEE_STATES } from '#contract/registration-form';
import type { SizeStockAnswer } from '#contract/registration-screens';
import { useSelectClear } from '@/components/form/clear-button';
import { UploadField } from '@/components/form/upload-field';
import { useAppStore } from '@/stores/app-store';
import { getCountryList, type CountryItem } from '../api/get-country-list';
import { countryMatches, countrySearchText } from '../utils/country-search';
import { localText } from '../utils/form-utils';
import { FindOwnResults, useOwnResultsLookup, useResultText } from './own-results';
import { datePickerInputRef } from '@/components/form/date-field';

export const DATE_FORMAT = 'YYYY-MM-DD';

interface ControlProps<T> {
  value?: T;
  onChange?: (value: T | undefined) => void;
  onBlur?: () => void;
  id?: string;
  /** The id of the field's label (aria-labelledby of a group). */
  labelId: string;
  disabled?: boolean;
  'aria-describedby'?: string;
}

/** Calls `onBlur` only when the focus leaves the whole group (not when it moves inside it). */
const groupBlur = (onBlur: (() => void) | undefined) => (event: React.FocusEvent<HTMLElement>) => {
  if (!onBlur) return;
  const next = event.relatedTarget as Node | null;
  if (next && event.currentTarget.contains(next)) return;
  onBlur();
};

// ---------------------------------------------------------------------------------------------------------
// Clothing size
// ---------------------------------------------------------------------------------------------------------

/** Pieces left of a size: the server's stock answer once loaded (absent there: no limit), else the document's. */
export const sizeLeftOf = (stock: SizeStockAnswer | undefined, size: ClothingSize): number | undefined =>
  stock ? stock[size.code] : size.stock;

/** Radio cards of the sizes, the chart (chest, length) under them; sold-out sizes cannot be chosen. */
export function ClothingSizeInput({
  field,
  stock,
  value,
  onChange,
  id,
  labelId,
  disabled,
  'aria-describedby': describedBy,
}: ControlProps<string> & { field: ClothingSizeField; stock?: SizeStockAnswer }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const hasChart = field.sizes.some((s) => s.chest !== undefined || s.length !== undefined);
  return (
    <div className="rs-sizes">
      <Radio.Group
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value as string)}
        disabled={disabled}
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        className="rs-sizes__cards"
        role="radiogroup"
      >
        {field.sizes.map((size) => {
          const left = sizeLeftOf(stock, size);
          const soldOut = left !== undefined && left <= 0;
          return (
            <Radio.Button key={size.code} value={size.code} disabled={soldOut} className="rs-size-card">
              <span className="rs-size-card__code">{size.code}</span>
              <span className="rs-size-card__label">{localText(language, size.label)}</span>
              {soldOut ? <span className="rs-size-card__soldout">{t('registration.size.soldOut')}</span> : null}
            </Radio.Button>
          );
        })}
      </Radio.Group>
      {hasChart ? (
        <table className="rs-size-chart" data-testid="size-chart">
          <caption>{t('registration.size.chart')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('registration.size.size')}</th>
              {field.sizes.map((s) => (
                <th key={s.code} scope="col">
                  {s.code}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{t('registration.size.chest')}</th>
              {field.sizes.map((s) => (
                <td key={s.code}>{s.chest ?? '—'}</td>
              ))}
            </tr>
            <tr>
              <th scope="row">{t('registration.size.length')}</th>
              {field.sizes.map((s) => (
                <td key={s.code}>{s.length ?? '—'}</td>
              ))}
            </tr>
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Past events
// ---------------------------------------------------------------------------------------------------------

/** A multi-select of the runner's own finishes, found with "Find my results". */
export function PastEventsInput({
  value,
  onChange,
  id,
  labelId,
  disabled,
  'aria-describedby': describedBy,
}: ControlProps<string[]>) {
  const { status } = useOwnResultsLookup();
  const text = useResultText();
  const chosen = value ?? [];
  const results = status.state === 'done' ? status.results : [];
  const options = [
    ...results.map((r) => ({ value: r.resultId, label: text(r) })),
    // Chosen before (a saved draft) and not in this lookup: still shown, so it can be unticked.
    ...chosen.filter((v) => !results.some((r) => r.resultId === v)).map((v) => ({ value: v, label: v })),
  ];
  return (
    <div className="rs-past-events" id={id} role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      <FindOwnResults />
      {options.length > 0 ? (
        <Checkbox.Group
          className="rs-choice-list"
          options={options}
          value={chosen}
          disabled={disabled}
          onChange={(next) => onChange?.(next.length ? (next as string[]) : undefined)}
        />
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Score verification
// ---------------------------------------------------------------------------------------------------------

type OutsideClaim = Extract<ScoreClaim, { source: 'outside' }>;
const EMPTY_OUTSIDE: OutsideClaim = {
  source: 'outside',
  raceName: '',
  item: '',
  chipTime: '',
  raceDate: '',
  certificateImage: '',
};

/** A qualifying result: one of the runner's own (verified at once) or an outside one (certificate, review). */
export function ScoreVerificationInput({
  field,
  value,
  onChange,
  onBlur,
  id,
  labelId,
  disabled,
  'aria-describedby': describedBy,
}: ControlProps<ScoreClaim> & { field: ScoreVerificationField }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const { status } = useOwnResultsLookup();
  const text = useResultText();
  const [source, setSource] = useState<'own' | 'outside' | undefined>(value?.source);
  const outside: OutsideClaim = value?.source === 'outside' ? value : EMPTY_OUTSIDE;
  const setOutside = (change: Partial<OutsideClaim>) => onChange?.({ ...outside, ...change, source: 'outside' });
  const results = status.state === 'done' ? status.results : [];
  const ownId = value?.source === 'own' ? value.resultId : undefined;
  const part = (name: string) => `${id ?? labelId}_${name}`;

  const choose = (next: 'own' | 'outside') => {
    setSource(next);
    onChange?.(next === 'outside' ? { ...EMPTY_OUTSIDE } : undefined);
  };

  return (
    <div className="rs-score" onBlur={groupBlur(onBlur)} data-testid="score-verification">
      <Radio.Group
        id={id}
        value={source}
        onChange={(e) => choose(e.target.value as 'own' | 'outside')}
        disabled={disabled}
        aria-labelledby={labelId}
        aria-describedby={describedBy}
        role="radiogroup"
        options={[
          { value: 'own', label: t('registration.score.own') },
          { value: 'outside', label: t('registration.score.outside') },
        ]}
      />
      {source === 'own' ? (
        <div className="rs-score__panel">
          <p className="rs-note">{t('registration.score.ownNote')}</p>
          <FindOwnResults />
          {results.length > 0 || ownId ? (
            <Radio.Group
              className="rs-choice-list"
              aria-label={t('registration.score.pickOwn')}
              value={ownId}
              disabled={disabled}
              onChange={(e) => onChange?.({ source: 'own', resultId: e.target.value as string })}
              options={[
                ...results.map((r) => ({ value: r.resultId, label: text(r) })),
                ...(ownId && !results.some((r) => r.resultId === ownId) ? [{ value: ownId, label: ownId }] : []),
              ]}
            />
          ) : null}
        </div>
      ) : null}
      {source === 'outside' ? (
        <div className="rs-score__panel rs-score__grid">
          <div className="rs-subfield">
            <label htmlFor={part('raceName')}>{t('registration.score.raceName')}</label>
            <Input
              id={part('raceName')}
              value={outside.raceName}
              maxLength={SCORE_CLAIM_LENGTHS.raceName}
              disabled={disabled}
              onChange={(e) => setOutside({ raceName: e.target.value })}
            />
          </div>
          <div className="rs-subfield">
            <label htmlFor={part('item')}>{t('registration.score.item')}</label>
            {field.items ? (
              <select
                id={part('item')}
                className="form-select"
                value={outside.item}
                disabled={disabled}
                onChange={(e) => setOutside({ item: e.target.value })}
              >
                <option value="">{t('registration.choose')}</option>
                {field.items.map((o) => (
                  <option key={o.value} value={o.value}>
                    {localText(language, o.label)}
                  </option>
                ))}
              </select>
            ) : (
              <Input
                id={part('item')}
                value={outside.item}
                maxLength={SCORE_CLAIM_LENGTHS.item}
                disabled={disabled}
                onChange={(e) => setOutside({ item: e.target.value })}
              />
            )}
          </div>
          <div className="rs-subfield">
            <label htmlFor={part('chipTime')}>{t('registration.score.chipTime')}</label>
            <Input
              id={part('chipTime')}
              value={outside.chipTime}
              placeholder="H:MM:SS"
              inputMode="numeric"
              maxLength={8}
              disabled={disabled}
              onChange={(e) => setOutside({ chipTime: e.target.value.trim() })}
            />
          </div>
          <div className="rs-subfield">
            <label htmlFor={part('raceDate')}>{t('registration.score.raceDate')}</label>
            <DatePicker
              id={part('raceDate')}
              ref={datePickerInputRef()}
              value={outside.raceDate ? dayjs(outside.raceDate, DATE_FORMAT) : null}
              format={DATE_FORMAT}
              disabled={disabled}
              disabledDate={(d: Dayjs) => d.isAfter(dayjs(), 'day')}
              onChange={(d: Dayjs | null) => setOutside({ raceDate: d ? d.format(DATE_FORMAT) : '' })}
              style={{ width: '100%' }}
            />
          </div>
          <div className="rs-subfield rs-subfield--wide">
            <span className="rs-subfield__label" id={part('certificateImage_label')}>
              {t('registration.score.certificateImage')}
            </span>
            <UploadField
              kind="image"
              maxCount={SCORE_CERTIFICATE_UPLOAD.maxCount}
              maxSize={SCORE_CERTIFICATE_UPLOAD.maxSize}
              value={outside.certificateImage}
              onChange={(files) => setOutside({ certificateImage: files })}
              disabled={disabled}
              id={part('certificateImage')}
              aria-labelledby={part('certificateImage_label')}
            />
          </div>
          <p className="rs-note rs-note--wait rs-subfield--wide" data-testid="score-pending-note">
            {t('registration.score.pendingReview')}
          </p>
        </div>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Score validation paid (read only)
// ---------------------------------------------------------------------------------------------------------

const FEE_TONE: Record<ScoreFeeState, string> = { unpaid: 'warning', paid: 'success', waived: 'default' };

/** The fee state of the score verification, set by the organiser; unpaid until the server says otherwise. */
export function FeeStateTag({ value, labelId }: { value: unknown; labelId: string }) {
  const { t } = useTranslation();
  const state: ScoreFeeState = (SCORE_FEE_STATES as readonly unknown[]).includes(value)
    ? (value as ScoreFeeState)
    : 'unpaid';
  return (
    <Tag color={FEE_TONE[state]} aria-labelledby={labelId} data-testid="fee-state">
      {t(`registration.fee.${state}`)}
    </Tag>
  );
}

// ---------------------------------------------------------------------------------------------------------
// Country
// ---------------------------------------------------------------------------------------------------------

type CountryStatus = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; list: CountryItem[] };

/** The server's country list (mainland China, Hong Kong, Macao, Taiwan first), searchable by name or code. */
export function useCountries(): { status: CountryStatus; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [status, setStatus] = useState<CountryStatus>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    getCountryList().then(
      (list) => live && setStatus({ state: 'ready', list }),
      () => live && setStatus({ state: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  const retry = useCallback(() => {
    setStatus({ state: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return { status, retry };
}

export function CountrySelect({
  value,
  onChange,
  onBlur,
  id,
  disabled,
  placeholder,
  countries,
  'aria-describedby': describedBy,
}: Omit<ControlProps<string>, 'labelId'> & { placeholder?: string; countries: ReturnType<typeof useCountries> }) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const { status, retry } = countries;
  const clear = useSelectClear();
  const options = useMemo(
    () =>
      status.state === 'ready'
        ? status.list.map((c) => ({
            value: c.twoCode,
            label: language === 'en' ? c.enName : c.cnName,
            search: countrySearchText(c),
          }))
        : [],
    [status, language],
  );
  return (
    <div className="rs-country">
      <Select
        id={id}
        value={value}
        onChange={(next: string | undefined) => onChange?.(next)}
        onBlur={onBlur}
        options={options}
        showSearch={{
          filterOption: (input, option) => countryMatches(option?.search ?? '', input),
        }}
        allowClear={clear}
        loading={status.state === 'loading'}
        disabled={disabled || status.state !== 'ready'}
        placeholder={status.state === 'loading' ? t('registration.country.loading') : placeholder}
        aria-describedby={describedBy}
        style={{ width: '100%' }}
      />
      {status.state === 'failed' ? (
        <div className="rs-inline-error" role="alert">
          {t('registration.country.loadError')}
          <Button size="small" onClick={retry}>
            {t('registration.retry')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
