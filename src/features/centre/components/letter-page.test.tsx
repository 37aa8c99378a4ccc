import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Language } from '@/stores/app-store';
import { saveUserData } from '@/lib/user-data';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { LETTER_ADULT, LETTER_HASH, LETTER_MINOR, letterMock, resetLetterMock } from '@/testing/mocks/handlers/letter';
import { renderApp } from '@/testing/test-utils';

/** A button by its text: antd puts a space between the two characters of a Chinese two-character label. */
const spaced = (text: string) => new RegExp(`^${[...text].join('\\s?')}$`);

const open = (path: string, language: Language) => {
  saveUserData({ token: VALID_TOKEN });
  return renderApp({ path, language, token: VALID_TOKEN });
};

const T = {
  zh: {
    title: '测试马拉松参赛承诺书',
    body: '本人自愿参赛。',
    statement: '本人身体健康。',
    deadline: '签署截止时间：2027-04-10 18:00',
    sign: '签署承诺书',
    mismatch: '请填写与报名信息一致的姓名',
    missing: '请逐条勾选承诺书的全部条款',
    signedCurrent: '已签署当前版本的承诺书',
    signedBy: '签署人：张三，签署时间：2027-01-10 10:00',
    guardianTitle: '监护人签署',
    nameRequired: '请输入共同签署人姓名',
    guardianSigned: '监护人：张父（父亲），电话 139****5678',
    outdated: '承诺书内容已更新',
    signAgain: '重新签署',
    closed: '本赛事没有电子承诺书。',
    ended: '电子承诺书已截止签署，已签署的记录仍然有效。',
  },
  en: {
    title: 'Test Marathon Commitment',
    body: 'I enter of my own free will.',
    statement: 'I am healthy.',
    deadline: 'Sign by 2027-04-10 18:00',
    sign: 'Sign the letter',
    mismatch: 'Please sign with the name of the registration',
    missing: 'Please tick every statement of the commitment letter',
    signedCurrent: 'You have signed the current version of the letter',
    signedBy: 'Signed by 张三 at 2027-01-10 10:00',
    guardianTitle: "Guardian's signature",
    nameRequired: "Please enter the co-signer's name",
    guardianSigned: 'Guardian: 张父 (父亲), phone 139****5678',
    outdated: 'The commitment letter has changed',
    signAgain: 'Sign again',
    closed: 'This race has no commitment letter.',
    ended: 'Signing the commitment letter has closed; signatures already made stand.',
  },
} as const;

beforeEach(() => resetLetterMock());

describe.each(['zh', 'en'] as const)('the commitment letter in %s', (language) => {
  const t = T[language];

  it('shows the sanitised letter, refuses a wrong name and missing statements, then signs', async () => {
    const user = userEvent.setup();
    await open('/my/letter', language);
    const page = await screen.findByTestId('letter-page');
    const letter = await within(page).findByTestId('letter-text');
    expect(letter).toHaveTextContent(t.title);
    expect(letter).toHaveTextContent(t.body);
    expect(letter.querySelector('script')).toBeNull();
    expect(letter.querySelector('[onclick]')).toBeNull();
    expect(within(page).getByTestId('letter-deadline')).toHaveTextContent(t.deadline);
    expect(within(page).getByText(t.statement)).toBeInTheDocument();
    // The adult entry comes first: no co-signer.
    expect(within(page).queryByTestId('letter-guardian')).not.toBeInTheDocument();

    await user.click(within(page).getByTestId('letter-statement-0'));
    await user.type(within(page).getByTestId('letter-signer-name'), '李四');
    await user.click(within(page).getByRole('button', { name: spaced(t.sign) }));
    expect(await within(page).findByTestId('letter-error-signerName')).toHaveTextContent(t.mismatch);
    expect(within(page).getByTestId('letter-error-accepted')).toHaveTextContent(t.missing);
    expect(letterMock.signed).toHaveLength(0);

    await user.click(within(page).getByTestId('letter-statement-1'));
    await user.clear(within(page).getByTestId('letter-signer-name'));
    await user.type(within(page).getByTestId('letter-signer-name'), '张三');
    await user.click(within(page).getByRole('button', { name: spaced(t.sign) }));
    const signed = await within(page).findByTestId('letter-signed');
    expect(signed).toHaveTextContent(t.signedCurrent);
    expect(signed).toHaveTextContent(t.signedBy);
    expect(within(page).queryByTestId('letter-form')).not.toBeInTheDocument();
    expect(letterMock.signed).toEqual([
      {
        raceId: 'test-race-2027',
        entryNo: LETTER_ADULT.entryNo,
        versionHash: LETTER_HASH,
        accepted: [0, 1],
        signerName: '张三',
      },
    ]);
  });
});

describe('co-signers and states', () => {
  it('a minor’s entry (?entryNo=) asks for a guardian and shows the refusals beside the fields', async () => {
    const user = userEvent.setup();
    const t = T.zh;
    await open(`/my/letter?entryNo=${LETTER_MINOR.entryNo}`, 'zh');
    const page = await screen.findByTestId('letter-page');
    const guardian = await within(page).findByTestId('letter-guardian');
    expect(guardian).toHaveTextContent(t.guardianTitle);
    await user.click(within(page).getByTestId('letter-statement-0'));
    await user.click(within(page).getByTestId('letter-statement-1'));
    await user.type(within(page).getByTestId('letter-signer-name'), '张小明');
    await user.click(within(page).getByRole('button', { name: spaced(t.sign) }));
    expect(await within(page).findByTestId('letter-error-guardian.name')).toHaveTextContent(t.nameRequired);
    expect(within(page).getByTestId('letter-error-guardian.phone')).toBeInTheDocument();

    await user.type(within(page).getByTestId('letter-guardian-name'), '张父');
    await user.type(within(page).getByTestId('letter-guardian-relation'), '父亲');
    await user.type(within(page).getByTestId('letter-guardian-phone'), '13912345678');
    await user.click(within(page).getByRole('button', { name: spaced(t.sign) }));
    expect(await within(page).findByTestId('letter-signed-guardian')).toHaveTextContent(t.guardianSigned);
    expect(letterMock.signed[0]).toMatchObject({
      entryNo: LETTER_MINOR.entryNo,
      guardian: { name: '张父', relation: '父亲', phone: '13912345678' },
    });
  });

  it('an older version’s signature asks to sign again; closed and ended letters say so', async () => {
    const t = T.en;
    letterMock.answer.entries = [
      {
        ...LETTER_ADULT,
        signature: {
          versionHash: 'old',
          current: false,
          signerName: '张三',
          guardian: null,
          relative: null,
          signedAt: Date.UTC(2027, 0, 2, 2),
        },
      },
    ];
    const first = await open('/my/letter', 'en');
    const page = await screen.findByTestId('letter-page');
    expect(await within(page).findByTestId('letter-outdated')).toHaveTextContent(t.outdated);
    expect(within(page).getByRole('button', { name: t.signAgain })).toBeInTheDocument();
    first.unmount();

    letterMock.answer = { ...letterMock.answer, state: 'ended' };
    const second = await open('/my/letter', 'en');
    expect(await screen.findByTestId('letter-ended')).toHaveTextContent(t.ended);
    expect(screen.queryByTestId('letter-form')).not.toBeInTheDocument();
    second.unmount();

    letterMock.answer = { ...letterMock.answer, state: 'closed', letter: null };
    await open('/my/letter', 'en');
    await waitFor(() => expect(screen.getByTestId('letter-closed')).toHaveTextContent(t.closed));
  });
});
