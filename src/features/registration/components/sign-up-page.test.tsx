import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import type { MessageCode } from '#contract/messages';
import { type Language } from '@/stores/app-store';
import { RUNNER } from '@/testing/fixtures/registration';
import { ENTRY_DRAFTS_KEY } from '@/lib/user-data';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { ENTRY_NOW, entryMock, resetEntryMock } from '@/testing/mocks/handlers/entry';
import { passSlider } from '@/testing/auth-drawer';
import { renderApp } from '@/testing/test-utils';

const message = (code: MessageCode, params?: Record<string, unknown>) => i18n.t(`messages.${code}`, params);
const open = (language: Language = 'zh') => renderApp({ path: '/my/signup', language, token: VALID_TOKEN });

const T = {
  zh: {
    open: '报名中',
    notYet: '未开始',
    ended: '已结束',
    closed: '已关闭',
    marathon: '马拉松',
    half: '半程马拉松',
    ballotModel: '报名截止后抽签，中签者须在 48 小时内完成支付。',
    firstComeModel: '先到先得：提交后须在 30 分钟内完成支付，否则名额释放。',
    payFirstModel: '先支付后抽签：提交后须在 15 分钟内支付，未中签者全额退款。',
    left: '1234 个',
    charity: '报名费 ¥3,000.00，剩余 12 个',
    choose: '选择此项目',
    code: '邀请码',
    team: '团队报名',
    check: '验证',
    submit: '提交报名',
    savePerson: '保存此参赛者',
    addPerson: '添加参赛者',
    name: '姓名',
    certificateNumber: '证件号码',
    birthday: '出生日期',
    notOpen: '当前不在报名时间内',
    createTeam: '创建',
    join: '加入团队',
    joinButton: '加入',
    done: '报名已提交',
  },
  en: {
    open: 'Open',
    notYet: 'Not open yet',
    ended: 'Ended',
    closed: 'Closed',
    marathon: 'Marathon',
    half: 'Half marathon',
    ballotModel: 'Ballot after the sign-up period; winners pay within 48 hours.',
    firstComeModel: 'First come, first served: pay within 30 minutes of entering or the place is released.',
    payFirstModel:
      'Pay first, then the draw: pay within 15 minutes of entering; entries not drawn are refunded in full.',
    left: '1234',
    charity: 'Fee ¥3,000.00, 12 left',
    choose: 'Choose this item',
    code: 'Invitation code',
    team: 'Team',
    check: 'Check',
    submit: 'Submit entry',
    savePerson: 'Save this participant',
    addPerson: 'Add another person',
    name: 'Name',
    certificateNumber: 'Certificate number',
    birthday: 'Date of birth',
    notOpen: 'Sign-up is not open now',
    createTeam: 'Create',
    join: 'Join a team',
    joinButton: 'Join',
    done: 'Entry submitted',
  },
} as const;

beforeEach(() => {
  resetEntryMock();
});

/** Types a date into an antd DatePicker and leaves it (no Enter: that would submit the form). */
async function typeDate(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, date: string) {
  await user.click(input);
  await user.clear(input);
  await user.type(input, date);
  await user.tab();
  await waitFor(() => expect(input).toHaveValue(date));
}

/** Fills one person on the entry form (name, certificate number, date of birth). */
async function fillPerson(
  user: ReturnType<typeof userEvent.setup>,
  t: (typeof T)[Language],
  person: { name: string; certificateNumber: string; birthday: string },
) {
  const form = await screen.findByTestId('entry-people');
  await user.type(within(form).getByLabelText(t.name), person.name);
  await user.type(within(form).getByLabelText(t.certificateNumber), person.certificateNumber);
  const birthday = within(form).getByLabelText(t.birthday);
  await typeDate(user, birthday, person.birthday);
}

describe.each(['zh', 'en'] as const)('the sign-up page in %s', (language) => {
  const t = T[language];

  it('shows the open window and the items as cards: name, fee, model, places left, charity places, the ballot commitment', async () => {
    await open(language);
    expect(await screen.findByTestId('entry-window-state')).toHaveTextContent(t.open);
    const marathon = screen.getByTestId('entry-item-M');
    expect(within(marathon).getByRole('heading', { name: t.marathon })).toBeInTheDocument();
    expect(within(marathon).getByTestId('entry-item-fee')).toHaveTextContent('¥200.00');
    expect(within(marathon).getByTestId('entry-item-model')).toHaveTextContent(t.ballotModel);
    expect(within(marathon).getByTestId('entry-item-ballot')).toHaveTextContent('abababababababab');
    const half = screen.getByTestId('entry-item-H');
    expect(within(half).getByRole('heading', { name: t.half })).toBeInTheDocument();
    expect(within(half).getByTestId('entry-item-fee')).toHaveTextContent('¥1,280.00');
    expect(within(half).getByTestId('entry-item-model')).toHaveTextContent(t.firstComeModel);
    expect(within(half).getByTestId('entry-item-left')).toHaveTextContent(t.left);
    expect(within(half).getByTestId('entry-item-charity')).toHaveTextContent(t.charity);
    expect(within(screen.getByTestId('entry-item-5K')).getByTestId('entry-item-model')).toHaveTextContent(
      t.payFirstModel,
    );
  });

  it('shows an item closed for the chosen channel by the organiser, with no button to choose it there', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    entryMock.info = {
      ...entryMock.info,
      items: entryMock.info.items.map((item) => (item.code === 'H' ? { ...item, closedChannels: ['public'] } : item)),
    };
    await open(language);
    const half = await screen.findByTestId('entry-item-H');
    expect(within(half).getByTestId('entry-item-closed-H')).toHaveTextContent(t.closed);
    expect(within(half).queryByRole('button', { name: t.choose })).toBeNull();
    // Another item is chosen as before; another channel of the item is not closed.
    expect(within(screen.getByTestId('entry-item-M')).getByRole('button', { name: t.choose })).toBeInTheDocument();
    expect(within(screen.getByTestId('entry-item-M')).queryByTestId('entry-item-closed-M')).toBeNull();
    await user.click(screen.getByRole('radio', { name: t.code }));
    expect(within(half).queryByTestId('entry-item-closed-H')).toBeNull();
  });

  it('links the public ballot page from an item by draw before its commitment, not from a first-come item', async () => {
    const { router } = await open(language);
    const payFirst = await screen.findByTestId('entry-item-5K');
    const link = within(payFirst).getByRole('link', {
      name: language === 'zh' ? '抽签公开、可验证：查看抽签公示' : 'A public, verifiable draw: see the ballot page',
    });
    expect(within(screen.getByTestId('entry-item-H')).queryByTestId('entry-item-ballot-how')).toBeNull();
    // The committed marathon links it beside its commitment instead.
    expect(within(screen.getByTestId('entry-item-M')).queryByTestId('entry-item-ballot-how')).toBeNull();
    await userEvent.setup().click(link);
    expect(router.state.location.pathname).toBe('/ballot');
  });

  it.each(['ended', 'closed'] as const)('says %s and offers no public entry form', async (state) => {
    entryMock.info.windowState = state;
    await open(language);
    expect(await screen.findByTestId('entry-window-state')).toHaveTextContent(t[state]);
    expect(screen.getByText(t.notOpen)).toBeInTheDocument();
    expect(screen.queryByTestId('entry-people')).toBeNull();
  });

  it('counts down to the opening before the window, on the server clock', async () => {
    entryMock.info.windowState = 'notYet';
    entryMock.info.signUpStartTime = '2027-01-12 10:30:05';
    entryMock.info.now = ENTRY_NOW; // 2027-01-10 10:00:00 in Shanghai
    await open(language);
    expect(await screen.findByTestId('entry-window-state')).toHaveTextContent(t.notYet);
    expect(screen.getByTestId('entry-countdown')).toHaveTextContent(
      language === 'zh' ? '距报名开始还有 2 天 00:30:05' : 'Sign-up opens in 2 d 00:30:05',
    );
    expect(screen.queryByTestId('entry-people')).toBeNull();
  });

  it('checks an invitation code: the item it opens, or the refusal', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await open(language);
    await user.click(await screen.findByRole('radio', { name: t.code }));
    const box = screen.getByTestId('entry-code');
    const input = within(box).getByRole('textbox');
    await user.type(input, 'nope1234');
    await user.click(within(box).getByRole('button', { name: t.check }));
    expect(await within(box).findByTestId('entry-code-error')).toHaveTextContent(message('redemptionCodeMissing'));
    await user.clear(input);
    await user.type(input, 'vip2027a');
    await user.click(within(box).getByRole('button', { name: t.check }));
    expect(await within(box).findByTestId('entry-code-ok')).toHaveTextContent(t.half);
    // The form opens with the item of the code fixed.
    const people = await screen.findByTestId('entry-people');
    const item = within(people).getByRole('radio', { name: t.half });
    expect(item).toBeChecked();
    expect(item).toBeDisabled();
  });

  it('creates a team and shows its code to share; joins a team with a code', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await open(language);
    await user.click(await screen.findByRole('radio', { name: t.team }));
    const box = screen.getByTestId('entry-team');
    await user.type(within(box).getByRole('textbox'), '运河跑团');
    await user.click(within(box).getByTestId('entry-team-create'));
    expect(await within(box).findByTestId('entry-team-code')).toHaveTextContent('TEAM8KQ2');
    expect(entryMock.teamCreated).toEqual([{ raceId: 'test-race-2027', itemCode: 'M', name: '运河跑团' }]);
    await waitFor(() => expect(screen.getByTestId('entry-people')).toBeInTheDocument());

    await user.click(within(box).getByRole('button', { name: language === 'zh' ? '换一个团队' : 'Use another team' }));
    await user.click(within(screen.getByTestId('entry-team')).getByRole('radio', { name: t.join }));
    await user.type(within(screen.getByTestId('entry-team')).getByRole('textbox'), 'team8kq2');
    await user.click(screen.getByTestId('entry-team-join'));
    const info = await screen.findByTestId('entry-team-info');
    expect(info).toHaveTextContent('运河跑团');
    expect(info).toHaveTextContent(language === 'zh' ? '已有 1 人报名' : '1 member entered');
  });

  it('submits one person of a first-come item and goes on to the order; the item field is fixed', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { router } = await open(language);
    await user.click(within(await screen.findByTestId('entry-item-H')).getByRole('button', { name: t.choose }));
    expect(screen.queryByTestId('entry-add-person')).toBeNull();
    await fillPerson(user, t, {
      name: RUNNER.name,
      certificateNumber: RUNNER.certificateNumber,
      birthday: '1990-05-01',
    });
    // Not sent before the slider check is passed; then sent with its pass.
    await user.click(screen.getByRole('button', { name: t.submit }));
    expect(await screen.findByTestId('entry-submit-error')).toHaveTextContent(i18n.t('entry.signUp.sliderFirst'));
    expect(entryMock.submitted).toHaveLength(0);
    await passSlider();
    await user.click(screen.getByRole('button', { name: t.submit }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my/order/O2027011000001'));
    expect(entryMock.submitted).toHaveLength(1);
    expect(entryMock.submitted[0]).toMatchObject({
      raceId: 'test-race-2027',
      itemCode: 'H',
      channel: 'public',
      participants: [
        {
          item: 'H',
          name: RUNNER.name,
          certificateType: 1,
          certificateNumber: RUNNER.certificateNumber,
          birthday: '1990-05-01',
        },
      ],
    });
    expect(entryMock.submitted[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(entryMock.submitted[0]?.captcha).toEqual({
      token: 'nc-token-1',
      sig: 'sig-1',
      sessionId: 'slider-session-1',
      scene: 'message_h5',
    });
  });

  it('checks the age on race day before sending, and keeps the idempotency key when the same entry is retried', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await open(language);
    await user.click(within(await screen.findByTestId('entry-item-M')).getByRole('button', { name: t.choose }));
    // 17 on race day (2027-04-18): too young for the marathon (18–70).
    await fillPerson(user, t, {
      name: RUNNER.name,
      certificateNumber: RUNNER.certificateNumber,
      birthday: '2009-04-19',
    });
    await user.click(screen.getByRole('button', { name: t.submit }));
    await waitFor(() => expect(screen.getByText(message('entryTooYoung', { min: 18 }))).toBeInTheDocument());
    expect(entryMock.submitted).toHaveLength(0);

    await typeDate(user, screen.getByLabelText(t.birthday), '2009-04-18');
    entryMock.refuseFields = { '0.certificateNumber': { code: 'alreadyRegistered' } };
    await passSlider();
    await user.click(screen.getByRole('button', { name: t.submit }));
    await waitFor(() => expect(screen.getByText(message('alreadyRegistered'))).toBeInTheDocument());
    // A pass serves one try: the slider is shown anew.
    await waitFor(() => expect(screen.getByTestId('slider-captcha')).not.toHaveAttribute('data-phase', 'passed'));
    await passSlider();
    await user.click(screen.getByRole('button', { name: t.submit }));
    // A ballot entry: no order, the entry number and where the draw will be seen.
    const done = await screen.findByTestId('entry-done');
    expect(done).toHaveTextContent(t.done);
    expect(within(done).getByTestId('entry-done-no')).toHaveTextContent('M00100');
    expect(within(done).getByTestId('entry-done-centre')).toHaveAttribute('href', '/my/my-index');
    expect(within(done).getByTestId('entry-done-ballot')).toHaveAttribute('href', '/ballot');
    expect(entryMock.submitted).toHaveLength(2);
    expect(entryMock.submitted[1]?.idempotencyKey).toBe(entryMock.submitted[0]?.idempotencyKey);
  });

  it('registers several people when the race allows it, and shows a refusal on the right field of the right person', async () => {
    entryMock.info.allowMultiple = true;
    entryMock.info.peoplePerAccount = 5;
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await open(language);
    await user.click(within(await screen.findByTestId('entry-item-M')).getByRole('button', { name: t.choose }));
    await fillPerson(user, t, {
      name: RUNNER.name,
      certificateNumber: RUNNER.certificateNumber,
      birthday: '1990-05-01',
    });
    await user.click(screen.getByRole('button', { name: t.savePerson }));
    await user.click(await screen.findByTestId('entry-add-person'));
    await fillPerson(user, t, { name: '李娜', certificateNumber: '110105199001010010', birthday: '1991-06-02' });
    await user.click(screen.getByRole('button', { name: t.savePerson }));
    expect(await screen.findByTestId('entry-person-1')).toHaveTextContent('李娜');
    expect(screen.getByTestId('entry-per-account')).toHaveTextContent(i18n.t('entry.signUp.perAccount', { max: 5 }));
    entryMock.refuseFields = { '1.certificateNumber': { code: 'alreadyRegistered' } };
    await passSlider();
    await user.click(screen.getByTestId('entry-submit'));
    // The second person's form opens with the message on the certificate number.
    const field = await screen.findByDisplayValue('110105199001010010');
    await waitFor(() => expect(field.closest('.ant-form-item')).toHaveTextContent(message('alreadyRegistered')));
    expect(screen.getByDisplayValue('李娜')).toBeInTheDocument();
    expect(entryMock.submitted[0]?.participants).toHaveLength(2);
  });
});

it('offers no more people than the account may register for the race', async () => {
  entryMock.info.allowMultiple = true;
  entryMock.info.peoplePerAccount = 2;
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  await open('en');
  await user.click(within(await screen.findByTestId('entry-item-M')).getByRole('button', { name: T.en.choose }));
  await fillPerson(user, T.en, {
    name: RUNNER.name,
    certificateNumber: RUNNER.certificateNumber,
    birthday: '1990-05-01',
  });
  await user.click(screen.getByRole('button', { name: T.en.savePerson }));
  await user.click(await screen.findByTestId('entry-add-person'));
  await fillPerson(user, T.en, { name: '李娜', certificateNumber: '110105199001010010', birthday: '1991-06-02' });
  await user.click(screen.getByRole('button', { name: T.en.savePerson }));
  await screen.findByTestId('entry-person-1');
  expect(screen.queryByTestId('entry-add-person')).toBeNull();
  expect(screen.getByText(i18n.t('entry.signUp.maxPeople', { max: 2 }))).toBeInTheDocument();
});

it('does not leave a countdown timer running past the opening: the page asks again', async () => {
  entryMock.info.windowState = 'notYet';
  entryMock.info.signUpStartTime = '2027-01-10 10:00:02';
  entryMock.info.now = ENTRY_NOW;
  // The countdown's clock is faked (its ticks and Date), so the two seconds pass at once on any machine.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  await open('zh');
  expect(await screen.findByTestId('entry-countdown')).toHaveTextContent('0 天 00:00:02');
  entryMock.info.windowState = 'open';
  act(() => {
    vi.advanceTimersByTime(1000);
  });
  expect(screen.getByTestId('entry-countdown')).toHaveTextContent('0 天 00:00:01');
  expect(screen.getByTestId('entry-window-state')).toHaveTextContent('未开始');
  act(() => {
    vi.advanceTimersByTime(1000);
  });
  expect(await screen.findByTestId('entry-window-state')).toHaveTextContent('报名中');
});

it('sends every saved person with the item chosen last (a person saved before another item was chosen)', async () => {
  entryMock.info.allowMultiple = true;
  entryMock.info.peoplePerAccount = 5;
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  await open('en');
  await user.click(within(await screen.findByTestId('entry-item-M')).getByRole('button', { name: T.en.choose }));
  await fillPerson(user, T.en, {
    name: RUNNER.name,
    certificateNumber: RUNNER.certificateNumber,
    birthday: '1990-05-01',
  });
  await user.click(screen.getByRole('button', { name: T.en.savePerson }));
  await user.click(within(screen.getByTestId('entry-item-5K')).getByRole('button', { name: T.en.choose }));
  await screen.findByTestId('entry-submit');
  await passSlider();
  await user.click(screen.getByTestId('entry-submit'));
  await waitFor(() => expect(entryMock.submitted).toHaveLength(1));
  expect(entryMock.submitted[0]).toMatchObject({ itemCode: '5K', participants: [{ item: '5K', name: RUNNER.name }] });
});

describe('the sign-up draft (issue #28)', () => {
  /** Every stored value, to look for a number in. */
  const everythingStored = () =>
    Array.from({ length: localStorage.length }, (_, i) => {
      const key = localStorage.key(i) as string;
      return `${key}=${localStorage.getItem(key)}`;
    }).join('\n');

  it.each(['zh', 'en'] as const)(
    'in %s, keeps what was typed over a remount, never the certificate number, and says it must be typed again',
    async (language) => {
      const t = T[language];
      const user = userEvent.setup({ pointerEventsCheck: 0 });
      const first = await open(language);
      await user.click(within(await screen.findByTestId('entry-item-H')).getByRole('button', { name: t.choose }));
      await fillPerson(user, t, {
        name: RUNNER.name,
        certificateNumber: RUNNER.certificateNumber,
        birthday: '1990-05-01',
      });
      expect(everythingStored()).toContain(RUNNER.name);
      expect(everythingStored()).not.toContain(RUNNER.certificateNumber);
      first.unmount();

      // Back on the page (a reload, Back, a closed tab): the draft's item is chosen and its form filled.
      await open(language);
      const form = await screen.findByTestId('entry-people');
      expect(screen.getByTestId('entry-chosen')).toHaveTextContent(t.half);
      expect(within(form).getByLabelText(t.name)).toHaveValue(RUNNER.name);
      expect(within(form).getByLabelText(t.birthday)).toHaveValue('1990-05-01');
      expect(within(form).getByLabelText(t.certificateNumber)).toHaveValue('');
      expect(screen.getByTestId('entry-draft-restored')).toHaveTextContent(
        language === 'zh'
          ? '已恢复未提交的草稿，证件号码未保存，需重新填写'
          : 'Your unsent draft was restored; please enter again: Certificate number',
      );
      expect(everythingStored()).not.toContain(RUNNER.certificateNumber);
    },
  );

  it('keeps the saved people and the open form of a race that allows several, without their numbers', async () => {
    entryMock.info.allowMultiple = true;
    entryMock.info.peoplePerAccount = 5;
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const first = await open('zh');
    await user.click(within(await screen.findByTestId('entry-item-M')).getByRole('button', { name: T.zh.choose }));
    await fillPerson(user, T.zh, {
      name: RUNNER.name,
      certificateNumber: RUNNER.certificateNumber,
      birthday: '1990-05-01',
    });
    await user.click(screen.getByRole('button', { name: T.zh.savePerson }));
    await user.click(await screen.findByTestId('entry-add-person'));
    const form = await screen.findByTestId('entry-people');
    await user.type(within(form).getByLabelText(T.zh.name), '李娜');
    await user.type(within(form).getByLabelText(T.zh.certificateNumber), '110105199001010010');
    await user.tab();
    expect(everythingStored()).not.toContain(RUNNER.certificateNumber);
    expect(everythingStored()).not.toContain('110105199001010010');
    first.unmount();

    await open('zh');
    expect(await screen.findByTestId('entry-person-0')).toHaveTextContent(RUNNER.name);
    const again = screen.getByTestId('entry-people');
    expect(within(again).getByLabelText(T.zh.name)).toHaveValue('李娜');
    expect(within(again).getByLabelText(T.zh.certificateNumber)).toHaveValue('');
    expect(screen.getByTestId('entry-draft-restored')).toBeInTheDocument();
    // The saved person lost their number with the draft: marked, and their edit button has the focus.
    expect(screen.getByTestId('entry-person-retype-0')).toHaveTextContent('需重新填写证件号码');
    expect(screen.getByTestId('entry-person-edit-0')).toHaveFocus();
  });

  it.each(['zh', 'en'] as const)(
    'in %s, marks each restored person whose number must be entered again, focuses the first, and opens them instead of sending',
    async (language) => {
      const t = T[language];
      entryMock.info.allowMultiple = true;
      entryMock.info.peoplePerAccount = 5;
      const user = userEvent.setup({ pointerEventsCheck: 0 });
      const first = await open(language);
      await user.click(within(await screen.findByTestId('entry-item-M')).getByRole('button', { name: t.choose }));
      for (const [name, number] of [
        [RUNNER.name, RUNNER.certificateNumber],
        ['李娜', '110105199001010010'],
      ] as const) {
        if (name !== RUNNER.name) await user.click(await screen.findByTestId('entry-add-person'));
        await fillPerson(user, t, { name, certificateNumber: number, birthday: '1990-05-01' });
        await user.click(screen.getByRole('button', { name: t.savePerson }));
      }
      await screen.findByTestId('entry-person-1');
      first.unmount();

      await open(language);
      await screen.findByTestId('entry-person-1');
      const mark = language === 'zh' ? '需重新填写证件号码' : 'Enter again: Certificate number';
      expect(screen.getByTestId('entry-person-retype-0')).toHaveTextContent(mark);
      expect(screen.getByTestId('entry-person-retype-1')).toHaveTextContent(mark);
      expect(screen.getByTestId('entry-person-edit-0')).toHaveFocus();
      expect(screen.getByTestId('entry-person-edit-0')).toHaveAccessibleDescription(mark);

      // Sending now opens the first marked person, whose number is typed again; the mark goes.
      await user.click(screen.getByTestId('entry-submit'));
      const form = await screen.findByTestId('entry-people');
      expect(within(form).getByLabelText(t.name)).toHaveValue(RUNNER.name);
      await user.type(within(form).getByLabelText(t.certificateNumber), RUNNER.certificateNumber);
      await user.click(screen.getByRole('button', { name: t.savePerson }));
      await screen.findByTestId('entry-person-1');
      expect(screen.queryByTestId('entry-person-retype-0')).toBeNull();
      expect(screen.getByTestId('entry-person-retype-1')).toBeInTheDocument();
    },
  );

  it.each([
    ['not JSON', '{"v":1,"drafts":'],
    ['another shape', JSON.stringify({ v: 1, drafts: { 'test-race-2027|H|account': { name: '张三' } } })],
    ['another version', JSON.stringify({ v: 2, drafts: {} })],
  ])('ignores and removes stored data that is %s', async (_, stored) => {
    localStorage.setItem(ENTRY_DRAFTS_KEY, stored);
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await open('zh');
    await user.click(within(await screen.findByTestId('entry-item-H')).getByRole('button', { name: T.zh.choose }));
    const form = await screen.findByTestId('entry-people');
    expect(within(form).getByLabelText(T.zh.name)).toHaveValue('');
    expect(screen.queryByTestId('entry-draft-restored')).toBeNull();
    expect(localStorage.getItem(ENTRY_DRAFTS_KEY)).toBeNull();
  });

  it('removes the draft once the entry is sent, and goes on to the order without asking', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { router } = await open('zh');
    await user.click(within(await screen.findByTestId('entry-item-H')).getByRole('button', { name: T.zh.choose }));
    await fillPerson(user, T.zh, {
      name: RUNNER.name,
      certificateNumber: RUNNER.certificateNumber,
      birthday: '1990-05-01',
    });
    expect(localStorage.getItem(ENTRY_DRAFTS_KEY)).toContain(RUNNER.name);
    await passSlider();
    await user.click(screen.getByRole('button', { name: T.zh.submit }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/my/order/O2027011000001'));
    expect(screen.queryByTestId('entry-leave-confirm')).toBeNull();
    expect(localStorage.getItem(ENTRY_DRAFTS_KEY)).toBeNull();
  });

  it.each(['zh', 'en'] as const)(
    'in %s, asks before leaving a changed form, in the app and on reload',
    async (language) => {
      const t = T[language];
      const user = userEvent.setup({ pointerEventsCheck: 0 });
      const { router } = await open(language);
      await user.click(within(await screen.findByTestId('entry-item-H')).getByRole('button', { name: t.choose }));
      // Unchanged: nothing to ask.
      const untouched = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(untouched);
      expect(untouched.defaultPrevented).toBe(false);
      await user.type(within(await screen.findByTestId('entry-people')).getByLabelText(t.name), RUNNER.name);
      const reload = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(reload);
      expect(reload.defaultPrevented).toBe(true);

      await act(() => router.navigate('/home'));
      const dialog = await screen.findByRole('dialog');
      expect(dialog).toHaveTextContent(
        language === 'zh'
          ? '离开此页？未提交的报名信息将保留为草稿。'
          : 'Leave this page?Your unsent entry is kept as a draft.',
      );
      await user.click(within(dialog).getByRole('button', { name: language === 'zh' ? '留在此页' : 'Stay' }));
      expect(router.state.location.pathname).toBe('/my/signup');
      expect(within(screen.getByTestId('entry-people')).getByLabelText(t.name)).toHaveValue(RUNNER.name);

      await act(() => router.navigate('/home'));
      await user.click(
        within(await screen.findByRole('dialog')).getByRole('button', { name: language === 'zh' ? '离开' : 'Leave' }),
      );
      await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    },
  );
});
