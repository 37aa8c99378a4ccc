/**
 * Pack pick-up (race.json packPickup) as a form: on or off, where, what to bring, the booking deadline, and the
 * days with their slots (start, end, capacity), each slot's bookings beside it: a capacity below them, or a
 * booked slot removed, is refused when the race is saved (the pick-up page changes capacities one at a time).
 */
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { Button, Form, Input, InputNumber, Space, Switch, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_SLOT_CAPACITY, pickupSlotId, SLOT_TIME_PATTERN, type PackPickupSettings } from '#contract/after-entry';
import { RaceTimeInput, useRaceTimeError } from '../../lib/race-fields';

interface SlotRow {
  key: string;
  day: number;
  slot: number;
  date: string;
  start: string;
  end: string;
  capacity: number;
}

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function PickupEditor({
  pickup,
  slots,
  onChange,
  fallbackDeadline,
}: {
  pickup: PackPickupSettings | undefined;
  slots: { slotId: string; capacity: number; booked: number }[];
  onChange: (pickup: PackPickupSettings | undefined) => void;
  fallbackDeadline: string;
}) {
  const { t } = useTranslation();
  const deadlineError = useRaceTimeError(pickup?.deadline, pickup !== undefined);
  const booked = (date: string, start: string) =>
    slots.find((s) => s.slotId === pickupSlotId(date, start))?.booked ?? 0;

  if (!pickup) {
    return (
      <Space direction="vertical">
        <Typography.Paragraph type="secondary">{t('race.pickup.none')}</Typography.Paragraph>
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() =>
            onChange({
              enabled: false,
              location: { zh: '', en: '' },
              notice: { zh: '', en: '' },
              deadline: fallbackDeadline,
              days: [],
            })
          }
        >
          {t('race.pickup.add')}
        </Button>
      </Space>
    );
  }

  const set = (patch: Partial<PackPickupSettings>) => onChange({ ...pickup, ...patch });
  const setSlot = (row: SlotRow, patch: Partial<{ date: string; start: string; end: string; capacity: number }>) => {
    const days = pickup.days.map((day) => ({ ...day, slots: day.slots.map((slot) => ({ ...slot })) }));
    const day = days[row.day]!;
    if (patch.date !== undefined) day.date = patch.date;
    Object.assign(day.slots[row.slot]!, {
      ...(patch.start === undefined ? {} : { start: patch.start }),
      ...(patch.end === undefined ? {} : { end: patch.end }),
      ...(patch.capacity === undefined ? {} : { capacity: patch.capacity }),
    });
    set({ days });
  };
  const removeSlot = (row: SlotRow) => {
    const days = pickup.days
      .map((day, d) => (d === row.day ? { ...day, slots: day.slots.filter((_, s) => s !== row.slot) } : day))
      .filter((day) => day.slots.length > 0);
    set({ days });
  };
  const addSlot = () => {
    const last = pickup.days.at(-1);
    const date = last?.date ?? fallbackDeadline.slice(0, 10);
    set({ days: [...pickup.days, { date, slots: [{ start: '09:00', end: '12:00', capacity: 0 }] }] });
  };

  const rows: SlotRow[] = pickup.days.flatMap((day, d) =>
    day.slots.map((slot, s) => ({ key: `${d}-${s}`, day: d, slot: s, date: day.date, ...slot })),
  );
  const columns: TableColumnsType<SlotRow> = [
    {
      title: t('race.pickup.date'),
      key: 'date',
      render: (_: unknown, row) => (
        <Input
          value={row.date}
          onChange={(e) => setSlot(row, { date: e.target.value.trim() })}
          status={DATE_PATTERN.test(row.date) ? undefined : 'error'}
          placeholder="2027-04-15"
          aria-label={t('race.pickup.dateOf', { n: rows.indexOf(row) + 1 })}
          style={{ width: 130 }}
        />
      ),
    },
    ...(['start', 'end'] as const).map((key) => ({
      title: t(`race.pickup.${key}`),
      key,
      render: (_: unknown, row: SlotRow) => (
        <Input
          value={row[key]}
          onChange={(e) => setSlot(row, { [key]: e.target.value.trim() })}
          status={SLOT_TIME_PATTERN.test(row[key]) ? undefined : 'error'}
          placeholder="09:00"
          aria-label={t(`race.pickup.${key}Of`, { n: rows.indexOf(row) + 1 })}
          style={{ width: 90 }}
        />
      ),
    })),
    {
      title: t('race.pickup.capacity'),
      key: 'capacity',
      render: (_: unknown, row) => {
        const held = booked(row.date, row.start);
        const below = row.capacity < held;
        return (
          <Space direction="vertical" size={0}>
            <InputNumber
              value={row.capacity}
              min={0}
              max={MAX_SLOT_CAPACITY}
              precision={0}
              status={below ? 'error' : undefined}
              onChange={(value) => setSlot(row, { capacity: typeof value === 'number' ? value : 0 })}
              aria-label={t('race.pickup.capacityOf', { n: rows.indexOf(row) + 1 })}
            />
            {below && <Typography.Text type="danger">{t('race.pickup.belowBooked', { booked: held })}</Typography.Text>}
          </Space>
        );
      },
    },
    {
      title: t('race.pickup.booked'),
      key: 'booked',
      align: 'right',
      render: (_: unknown, row) => booked(row.date, row.start),
    },
    {
      title: t('race.items.actions'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined aria-hidden />}
          disabled={booked(row.date, row.start) > 0}
          onClick={() => removeSlot(row)}
          aria-label={t('race.pickup.removeOf', { n: rows.indexOf(row) + 1 })}
        />
      ),
    },
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space>
        <Switch id="race-pickup" checked={pickup.enabled} onChange={(enabled) => set({ enabled })} />
        <label htmlFor="race-pickup">{t('race.pickup.enabled')}</label>
      </Space>
      <Form layout="vertical" className="race-grid">
        {(['zh', 'en'] as const).map((lang) => (
          <Form.Item
            key={`location-${lang}`}
            label={t(`race.pickup.location_${lang}`)}
            htmlFor={`race-pickup-location-${lang}`}
          >
            <Input
              id={`race-pickup-location-${lang}`}
              value={pickup.location[lang]}
              onChange={(e) => set({ location: { ...pickup.location, [lang]: e.target.value } })}
              maxLength={200}
            />
          </Form.Item>
        ))}
        {(['zh', 'en'] as const).map((lang) => (
          <Form.Item
            key={`notice-${lang}`}
            label={t(`race.pickup.notice_${lang}`)}
            htmlFor={`race-pickup-notice-${lang}`}
          >
            <Input.TextArea
              id={`race-pickup-notice-${lang}`}
              value={pickup.notice[lang]}
              onChange={(e) => set({ notice: { ...pickup.notice, [lang]: e.target.value } })}
              autoSize={{ minRows: 2, maxRows: 6 }}
              maxLength={2000}
            />
          </Form.Item>
        ))}
        <Form.Item
          label={t('race.pickup.deadline')}
          htmlFor="race-pickup-deadline"
          validateStatus={deadlineError ? 'error' : undefined}
          help={deadlineError || undefined}
        >
          <RaceTimeInput id="race-pickup-deadline" value={pickup.deadline} onChange={(deadline) => set({ deadline })} />
        </Form.Item>
      </Form>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a table wider than the screen scrolls: the keyboard must reach it */}
      <div role="region" aria-label={t('race.pickup.slots')} tabIndex={0} className="race-scroll">
        <Table<SlotRow>
          rowKey="key"
          size="small"
          dataSource={rows}
          columns={columns}
          pagination={false}
          locale={{ emptyText: <span className="race-empty">{t('race.pickup.noSlots')}</span> }}
        />
      </div>
      <Space>
        <Button icon={<PlusOutlined aria-hidden />} onClick={addSlot}>
          {t('race.pickup.addSlot')}
        </Button>
        <Button danger onClick={() => onChange(undefined)} disabled={slots.some((s) => s.booked > 0)}>
          {t('race.pickup.remove')}
        </Button>
      </Space>
    </Space>
  );
}
