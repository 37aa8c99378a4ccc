import { describe, expect, it } from 'vitest';
import {
  DIRECT_ENDED_LABEL,
  DIRECT_LIST_LABELS,
  DIRECT_STATUS_LABELS,
  DIRECT_STATUS_LIST,
  deadlineState,
  isDirectStatus,
  windowState,
} from '#contract/registration-screens';
import zhCommon from '@/locales/zh/common.json';
import enCommon from '@/locales/en/common.json';

const at = (iso: string) => Date.parse(iso);
const window = { startTime: '2027-01-01 10:00:00', endTime: '2027-01-08 18:00:00' };

describe('windowState', () => {
  it('reads the window on the race clock: start inclusive, end exclusive', () => {
    expect(windowState(window, at('2027-01-01T01:59:59Z'))).toBe('notYet');
    expect(windowState(window, at('2027-01-01T02:00:00Z'))).toBe('open');
    expect(windowState(window, at('2027-01-08T09:59:59Z'))).toBe('open');
    expect(windowState(window, at('2027-01-08T10:00:00Z'))).toBe('ended');
    // The same wall-clock times in London are eight hours later.
    expect(windowState(window, at('2027-01-01T09:59:59Z'), 'Europe/London')).toBe('notYet');
    expect(windowState(window, at('2027-01-01T10:00:00Z'), 'Europe/London')).toBe('open');
  });

  it('counts a missing or broken window as ended', () => {
    expect(windowState(undefined, 0)).toBe('ended');
    expect(windowState({ startTime: 'soon', endTime: window.endTime }, 0)).toBe('ended');
  });
});

describe('deadlineState', () => {
  const deadline = '2027-02-28 18:00:00';
  it('is closed when disabled or absent, open until the deadline, ended from it', () => {
    expect(deadlineState(undefined, 0)).toBe('closed');
    expect(deadlineState({ enabled: false, deadline }, 0)).toBe('closed');
    expect(deadlineState({ enabled: true, deadline }, at('2027-02-28T09:59:59Z'))).toBe('open');
    expect(deadlineState({ enabled: true, deadline }, at('2027-02-28T10:00:00Z'))).toBe('ended');
    expect(deadlineState({ enabled: true }, at('2099-01-01T00:00:00Z'))).toBe('open');
  });
});

describe('direct-pass statuses', () => {
  it('are 0-3, with a detail label each and the list labels of spec §4 (0 waiting, 1-3 submitted), in zh and en', () => {
    expect(DIRECT_STATUS_LIST.filter(isDirectStatus)).toEqual([0, 1, 2, 3]);
    expect(isDirectStatus(4)).toBe(false);
    expect(new Set([DIRECT_LIST_LABELS[1], DIRECT_LIST_LABELS[2], DIRECT_LIST_LABELS[3]]).size).toBe(1);
    expect(DIRECT_LIST_LABELS[0]).not.toBe(DIRECT_LIST_LABELS[1]);
    for (const table of [zhCommon, enCommon]) {
      const lookup = (key: string) =>
        key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], table);
      for (const key of [
        ...Object.values(DIRECT_STATUS_LABELS),
        ...Object.values(DIRECT_LIST_LABELS),
        DIRECT_ENDED_LABEL,
      ]) {
        expect(typeof lookup(key), key).toBe('string');
      }
    }
    expect(zhCommon.enums.directListStatuses).toEqual({ draft: '待提交', submitted: '已提交' });
  });
});
