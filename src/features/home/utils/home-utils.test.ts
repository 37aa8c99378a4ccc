import { homeConfig, homeRace, chinaTime } from '@/testing/fixtures/home';
import { testConfig, testRace } from '@/testing/fixtures/site';
import { moduleAction, searchEntry } from './module-action';
import { pickHeadlines, pickNewest } from './news';
import { parseRaceItems } from './race-items';
import { getSignUpInfo, signUpState } from '@/lib/sign-up-state';
import { signUpWindow } from '#contract/entry';

describe('sign-up window', () => {
  const noWindow = { ...homeRace, signUpStartTime: undefined, signUpEndTime: undefined };
  const openModule = () => {
    const config = homeConfig();
    config.searchConfigList![0] = { ...config.searchConfigList![0], openStatus: 1 };
    return config;
  };

  it('takes the dates and title of the moduleType 1 item when the race has no window', () => {
    const info = getSignUpInfo(homeConfig(), noWindow)!;
    expect(info.start).toBe(chinaTime('2027-01-10 10:00:00'));
    expect(info.end).toBe(chinaTime('2027-01-24 18:00:00'));
    expect(info.titleEn).toBe('Registration period');
  });

  it("takes the race's own window (the one the server keeps) over the module's", () => {
    const info = getSignUpInfo(homeConfig(), homeRace)!;
    expect(info.start).toBe(chinaTime('2027-01-05 09:00:00'));
    expect(info.end).toBe(chinaTime('2027-01-20 18:00:00'));
    expect(info.titleEn).toBe('Registration period');
  });

  it("falls back to the race's dates when the module has none", () => {
    const info = getSignUpInfo(testConfig(), homeRace)!;
    expect(info.start).toBe(chinaTime('2027-01-05 09:00:00'));
    expect(info.end).toBe(chinaTime('2027-01-20 18:00:00'));
  });

  it("uses the race's own sign-up link when there is no sign-up module", () => {
    const config = { ...testConfig(), searchConfigList: [] };
    const info = getSignUpInfo(config, { ...homeRace, signUpUrl: 'https://reg.example/', signUpOpenStatus: 1 })!;
    expect(moduleAction(info.action, 'zh', 'closed')).toEqual({ kind: 'external', href: 'https://reg.example/' });
    expect(getSignUpInfo(config, testRace)).toBeNull();
  });

  it('ignores a window that ends before it starts', () => {
    const config = homeConfig();
    config.searchConfigList![0] = {
      ...config.searchConfigList![0],
      signUpStartTime: '2027-02-01 00:00:00',
      signUpEndTime: '2027-01-01 00:00:00',
    };
    const info = getSignUpInfo(config, testRace)!;
    expect([info.start, info.end]).toEqual([null, null]);
    expect(signUpState(info, Date.now())).toBe('unscheduled');
  });

  it('is upcoming, open, then closed', () => {
    const info = getSignUpInfo(openModule(), noWindow)!;
    expect(signUpState(info, chinaTime('2027-01-10 09:59:59'))).toBe('upcoming');
    expect(signUpState(info, chinaTime('2027-01-10 10:00:00'))).toBe('open');
    expect(signUpState(info, chinaTime('2027-01-24 17:59:59'))).toBe('open');
    expect(signUpState(info, chinaTime('2027-01-24 18:00:00'))).toBe('closed');
  });

  it("follows the race's sign-up state as the server does (contract signUpWindow)", () => {
    const at = chinaTime('2027-01-10 12:00:00');
    const state = (race: typeof homeRace) => signUpState(getSignUpInfo(openModule(), race)!, at);
    expect(state(homeRace)).toBe('open');
    expect(signUpWindow(homeRace, at)).toBe('open');
    // entry-close: signUpOpenStatus 0, and a race that never opened entry.
    expect(state({ ...homeRace, signUpOpenStatus: 0 })).toBe('closed');
    expect(state({ ...homeRace, signUpOpenStatus: undefined })).toBe('closed');
    expect(signUpWindow({ ...homeRace, signUpOpenStatus: 0 }, at)).toBe('closed');
    expect(state({ ...homeRace, signUpEndTime: '2027-01-10 12:00:00' })).toBe('closed');
    expect(state({ ...noWindow, signUpOpenStatus: 0 })).toBe('closed');
  });

  it('is never open while the sign-up module is switched off; before the window it is still upcoming', () => {
    const info = getSignUpInfo(homeConfig(), homeRace)!;
    expect(signUpState(info, chinaTime('2027-01-01 00:00:00'))).toBe('upcoming');
    expect(signUpState(info, chinaTime('2027-01-10 12:00:00'))).toBe('closed');
  });
});

describe('module actions', () => {
  const base = { openStatus: 1 as const, jumpType: 2 as const };
  it('follows jumpType when open and shows the dialog text when closed', () => {
    expect(moduleAction({ ...base, jumpUrl: '/score-search' }, 'zh', 'x')).toEqual({
      kind: 'internal',
      to: '/score-search',
    });
    expect(moduleAction({ ...base, jumpType: 1, jumpUrl: 'reg.example' }, 'zh', 'x')).toEqual({
      kind: 'external',
      href: '//reg.example',
    });
    expect(
      moduleAction({ openStatus: 0, jumpType: 2, dialogText: '未开始', dialogTextEn: 'Not yet' }, 'en', 'x'),
    ).toEqual({ kind: 'notice', text: 'Not yet' });
    expect(moduleAction({ openStatus: 0, jumpType: 2 }, 'en', 'Not open yet, stay tuned')).toEqual({
      kind: 'notice',
      text: 'Not open yet, stay tuned',
    });
    expect(moduleAction({ ...base, jumpUrl: 'javascript:alert(1)' }, 'zh', 'closed')).toEqual({
      kind: 'notice',
      text: 'closed',
    });
  });

  it('finds the registration and score search entries, else the built-in pages', () => {
    expect(searchEntry(homeConfig(), 3)).toMatchObject({ jumpUrl: '/score-search', openStatus: 1 });
    expect(searchEntry({ scoreSearch: { openStatus: 0, dialogText: '敬请期待' } }, 3)).toMatchObject({
      openStatus: 0,
      jumpUrl: '/score-search',
    });
    expect(searchEntry(null, 2)).toEqual({ openStatus: 1, jumpType: 2, jumpUrl: '/registration-search' });
  });
});

describe('news order and race items', () => {
  const docs = [
    { id: 1, title: 'old', time: 1 },
    { id: 2, title: 'pinned', time: 2, recommend: true },
    { id: 3, title: 'new', time: 3 },
    { id: 4, title: 'no date' },
  ];
  it('puts recommended documents first, then the newest', () => {
    expect(pickHeadlines(docs, 3).map((d) => d.id)).toEqual([2, 3, 1]);
    expect(pickNewest(docs, 2).map((d) => d.id)).toEqual([3, 2]);
  });

  it('reads the race items and survives a broken setting', () => {
    expect(parseRaceItems(homeRace.itemTimeSetting).map((i) => [i.nameEn, i.distanceKm])).toEqual([
      ['Marathon', 42.195],
      ['10 km', 10],
    ]);
    expect(parseRaceItems('{not json')).toEqual([]);
    expect(parseRaceItems('{"a":1}')).toEqual([]);
    expect(parseRaceItems('[null, {"itemName": 3}, {"itemName": "5公里"}]')).toHaveLength(1);
  });
});
