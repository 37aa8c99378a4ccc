import { describe, expect, it } from 'vitest';
import { entryServices, pickupSlotTimes, type PackPickupSettings } from './after-entry';
import { ENTRY_STATUSES } from './entry';

describe('entryServices', () => {
  const refunds = { allowed: true, until: '2027-03-01 18:00', sharePercent: 80 };
  const deferral = { allowed: true, until: '2027-03-01 18:00' };

  it('links a refund when the race allows refunds, with or without deferral', () => {
    expect(entryServices({ entry: { refunds } }, ENTRY_STATUSES.won)).toEqual(['refund']);
    expect(entryServices({ entry: { refunds: { ...refunds, deferral } } }, ENTRY_STATUSES.won)).toEqual(['refund']);
  });

  it('links a deferral when the race allows deferral but no refunds', () => {
    expect(entryServices({ entry: { refunds: { ...refunds, allowed: false, deferral } } }, ENTRY_STATUSES.won)).toEqual(
      ['deferral'],
    );
    expect(entryServices({ entry: { refunds: { ...refunds, allowed: false } } }, ENTRY_STATUSES.won)).toEqual([]);
    expect(
      entryServices({ entry: { refunds: { ...refunds, allowed: false, deferral } } }, ENTRY_STATUSES.submitted),
    ).toEqual([]);
  });
});

describe('pickupSlotTimes', () => {
  const settings = {
    days: [{ date: '2027-04-15', slots: [{ start: '09:00', end: '11:00', capacity: 10 }] }],
  } as PackPickupSettings;

  it("gives a slot's day, start and end by its id, or null when the settings have no such slot", () => {
    expect(pickupSlotTimes(settings, '2027-04-15 09:00')).toEqual({ date: '2027-04-15', start: '09:00', end: '11:00' });
    expect(pickupSlotTimes(settings, '2027-04-15 11:00')).toBeNull();
    expect(pickupSlotTimes(undefined, '2027-04-15 09:00')).toBeNull();
  });
});
