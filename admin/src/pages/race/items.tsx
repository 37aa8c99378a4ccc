/**
 * The race's sign-up items (race.json entry.items) as a table: code, names, distance, fee (typed in yuan, kept
 * in fen), capacity, entry model and age limits, each checked as typed (a fee that is no amount of money, a
 * capacity below the places already taken); the places taken and the entries of each item beside it. An item
 * with entries cannot be removed or its code changed (the server refuses it too; the button says why).
 */
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { Button, Input, InputNumber, Select, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ENTRY_MODELS, formatFen, ITEM_CODE_PATTERN, type EntryItemSettings } from '#contract/entry';
import {
  ITEM_CAPACITY_MAX,
  ITEM_FEE_FEN_MAX,
  wholeAmountProblem,
  yuanTextToFen,
  type RaceSettingsView,
} from '#contract/race-admin';

export interface ItemsProps {
  items: EntryItemSettings[];
  view: RaceSettingsView;
  onChange: (items: EntryItemSettings[]) => void;
  /** Tells the page which fields are wrong as typed (their keys), so that Save waits for them. */
  onErrors: (errors: string[]) => void;
}

/** The fee typed for each item (by index) while it is not yet a valid amount. */
type FeeTexts = Record<number, string>;

export function ItemsEditor({ items, view, onChange, onErrors }: ItemsProps) {
  const { t } = useTranslation();
  const [feeTexts, setFeeTexts] = useState<FeeTexts>({});
  const taken = (code: string) => view.places.find((p) => p.itemCode === code && p.pool === 'main')?.taken ?? 0;
  const entries = (code: string) => view.entriesByItem[code] ?? 0;
  const savedCodes = new Set((view.race.entry?.items ?? []).map((i) => i.code));

  const change = (index: number, patch: Partial<EntryItemSettings>) =>
    onChange(items.map((item, i) => (i === index ? { ...item, ...patch } : item)));

  const capacityError = (item: EntryItemSettings) => {
    const problem = wholeAmountProblem(item.capacity, ITEM_CAPACITY_MAX);
    if (problem) return t(`race.items.amount.${problem}`, { max: ITEM_CAPACITY_MAX });
    const held = taken(item.code);
    return item.capacity < held ? t('race.items.belowTaken', { taken: held }) : '';
  };
  const feeError = (index: number, item: EntryItemSettings) => {
    const text = feeTexts[index];
    if (text !== undefined && yuanTextToFen(text) === null) return t('race.items.feeFormat');
    const problem = wholeAmountProblem(item.feeFen, ITEM_FEE_FEN_MAX);
    return problem ? t(`race.items.amount.${problem}`, { max: formatFen(ITEM_FEE_FEN_MAX) }) : '';
  };
  const codeError = (item: EntryItemSettings, index: number) => {
    if (!ITEM_CODE_PATTERN.test(item.code)) return t('race.items.codeRule');
    const twice = items.findIndex((other) => other.code.toUpperCase() === item.code.toUpperCase()) !== index;
    return twice ? t('race.items.codeTwice') : '';
  };

  const errors = items.flatMap((item, i) =>
    [codeError(item, i) && `code-${i}`, feeError(i, item) && `fee-${i}`, capacityError(item) && `capacity-${i}`].filter(
      (e): e is string => Boolean(e),
    ),
  );
  const errorKeys = errors.join(' ');
  useEffect(() => onErrors(errorKeys === '' ? [] : errorKeys.split(' ')), [errorKeys, onErrors]);

  const cell = (message: string, id: string) =>
    message ? (
      <Typography.Text type="danger" className="race-cell-error" id={id}>
        {message}
      </Typography.Text>
    ) : null;

  const columns: TableColumnsType<EntryItemSettings & { index: number }> = [
    {
      title: t('race.items.code'),
      key: 'code',
      width: 110,
      render: (_: unknown, item) => {
        const message = codeError(item, item.index);
        // A saved item with entries keeps its code: changing it would leave the entries without their item.
        const locked = savedCodes.has(item.code) && entries(item.code) > 0;
        return (
          <>
            <Input
              value={item.code}
              onChange={(e) => change(item.index, { code: e.target.value.trim() })}
              aria-label={t('race.items.codeOf', { n: item.index + 1 })}
              status={message ? 'error' : undefined}
              aria-describedby={message ? `item-code-error-${item.index}` : undefined}
              disabled={locked}
              maxLength={32}
              style={{ width: 90 }}
              data-testid={`item-code-${item.index}`}
            />
            {cell(message, `item-code-error-${item.index}`)}
          </>
        );
      },
    },
    {
      title: t('race.items.nameZh'),
      key: 'zh',
      render: (_: unknown, item) => (
        <Input
          value={item.name.zh}
          onChange={(e) => change(item.index, { name: { ...item.name, zh: e.target.value } })}
          aria-label={t('race.items.nameZhOf', { code: item.code })}
          maxLength={200}
          style={{ minWidth: 130 }}
        />
      ),
    },
    {
      title: t('race.items.nameEn'),
      key: 'en',
      render: (_: unknown, item) => (
        <Input
          value={item.name.en}
          onChange={(e) => change(item.index, { name: { ...item.name, en: e.target.value } })}
          aria-label={t('race.items.nameEnOf', { code: item.code })}
          maxLength={200}
          style={{ minWidth: 130 }}
        />
      ),
    },
    {
      title: t('race.items.distance'),
      key: 'distance',
      width: 110,
      render: (_: unknown, item) => (
        <InputNumber
          value={item.distanceKm ?? null}
          min={0.1}
          max={1000}
          step={0.1}
          onChange={(value) => {
            const { distanceKm: _gone, ...rest } = item;
            void _gone;
            onChange(
              items.map((it, i) =>
                i === item.index ? (typeof value === 'number' ? { ...rest, distanceKm: value } : rest) : it,
              ) as EntryItemSettings[],
            );
          }}
          aria-label={t('race.items.distanceOf', { code: item.code })}
          style={{ width: 96 }}
        />
      ),
    },
    {
      title: t('race.items.fee'),
      key: 'fee',
      width: 130,
      render: (_: unknown, item) => {
        const message = feeError(item.index, item);
        return (
          <>
            <Input
              prefix="¥"
              value={feeTexts[item.index] ?? formatFen(item.feeFen).replaceAll(',', '')}
              onChange={(e) => {
                const text = e.target.value;
                setFeeTexts((all) => ({ ...all, [item.index]: text }));
                const fen = yuanTextToFen(text);
                if (fen !== null) change(item.index, { feeFen: fen });
              }}
              onBlur={() =>
                setFeeTexts((all) => {
                  if (all[item.index] === undefined || yuanTextToFen(all[item.index]!) === null) return all;
                  const { [item.index]: _done, ...rest } = all;
                  void _done;
                  return rest;
                })
              }
              status={message ? 'error' : undefined}
              aria-label={t('race.items.feeOf', { code: item.code })}
              aria-describedby={message ? `item-fee-error-${item.index}` : undefined}
              inputMode="decimal"
              style={{ width: 120 }}
              data-testid={`item-fee-${item.index}`}
            />
            {cell(message, `item-fee-error-${item.index}`)}
          </>
        );
      },
    },
    {
      title: t('race.items.capacity'),
      key: 'capacity',
      width: 130,
      render: (_: unknown, item) => {
        const message = capacityError(item);
        return (
          <>
            <InputNumber
              value={item.capacity}
              min={0}
              precision={0}
              onChange={(value) => change(item.index, { capacity: typeof value === 'number' ? value : -1 })}
              status={message ? 'error' : undefined}
              aria-label={t('race.items.capacityOf', { code: item.code })}
              aria-describedby={message ? `item-capacity-error-${item.index}` : undefined}
              style={{ width: 110 }}
              data-testid={`item-capacity-${item.index}`}
            />
            {cell(message, `item-capacity-error-${item.index}`)}
          </>
        );
      },
    },
    {
      title: t('race.items.taken'),
      key: 'taken',
      width: 90,
      align: 'right',
      render: (_: unknown, item) => (
        <span className="race-number" data-testid={`item-taken-${item.code}`}>
          {taken(item.code)} / {entries(item.code)}
        </span>
      ),
    },
    {
      title: t('race.items.model'),
      key: 'model',
      width: 150,
      render: (_: unknown, item) => (
        <Select
          value={item.model}
          onChange={(model) => change(item.index, { model })}
          options={ENTRY_MODELS.map((model) => ({ value: model, label: t(`race.items.models.${model}`) }))}
          aria-label={t('race.items.modelOf', { code: item.code })}
          disabled={savedCodes.has(item.code) && entries(item.code) > 0}
          style={{ width: 140 }}
          popupMatchSelectWidth={false}
        />
      ),
    },
    {
      title: t('race.items.ages'),
      key: 'ages',
      width: 150,
      render: (_: unknown, item) => (
        <Space size={4}>
          {(['minAge', 'maxAge'] as const).map((key) => (
            <InputNumber
              key={key}
              value={item[key] ?? null}
              min={0}
              max={150}
              precision={0}
              placeholder={t(`race.items.${key}`)}
              onChange={(value) => {
                const next: EntryItemSettings = { ...item };
                delete (next as Partial<EntryItemSettings>)[key];
                if (typeof value === 'number') next[key] = value;
                onChange(items.map((it, i) => (i === item.index ? next : it)));
              }}
              aria-label={t(`race.items.${key}Of`, { code: item.code })}
              style={{ width: 64 }}
            />
          ))}
        </Space>
      ),
    },
    {
      title: t('race.items.actions'),
      key: 'actions',
      width: 70,
      render: (_: unknown, item) => {
        const held = entries(item.code);
        const button = (
          <Button
            type="text"
            danger
            icon={<DeleteOutlined aria-hidden />}
            disabled={held > 0}
            onClick={() => onChange(items.filter((_, i) => i !== item.index))}
            aria-label={t('race.items.removeOf', { code: item.code })}
          />
        );
        return held > 0 ? <Tooltip title={t('race.items.cannotRemove', { count: held })}>{button}</Tooltip> : button;
      },
    },
  ];

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary">{t('race.items.help')}</Typography.Paragraph>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
      <div role="region" aria-label={t('race.items.title')} tabIndex={0} className="race-scroll">
        <Table
          rowKey="index"
          size="small"
          dataSource={items.map((item, index) => ({ ...item, index }))}
          columns={columns}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <span className="race-empty">{t('race.items.empty')}</span> }}
          data-testid="race-items"
        />
      </div>
      <Button
        icon={<PlusOutlined aria-hidden />}
        onClick={() =>
          onChange([...items, { code: '', name: { zh: '', en: '' }, capacity: 0, feeFen: 0, model: 'firstCome' }])
        }
        data-testid="item-add"
      >
        {t('race.items.add')}
      </Button>
    </Space>
  );
}
