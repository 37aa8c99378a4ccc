import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { commitmentOf } from '#contract/ballot';
import { type Language } from '@/stores/app-store';
import { BALLOT_SEED, drawnBallot, entryMock, resetEntryMock } from '@/testing/mocks/handlers/entry';
import { renderApp } from '@/testing/test-utils';

const open = (language: Language = 'zh') => renderApp({ path: '/ballot', language });

const T = {
  zh: {
    verify: '在我的浏览器中验证',
    ok: '验证通过：种子与承诺值一致，重新抽签得到相同的 5 名中签者和候补名单。',
    mismatch: '验证未通过：重新抽签的结果与公示不一致。',
    counts: '公示中签 5 人，重新抽签中签 5 人，不一致 2 人。',
    seedMismatch: '验证未通过：种子与承诺值不一致。',
    ask: '查询',
    won: '报名号 M00001：已中签（报名成功）',
    waitList: '报名号 M00002：未中签，候补第 3 位',
    notWon: '报名号 M00003：未中签',
    pending: '报名号 M00009：已提交，等待抽签',
    missing: '抽签',
    explain: '报名截止前，我们先公布一个“承诺值”',
  },
  en: {
    verify: 'Verify in my browser',
    ok: 'Verified: the seed matches the commitment, and re-running the draw gives the same 5 winners and wait list.',
    mismatch: 'Not verified: re-running the draw does not give the published results.',
    counts: 'Published winners: 5; winners of the re-run: 5; differing: 2.',
    seedMismatch: 'Not verified: the seed does not match the commitment.',
    ask: 'Check',
    won: 'Entry M00001: Won the lottery (registered successfully)',
    waitList: 'Entry M00002: not won, wait list no. 3',
    notWon: 'Entry M00003: Not won',
    pending: 'Entry M00009: Submitted, awaiting the draw',
    missing: 'ballot',
    explain: 'Before sign-up closes we publish a commitment',
  },
} as const;

/** The rows of the entry list (not of the facts above it). */
const entryRows = (ballot: HTMLElement) => [...ballot.querySelectorAll('.ant-table-tbody tr.ant-table-row')];

beforeEach(() => {
  resetEntryMock();
});

describe.each(['zh', 'en'] as const)('the ballot page in %s', (language) => {
  const t = T[language];

  it('shows the scheme, the commitment, the seed and the entry list; the draw verifies in the browser', async () => {
    const user = userEvent.setup();
    await open(language);
    const ballot = await screen.findByTestId('ballot-M-1');
    expect(screen.getByText(t.explain, { exact: false })).toBeInTheDocument();
    expect(within(ballot).getByTestId('ballot-commitment')).toHaveTextContent(commitmentOf(BALLOT_SEED));
    expect(within(ballot).getByTestId('ballot-seed')).toHaveTextContent(BALLOT_SEED);
    // 12 entries, all on one page of 20.
    expect(entryRows(ballot)).toHaveLength(12);
    await user.click(within(ballot).getByRole('button', { name: t.verify }));
    expect(await within(ballot).findByTestId('ballot-verify-result')).toHaveTextContent(t.ok);
  });

  it('finds an entry by its number in the list', async () => {
    const user = userEvent.setup();
    await open(language);
    const ballot = await screen.findByTestId('ballot-M-1');
    await user.type(within(ballot).getByRole('searchbox'), 'm00007');
    await waitFor(() => expect(entryRows(ballot)).toHaveLength(1));
    expect(within(ballot).getByText('M00007')).toBeInTheDocument();
  });

  it('says so when the published winners were tampered with: one winner changed', async () => {
    const tampered = drawnBallot();
    const loser = tampered.entries.find((e) => !tampered.winners.includes(e.entryNo) && e.unit === null)!;
    const winner = tampered.winners.find((no) => tampered.entries.find((e) => e.entryNo === no)?.unit === null)!;
    tampered.winners = tampered.winners.map((no) => (no === winner ? loser.entryNo : no));
    entryMock.ballots = [tampered];
    const user = userEvent.setup();
    await open(language);
    const ballot = await screen.findByTestId('ballot-M-1');
    await user.click(within(ballot).getByRole('button', { name: t.verify }));
    const result = await within(ballot).findByTestId('ballot-verify-result');
    expect(result).toHaveTextContent(t.mismatch);
    expect(result).toHaveTextContent(t.counts);
  });

  it('says so when the seed does not match the commitment', async () => {
    const other = drawnBallot();
    other.seed = 'f'.repeat(64);
    entryMock.ballots = [other];
    const user = userEvent.setup();
    await open(language);
    const ballot = await screen.findByTestId('ballot-M-1');
    await user.click(within(ballot).getByRole('button', { name: t.verify }));
    expect(await within(ballot).findByTestId('ballot-verify-result')).toHaveTextContent(t.seedMismatch);
  });

  it('answers "am I in?": won, wait list position, not won, pending, unknown', async () => {
    const user = userEvent.setup();
    await open(language);
    const box = await screen.findByTestId('ballot-am-i-in');
    const input = within(box).getByRole('textbox');
    for (const [entryNo, text] of [
      ['M00001', t.won],
      ['M00002', t.waitList],
      ['M00003', t.notWon],
      ['M00009', t.pending],
    ] as const) {
      await user.clear(input);
      await user.type(input, entryNo);
      await user.click(within(box).getByRole('button', { name: t.ask }));
      expect(await within(box).findByTestId('ballot-am-i-in-answer')).toHaveTextContent(text);
    }
    await user.clear(input);
    await user.type(input, 'X1');
    await user.click(within(box).getByRole('button', { name: t.ask }));
    expect(await within(box).findByTestId('ballot-am-i-in-error')).toHaveTextContent(
      i18n.t('messages.ballotEntryMissing'),
    );
  });
});

it('shows a ballot not drawn yet: the seed to come, verification later, every entry awaiting the draw', async () => {
  const pending = { ...drawnBallot(), seed: null, drawnAt: null, winners: [], waitList: [], places: null };
  entryMock.ballots = [pending];
  await open('en');
  const ballot = await screen.findByTestId('ballot-M-1');
  expect(within(ballot).getByText('Published after the draw')).toBeInTheDocument();
  expect(within(ballot).getByRole('button', { name: 'Verify in my browser' })).toBeDisabled();
  expect(within(ballot).getAllByText('Awaiting the draw').length).toBeGreaterThanOrEqual(12);
});
