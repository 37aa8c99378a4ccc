import { describe, expect, it } from 'vitest';
import {
  closedChannels,
  codeState,
  entryRefusalFor,
  entryStateFor,
  itemChannels,
  type EntryClosure,
} from '#contract/season';

// 2025-06-16 10:00 China time: inside the window below.
const NOW = Date.UTC(2025, 5, 16, 2, 0, 0);
const RACE = {
  signUpOpenStatus: 1,
  signUpStartTime: '2025-06-01 10:00:00',
  signUpEndTime: '2025-07-01 18:00:00',
  timeZone: 'Asia/Shanghai',
};

describe('entryStateFor: may someone sign up for item I by channel C now', () => {
  it('follows the race where nothing is closed', () => {
    expect(entryStateFor(RACE, [], 'M', 'public', NOW)).toBe('open');
    expect(entryStateFor({ ...RACE, signUpOpenStatus: 0 }, [], 'M', 'public', NOW)).toBe('closed');
    expect(entryStateFor(RACE, [], 'M', 'team', Date.UTC(2025, 4, 1))).toBe('notYet');
    expect(entryStateFor(RACE, [], 'M', 'charity', Date.UTC(2025, 7, 1))).toBe('ended');
  });

  it('lets a code in while public entry is closed, unless a switch closes its item or channel', () => {
    const closedRace = { ...RACE, signUpOpenStatus: 0 };
    expect(entryStateFor(closedRace, [], 'M', 'code', NOW)).toBe('open');
    expect(entryStateFor(closedRace, [{ itemCode: 'M', channel: '' }], 'M', 'code', NOW)).toBe('closed');
    expect(entryStateFor(closedRace, [{ itemCode: '', channel: 'code' }], 'H', 'code', NOW)).toBe('closed');
  });

  it('closes one item’s channel, an item on every channel, or a channel on every item', () => {
    const one: EntryClosure[] = [{ itemCode: 'M', channel: 'public' }];
    expect(entryStateFor(RACE, one, 'M', 'public', NOW)).toBe('closed');
    expect(entryStateFor(RACE, one, 'M', 'team', NOW)).toBe('open');
    expect(entryStateFor(RACE, one, 'H', 'public', NOW)).toBe('open');
    const item: EntryClosure[] = [{ itemCode: 'M', channel: '' }];
    expect(entryStateFor(RACE, item, 'M', 'charity', NOW)).toBe('closed');
    expect(entryStateFor(RACE, item, 'H', 'charity', NOW)).toBe('open');
    const channel: EntryClosure[] = [{ itemCode: '', channel: 'direct' }];
    expect(entryStateFor(RACE, channel, 'H', 'direct', NOW)).toBe('closed');
    expect(entryStateFor(RACE, channel, 'H', 'public', NOW)).toBe('open');
    expect(closedChannels([...one, ...channel], 'M')).toEqual(['public', 'direct']);
  });

  it('names the refusal: a switch before the window', () => {
    expect(entryRefusalFor(RACE, [], 'M', 'public', NOW)).toBeNull();
    expect(entryRefusalFor(RACE, [{ itemCode: 'M', channel: '' }], 'M', 'public', NOW)).toBe('entryChannelClosed');
    expect(entryRefusalFor({ ...RACE, signUpOpenStatus: 0 }, [], 'M', 'public', NOW)).toBe('entryClosed');
    expect(entryRefusalFor(RACE, [], 'M', 'public', Date.UTC(2025, 4, 1))).toBe('entryNotOpen');
  });
});

describe('itemChannels and codeState', () => {
  it('offers the channels an item has', () => {
    expect(itemChannels({}, undefined)).toEqual(['public', 'direct', 'code']);
    expect(itemChannels({ codeOnly: true }, undefined)).toEqual(['code']);
    expect(
      itemChannels({ teams: { minSize: 2, maxSize: 5 }, charity: { capacity: 1, feeFen: 1 } }, { directPass: false }),
    ).toEqual(['public', 'code', 'team', 'charity']);
    expect(itemChannels({}, undefined, false)).toEqual(['public', 'code']);
  });

  it('reads revoked before used up before expired', () => {
    const code = { used: 0, maxUses: 1, expiresAt: null, revokedAt: null };
    expect(codeState(code, NOW)).toBe('usable');
    expect(codeState({ ...code, used: 1 }, NOW)).toBe('usedUp');
    expect(codeState({ ...code, expiresAt: NOW }, NOW)).toBe('expired');
    expect(codeState({ ...code, used: 1, revokedAt: NOW - 1 }, NOW)).toBe('revoked');
  });
});
