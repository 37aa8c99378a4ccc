/**
 * The province-city-district picker (spec §2, §3 "Region value: array of three codes", §5 "Region picker
 * accepts only all three levels"): an antd Cascader over the data of #contract/region-data, which it loads
 * when it mounts (a chunk of its own, dynamically imported, so only pages with a picker fetch it; the English
 * names are one more chunk, fetched only in English). While the data loads the picker says so; when the
 * load fails it says so with a retry button. Names follow the language (Chinese, or English/pinyin), and
 * the visitor may type to search any level ("海淀", "haidian", "xian" finds Xi'an). Only a district can be
 * chosen (changeOnSelect off): the value is always [province, city, district] codes, or undefined.
 */
import { Button, Cascader, type CascaderProps } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRegion, isRegionEmpty, type RegionCodes } from '#contract/region';
import type { RegionNames, RegionNode } from '#contract/region-data';
import type { Refusal } from '#contract/messages';
import { useAppStore, type Language } from '@/stores/app-store';
import { FieldItem, type FieldProps } from './field-item';
import './region-picker.css';

/** What the picker needs: the tree, the parents the rule reads, and the English names in English. */
export interface RegionSource {
  tree: readonly RegionNode[];
  parents: ReadonlyMap<string, string | null>;
  english?: RegionNames;
}

type RegionDataModule = typeof import('#contract/region-data');

let dataModule: Promise<RegionDataModule> | undefined;
let englishNames: Promise<RegionNames> | undefined;

/** The data chunk, fetched once; a failed fetch is forgotten so that a retry fetches again. */
function importRegionData(): Promise<RegionDataModule> {
  dataModule ??= import('#contract/region-data').catch((error: unknown) => {
    dataModule = undefined;
    throw error;
  });
  return dataModule;
}

/** The region data in a language (the English names' chunk too in English). */
export async function loadRegionSource(language: Language): Promise<RegionSource> {
  const data = await importRegionData();
  const source = { tree: data.REGION_TREE, parents: data.REGION_PARENTS };
  if (language !== 'en') return source;
  englishNames ??= data.loadRegionNamesEn().catch((error: unknown) => {
    englishNames = undefined;
    throw error;
  });
  return { ...source, english: await englishNames };
}

interface RegionOption {
  value: string;
  label: string;
  children?: RegionOption[];
}

// Nearly 4,000 options per language: built once per language and names.
const optionCache = new WeakMap<object, RegionOption[]>();

function optionsOf(source: RegionSource): RegionOption[] {
  const key = source.english ?? source.tree;
  let options = optionCache.get(key);
  if (!options) {
    const toOption = (node: RegionNode): RegionOption => ({
      value: node.code,
      label: source.english?.[node.code] ?? node.name,
      ...(node.children ? { children: node.children.map(toOption) } : {}),
    });
    options = source.tree.map(toOption);
    optionCache.set(key, options);
  }
  return options;
}

/** Search text as compared: lower case, letters and digits only, ü as u (so "xian" finds Xi'an). */
const searchable = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^\p{L}\p{N}]/gu, '');

const filter = (input: string, path: RegionOption[]): boolean => {
  const wanted = searchable(input);
  return path.some((option) => searchable(option.label).includes(wanted));
};

type Status = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; source: RegionSource };

export interface RegionPickerProps {
  /** The three codes, or nothing chosen. */
  value?: RegionCodes;
  onChange?: (value: RegionCodes | undefined) => void;
  /** Set by Form.Item (label association, message link). */
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  onBlur?: React.FocusEventHandler<HTMLElement>;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-required'?: boolean | 'true' | 'false';
  /** Where the data comes from (the chunks by default; a test gives its own). */
  load?: (language: Language) => Promise<RegionSource>;
}

/** The Cascader of provinces, cities and districts, with its loading and error states. */
export function RegionPicker({
  value,
  onChange,
  placeholder,
  disabled,
  load = loadRegionSource,
  ...control
}: RegionPickerProps) {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const [attempt, setAttempt] = useState(0);
  // The outcome of a load, for the request it answers; any other request (a new language, a retry) is
  // still loading.
  const request = `${language}:${attempt}`;
  const [outcome, setOutcome] = useState<{ request: string; status: Status }>();
  const status: Status = outcome?.request === request ? outcome.status : { state: 'loading' };

  useEffect(() => {
    let live = true;
    load(language).then(
      (source) => live && setOutcome({ request, status: { state: 'ready', source } }),
      () => live && setOutcome({ request, status: { state: 'failed' } }),
    );
    return () => {
      live = false;
    };
  }, [load, language, request]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const source = status.state === 'ready' ? status.source : undefined;
  const options = useMemo(() => (source ? optionsOf(source) : []), [source]);

  const handleChange: CascaderProps<RegionOption>['onChange'] = (codes) => {
    onChange?.(isRegionEmpty(codes) ? undefined : (codes as RegionCodes));
  };

  const errorId = control.id ? `${control.id}_load_error` : undefined;
  return (
    <div className="form-region">
      <Cascader<RegionOption>
        {...control}
        aria-describedby={
          [control['aria-describedby'], status.state === 'failed' && errorId].filter(Boolean).join(' ') || undefined
        }
        options={options}
        value={status.state === 'ready' ? value : undefined}
        onChange={handleChange}
        changeOnSelect={false}
        showSearch={{ filter, limit: 50 }}
        expandTrigger="click"
        loading={status.state === 'loading'}
        disabled={disabled || status.state !== 'ready'}
        placeholder={
          status.state === 'loading' ? t('form.region.loading') : (placeholder ?? t('form.region.placeholder'))
        }
        notFoundContent={t('form.region.noMatch')}
        style={{ width: '100%' }}
      />
      {status.state === 'failed' && (
        <div className="form-region__error" role="alert">
          <span id={errorId}>{t('form.region.loadError')}</span>
          <Button size="small" autoInsertSpace={false} onClick={retry}>
            {t('form.region.retry')}
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * The region rule in a form: required (unless told otherwise) and only all three levels, from the list
 * ('regionIncomplete', 'regionUnknown'). A value is checked against the data the picker loads; should the
 * data not load, the server's check (the same rule) decides.
 */
export function regionCheck(required: boolean, load: () => Promise<RegionSource> = () => loadRegionSource('zh')) {
  return async (value: unknown): Promise<Refusal | null> => {
    if (isRegionEmpty(value)) return required ? { code: 'regionIncomplete' } : null;
    let source: RegionSource;
    try {
      source = await load();
    } catch {
      return null;
    }
    return checkRegion(value, source.parents);
  };
}

/** A form field holding a region value (`region` by default). */
export function RegionField({
  name = 'region',
  label,
  placeholder,
  checkOn = 'change',
  rules,
  validateTrigger,
  required = true,
  wide,
  className,
  load,
  disabled,
}: FieldProps & { load?: (language: Language) => Promise<RegionSource>; disabled?: boolean }) {
  const check = useMemo(
    () => regionCheck(required, load ? () => load(useAppStore.getState().language) : undefined),
    [required, load],
  );
  return (
    <FieldItem
      name={name}
      label={label}
      checks={[check]}
      checkOn={checkOn}
      rules={rules}
      validateTrigger={validateTrigger}
      required={required}
      wide={wide}
      className={className}
    >
      <RegionPicker placeholder={placeholder} load={load} disabled={disabled} />
    </FieldItem>
  );
}
