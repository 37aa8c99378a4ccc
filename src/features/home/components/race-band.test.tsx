import { act, screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { chinaTime, homeConfig, homeRace } from '@/testing/fixtures/home';
import { testConfig, testRace } from '@/testing/fixtures/site';

/** Fakes the clock (Date and the countdown's interval); other timers stay real so the page can load. */
function setClock(at: string) {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(chinaTime(at));
}

afterEach(() => {
  vi.useRealTimers();
});

const value = (unit: string) => screen.getByTestId(`countdown-${unit}`).textContent;

describe('countdown', () => {
  it('counts down to the start in days, hours, minutes and seconds, ticking each second', async () => {
    setClock('2027-04-16 05:28:58');
    await renderApp({ config: homeConfig(), race: homeRace });
    const countdown = await screen.findByTestId('countdown');
    expect(countdown).toHaveAttribute('data-phase', 'before');
    expect(within(countdown).getByText('距离比赛开始还有')).toBeInTheDocument();
    expect([value('days'), value('hours'), value('minutes'), value('seconds')]).toEqual(['2', '02', '01', '02']);
    expect(countdown).toHaveTextContent('2027.04.18 07:30');
    expect(countdown).toHaveTextContent('北京时间');

    // Effects still pending (a late re-render on a loaded machine) register the ticking interval first: an
    // advance before that would move the clock without a tick to show it (seen once in CI).
    await act(async () => {});
    act(() => vi.advanceTimersByTime(1000));
    expect(value('seconds')).toBe('01');
    act(() => vi.advanceTimersByTime(2000));
    expect([value('minutes'), value('seconds')]).toEqual(['00', '59']);
  });

  it('reads the start as China time (UTC+8) whatever the clock of the visitor says', async () => {
    // One second before 07:30 in Qingchuan is 23:29:59 UTC the day before.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date(Date.UTC(2027, 3, 17, 23, 29, 59)));
    await renderApp({ config: homeConfig(), race: homeRace });
    await screen.findByTestId('countdown');
    expect([value('days'), value('hours'), value('minutes'), value('seconds')]).toEqual(['0', '00', '00', '01']);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('countdown')).toHaveAttribute('data-phase', 'during');
  });

  it('reads and shows the start on the clock of the zone the race names', async () => {
    // One second before 07:30 in London (summer time, UTC+1) is 06:29:59 UTC.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(new Date(Date.UTC(2027, 3, 18, 6, 29, 59)));
    await renderApp({ config: homeConfig(), race: { ...homeRace, timeZone: 'Europe/London' }, language: 'en' });
    const countdown = await screen.findByTestId('countdown');
    expect([value('days'), value('hours'), value('minutes'), value('seconds')]).toEqual(['0', '00', '00', '01']);
    expect(countdown).toHaveTextContent('2027.04.18 07:30');
    expect(countdown).toHaveTextContent('GMT+1');
    expect(countdown).not.toHaveTextContent('UTC+8');
  });

  it('shows "race in progress" between the start and the end', async () => {
    setClock('2027-04-18 09:00:00');
    await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const countdown = await screen.findByTestId('countdown');
    expect(countdown).toHaveAttribute('data-phase', 'during');
    expect(within(countdown).getByRole('heading')).toHaveTextContent('Race in progress');
    expect(within(countdown).queryByRole('timer')).not.toBeInTheDocument();
  });

  it('shows "race finished" with a link to the score search after the end', async () => {
    setClock('2027-04-18 14:00:00');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const countdown = await screen.findByTestId('countdown');
    expect(countdown).toHaveAttribute('data-phase', 'after');
    expect(countdown).toHaveTextContent('Race finished');
    await user.click(within(countdown).getByRole('link', { name: /Find your result/ }));
    expect(router.state.location.pathname).toBe('/score-search');
  });

  it('without an end time the race lasts until midnight of race day (China time)', async () => {
    setClock('2027-04-18 23:59:00');
    await renderApp({ config: homeConfig(), race: { ...homeRace, endTime: undefined } });
    expect(await screen.findByTestId('countdown')).toHaveAttribute('data-phase', 'during');
  });

  it('hides when the race has no valid start time', async () => {
    await renderApp({ config: homeConfig(), race: { ...homeRace, startTime: '2027-04-31 07:30:00' } });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('countdown')).not.toBeInTheDocument();
    expect(screen.getByTestId('register-now')).toBeInTheDocument();
  });

  it('leaves the whole band out when there is neither a start time nor a sign-up window', async () => {
    await renderApp({ config: { ...testConfig(), searchConfigList: [] }, race: { ...testRace, startTime: 'soon' } });
    await screen.findByTestId('home-page');
    expect(screen.queryByTestId('race-band')).not.toBeInTheDocument();
  });
});

/** The home configuration with its sign-up module switched on (homeConfig's is off). */
function openModuleConfig() {
  const config = homeConfig();
  config.searchConfigList![0] = { ...config.searchConfigList![0], openStatus: 1 };
  return config;
}

describe('sign-up window (register now)', () => {
  it("is not yet open before the race's window, with its dates, the module's title and the days to go", async () => {
    setClock('2027-01-02 09:00:00');
    await renderApp({ config: homeConfig(), race: homeRace });
    const box = await screen.findByTestId('register-now');
    expect(box).toHaveAttribute('data-state', 'upcoming');
    expect(within(box).getByRole('heading')).toHaveTextContent('报名时间北京时间');
    expect(screen.getByTestId('signup-state')).toHaveTextContent('即将开始');
    expect(screen.getByTestId('signup-window')).toHaveTextContent('2027.01.05 09:00至2027.01.20 18:00');
    expect(box).toHaveTextContent('距报名开始还有 3 天');
    expect(within(box).getByRole('button')).toHaveTextContent('立即报名');
  });

  it('is open inside the window (English)', async () => {
    setClock('2027-01-19 18:00:00');
    await renderApp({ config: openModuleConfig(), race: homeRace, language: 'en' });
    const box = await screen.findByTestId('register-now');
    expect(box).toHaveAttribute('data-state', 'open');
    expect(box).toHaveTextContent('Registration open');
    expect(box).toHaveTextContent('Registration closes in 1 day');
    expect(screen.getByTestId('signup-window')).toHaveTextContent('2027.01.05 09:00to2027.01.20 18:00');
    expect(within(box).getByRole('heading')).toHaveTextContent('Registration periodUTC+8');
    expect(within(box).getByRole('button')).toHaveTextContent('Register now');
  });

  it('is closed after the end', async () => {
    setClock('2027-02-01 00:00:00');
    await renderApp({ config: homeConfig(), race: homeRace });
    const box = await screen.findByTestId('register-now');
    expect(box).toHaveAttribute('data-state', 'closed');
    expect(screen.getByTestId('signup-state')).toHaveTextContent('报名已截止');
    expect(within(box).getByRole('button')).toHaveTextContent('报名查询');
  });

  it("shows the race's own window, which the server's sign-up keeps, over the module's dates", async () => {
    setClock('2027-01-06 00:00:00');
    await renderApp({ config: openModuleConfig(), race: homeRace });
    expect(await screen.findByTestId('signup-window')).toHaveTextContent('2027.01.05 09:00至2027.01.20 18:00');
    expect(screen.getByTestId('register-now')).toHaveAttribute('data-state', 'open');
  });

  it("shows the module's dates when the race has no window of its own", async () => {
    setClock('2027-01-11 00:00:00');
    const race = { ...homeRace, signUpStartTime: undefined, signUpEndTime: undefined };
    await renderApp({ config: openModuleConfig(), race });
    expect(await screen.findByTestId('signup-window')).toHaveTextContent('2027.01.10 10:00至2027.01.24 18:00');
    expect(screen.getByTestId('register-now')).toHaveAttribute('data-state', 'open');
  });

  it.each([
    ['zh', '报名已截止', '报名查询', '报名已截止，可在报名查询中查看报名状态'],
    [
      'en',
      'Registration closed',
      'Check my entry',
      'Registration is closed. Check your entry under Registration search.',
    ],
  ] as const)(
    'reads closed inside the window once the organiser closes entry (signUpOpenStatus 0, entry-close) (%s)',
    async (language, state, button, notice) => {
      setClock('2027-01-10 12:00:00');
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await renderApp({ config: openModuleConfig(), race: { ...homeRace, signUpOpenStatus: 0 }, language });
      const box = await screen.findByTestId('register-now');
      expect(box).toHaveAttribute('data-state', 'closed');
      expect(screen.getByTestId('signup-state')).toHaveTextContent(state);
      expect(within(box).getByRole('button')).toHaveTextContent(button);
      // The sign-up module above says the same, and choosing it says entry has closed.
      const module = screen.getByTestId('search-module-1');
      expect(module).toHaveAttribute('data-closed', 'true');
      expect(module).toHaveTextContent(state);
      await user.click(module);
      expect(await screen.findByTestId('search-dialog-text')).toHaveTextContent(notice);
    },
  );

  it('reads closed inside the window while the sign-up module is switched off (openStatus 0)', async () => {
    setClock('2027-01-10 12:00:00');
    await renderApp({ config: homeConfig(), race: homeRace, language: 'en' });
    const box = await screen.findByTestId('register-now');
    expect(box).toHaveAttribute('data-state', 'closed');
    expect(box).toHaveTextContent('Registration closed');
    expect(screen.getByTestId('search-module-1')).toHaveAttribute('data-closed', 'true');
  });

  it('says the dates are to be announced when there are none', async () => {
    await renderApp({ config: testConfig(), race: testRace, language: 'en' });
    expect(await screen.findByTestId('signup-window')).toHaveTextContent('Registration dates to be announced');
    expect(screen.queryByTestId('signup-state')).not.toBeInTheDocument();
  });
});

describe('sign-up-or-search dialog', () => {
  it('offers sign up and registration search; a closed sign-up shows its dialog text', async () => {
    const user = userEvent.setup();
    await renderApp({ config: homeConfig(), race: homeRace });
    await user.click(within(await screen.findByTestId('register-now')).getByRole('button', { name: '立即报名' }));
    const dialog = await screen.findByTestId('signup-dialog');
    expect(within(dialog).getByRole('button', { name: /报名查询/ })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /我要报名/ }));
    expect(await screen.findByTestId('signup-dialog-notice')).toHaveTextContent('报名暂未开始');
    await user.click(screen.getByRole('button', { name: '返回' }));
    await waitFor(() => expect(screen.getByTestId('signup-dialog')).toBeInTheDocument());
  });

  it("shows 'Not open yet, stay tuned' when a closed sign-up has no dialog text (English)", async () => {
    const user = userEvent.setup();
    const config = homeConfig();
    config.searchConfigList![0] = { ...config.searchConfigList![0], dialogText: undefined, dialogTextEn: undefined };
    await renderApp({ config, race: homeRace, language: 'en' });
    await user.click(within(await screen.findByTestId('register-now')).getByRole('button', { name: 'Register now' }));
    await user.click(within(await screen.findByTestId('signup-dialog')).getByRole('button', { name: /Sign up/ }));
    expect(await screen.findByTestId('signup-dialog-notice')).toHaveTextContent('Not open yet, stay tuned');
  });

  it('goes to the registration search page', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ config: homeConfig(), race: homeRace });
    await user.click(within(await screen.findByTestId('register-now')).getByRole('button'));
    await user.click(within(await screen.findByTestId('signup-dialog')).getByRole('button', { name: /报名查询/ }));
    expect(router.state.location.pathname).toBe('/registration-search');
  });

  it('follows an open internal sign-up to its route', async () => {
    const user = userEvent.setup();
    const config = homeConfig();
    config.searchConfigList![0] = { ...config.searchConfigList![0], openStatus: 1 };
    const { router } = await renderApp({ config, race: homeRace });
    await user.click(within(await screen.findByTestId('register-now')).getByRole('button'));
    await user.click(within(await screen.findByTestId('signup-dialog')).getByRole('button', { name: /我要报名/ }));
    expect(router.state.location.pathname).toBe('/direct');
  });

  it('opens an open external sign-up in a new tab', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const config = homeConfig();
    config.searchConfigList![0] = {
      ...config.searchConfigList![0],
      openStatus: 1,
      jumpType: 1,
      jumpUrl: 'https://reg.example/2027',
    };
    await renderApp({ config, race: homeRace });
    await user.click(within(await screen.findByTestId('register-now')).getByRole('button'));
    await user.click(within(await screen.findByTestId('signup-dialog')).getByRole('button', { name: /我要报名/ }));
    expect(open).toHaveBeenCalledWith('https://reg.example/2027', '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });
});
