import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { checkFieldValue, type RegistrationForm } from '#contract/registration-form';
import type { MessageCode, MessageParams } from '#contract/messages';
import { initI18n } from '@/app/i18n';
import { AntdScope } from '@/components/ui/antd-scope';
import { applyLanguage } from '@/lib/language';
import { loadTexts } from '@/lib/locale-bundles';
import { useAppStore, type Language } from '@/stores/app-store';
import { OWN_RESULTS, PUBLIC_FORM, RUNNER } from '@/testing/fixtures/registration';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { registrationMock, resetRegistrationMock } from '@/testing/mocks/handlers/registration';
import { RegistrationFormView, type FormValues } from './registration-form';

const label = (form: RegistrationForm, key: string, language: Language) =>
  form.fields.find((f) => f.key === key)!.label[language];

/** A message in the visitor's language, by its contract code (what the server answers too). */
const message = (code: MessageCode, params?: MessageParams) => i18n.t(`messages.${code}`, params ?? {});

async function renderForm(
  language: Language,
  props: Partial<React.ComponentProps<typeof RegistrationFormView>> = {},
  form: RegistrationForm = PUBLIC_FORM,
) {
  await initI18n(language);
  await applyLanguage(language);
  await loadTexts('registration');
  useAppStore.setState({ token: VALID_TOKEN });
  const submitted: FormValues[] = [];
  const drafts: FormValues[] = [];
  const utils = render(
    <AntdScope>
      <RegistrationFormView
        form={form}
        raceId="qc-marathon-2027"
        onSubmit={(v) => {
          submitted.push(v);
        }}
        onSaveDraft={(v) => {
          drafts.push(v);
        }}
        {...props}
      />
    </AntdScope>,
  );
  return { user: userEvent.setup(), submitted, drafts, ...utils };
}

/** The messages linked to a field's input (aria-describedby), or the item's message line for a group. */
function messageOf(key: string): string {
  const item = document.getElementById(`registration-form_${key}_label`)?.closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent?.trim() ?? '';
}
const expectMessage = (key: string, text: string) => waitFor(() => expect(messageOf(key)).toBe(text));
const input = (form: RegistrationForm, key: string, language: Language) =>
  screen.getByLabelText(label(form, key, language)) as HTMLInputElement;

const TEXT = {
  zh: {
    submit: '提交',
    draft: '保存草稿',
    find: '查找我的成绩',
    soldOut: '已售罄',
    unpaid: '未支付',
    own: '本组委会赛事成绩',
    outside: '其他赛事成绩',
    pending: '其他赛事的成绩须上传成绩证书，提交后等待组委会审核',
    empty: '未找到您在本组委会赛事中的完赛成绩',
    needKey: '请先填写姓名、证件类型和证件号码',
    marathon: '马拉松（42.195公里）',
    half: '半程马拉松（21.0975公里）',
    male: '男',
    passport: '护照',
    china: '中国大陆',
    chipTime: '净计时成绩（H:MM:SS）',
  },
  en: {
    submit: 'Submit',
    draft: 'Save draft',
    find: 'Find my results',
    soldOut: 'Sold out',
    unpaid: 'Unpaid',
    own: 'A result in our races',
    outside: 'A result in another race',
    pending:
      'A result of another race needs its certificate image and is pending review by the organiser after submission',
    empty: 'No finishes found in our races for this name and certificate',
    needKey: 'Fill in your name, certificate type and certificate number first',
    marathon: 'Marathon (42.195 km)',
    half: 'Half marathon (21.0975 km)',
    male: 'Male',
    passport: 'Passport',
    china: 'Chinese Mainland',
    chipTime: 'Chip time (H:MM:SS)',
  },
} as const;

beforeEach(() => resetRegistrationMock());

describe.each(['zh', 'en'] as const)('the registration form in %s', (language) => {
  const text = TEXT[language];
  const f = PUBLIC_FORM;

  it('renders every field type of the demo form with its label, help and placeholder in the language; showWhen fields are not mounted until their condition holds', async () => {
    const { user } = await renderForm(language);
    // Always shown (no showWhen): one of each kind, by label.
    for (const key of [
      'name',
      'phone',
      'email',
      'address',
      'emergencyName',
      'runningClub',
      'stravaProfile',
      'certificateNumber',
      'runningYears',
      'medicalNotes',
    ]) {
      expect(input(f, key, language)).toBeInTheDocument();
    }
    const items = screen.getByRole('radiogroup', { name: label(f, 'item', language) });
    expect(items).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: label(f, 'gender', language) })).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: label(f, 'tshirtSize', language) })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: label(f, 'interests', language) })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: label(f, 'pastEvents', language) })).toBeInTheDocument();
    expect(screen.getByLabelText(label(f, 'certificateType', language)).tagName).toBe('SELECT');
    expect(screen.getByLabelText(label(f, 'bloodType', language))).toBeInTheDocument();
    expect(screen.getByLabelText(label(f, 'nationality', language))).toBeInTheDocument();
    expect(screen.getByLabelText(label(f, 'birthday', language))).toBeInTheDocument();
    expect(screen.getByText(label(f, 'photo', language))).toBeInTheDocument();
    // Help and placeholder in the language.
    expect(screen.getByText(f.fields.find((x) => x.key === 'phone')!.help![language])).toBeInTheDocument();
    expect(input(f, 'name', language)).toHaveAttribute(
      'placeholder',
      f.fields.find((x) => x.key === 'name')!.placeholder![language],
    );

    // Hidden until item = M (marathon) or nationality = CN. The item's radios are found within the item's group:
    // a radio's name is worked out from its content, with the computed style of every node in it, and the
    // size cards' radios cost seconds a query in jsdom.
    const hidden = ['region', 'marathonsFinished', 'qualifyingResult', 'verificationFee', 'healthCertificate'];
    for (const key of hidden) expect(screen.queryByText(label(f, key, language))).toBeNull();
    await user.click(within(items).getByRole('radio', { name: text.half }));
    await waitFor(() => expect(screen.getByText(label(f, 'healthCertificate', language))).toBeInTheDocument());
    expect(screen.queryByText(label(f, 'qualifyingResult', language))).toBeNull();
    await user.click(within(items).getByRole('radio', { name: text.marathon }));
    await waitFor(() => expect(screen.getByText(label(f, 'qualifyingResult', language))).toBeInTheDocument());
    expect(screen.getByText(label(f, 'verificationFee', language))).toBeInTheDocument();
    expect(screen.getByTestId('fee-state')).toHaveTextContent(text.unpaid);
    expect(input(f, 'marathonsFinished', language)).toBeInTheDocument();
    // Back to 10 km: the marathon's fields go (unmounted).
    await user.click(within(items).getByRole('radio', { name: language === 'zh' ? '10公里' : '10 km' }));
    await waitFor(() => expect(screen.queryByText(label(f, 'qualifyingResult', language))).toBeNull());
  });

  it("refuses an empty submission with each required field's own message, as the contract words it", async () => {
    const { user, submitted } = await renderForm(language);
    await user.click(screen.getByTestId('submit-form'));
    expect(screen.getByTestId('submit-form')).toHaveTextContent(new RegExp(`^${[...text.submit].join('\\s?')}$`));
    for (const key of [
      'item',
      'name',
      'gender',
      'certificateNumber',
      'birthday',
      'phone',
      'email',
      'nationality',
      'address',
      'emergencyName',
      'emergencyPhone',
      'bloodType',
      'tshirtSize',
      'photo',
    ]) {
      const refusal = checkFieldValue(f, key, { certificateType: 1 })!;
      expect(refusal, key).not.toBeNull();
      await expectMessage(key, message(refusal.code, refusal.params));
    }
    expect(messageOf('name')).toBe(message('nameRequired'));
    expect(messageOf('phone')).toBe(message('phoneRequired'));
    expect(messageOf('photo')).toBe(message('uploadRequired'));
    expect(messageOf('runningClub')).toBe('');
    expect(submitted).toEqual([]);
  });

  it('checks text on blur with the rules of §5: required text, max length, mobile, e-mail, URL, positive integer, max, differs-from, certificate number per type', async () => {
    const { user } = await renderForm(language);
    // Clear (which focuses the field), paste, leave by clicking the page: the rules are checked on leaving, not
    // while typing. In jsdom each key re-renders this form (~0.5 s a key) and user-event's Tab reads the
    // computed style of every element on the page; typing key by key, the click on the field and the Tab are
    // taken once, with the first name below.
    const type = async (key: string, value: string) => {
      await user.clear(input(f, key, language));
      await user.paste(value);
      await user.click(document.body);
    };
    // Not checked while typing: only on leaving the field.
    await user.type(input(f, 'name', language), ' "" ');
    expect(messageOf('name')).toBe('');
    await user.tab();
    await expectMessage('name', message('nameInvalid'));
    // A name as on a passport, with a space inside, is taken.
    await type('name', 'John Smith');
    await expectMessage('name', '');
    await type('name', 'x'.repeat(31));
    await expectMessage('name', message('textTooLong', { count: 30 }));
    await type('name', RUNNER.name);
    await expectMessage('name', '');
    await type('phone', '12345678901');
    await expectMessage('phone', message('badPhone'));
    await type('phone', '13800138000');
    await expectMessage('phone', '');
    await type('email', 'a@b..com');
    await expectMessage('email', message('badEmail'));
    await type('stravaProfile', 'strava/athletes/1');
    await expectMessage('stravaProfile', message('badUrl'));
    expect(messageOf('stravaProfile')).toBe(language === 'zh' ? '请输入正确的网址' : 'Please enter a correct URL');
    await type('runningYears', '012');
    await expectMessage('runningYears', message('positiveInteger'));
    await type('runningYears', '81');
    await expectMessage('runningYears', message('numberTooLarge', { max: 80 }));
    await type('runningYears', '12');
    await expectMessage('runningYears', '');
    // The emergency contact differs from the applicant (and is re-checked when the applicant's changes).
    await type('emergencyName', RUNNER.name);
    await expectMessage('emergencyName', message('emergencyNameSame'));
    await type('emergencyPhone', '13800138000');
    await expectMessage('emergencyPhone', message('emergencyPhoneSame'));
    await type('name', '王五');
    await expectMessage('emergencyName', '');
    // The certificate number follows its type: an ID card's checksum, then a passport's format.
    await type('certificateNumber', '110105194912310021');
    await expectMessage('certificateNumber', message('idCardInvalid'));
    await type('certificateNumber', 'E12345678');
    await expectMessage('certificateNumber', message('idCardInvalid'));
    await user.selectOptions(screen.getByLabelText(label(f, 'certificateType', language)), text.passport);
    await expectMessage('certificateNumber', '');
  });

  it('offers the sizes as cards with the chart, sold-out sizes (by the stock call) disabled', async () => {
    registrationMock.sizeStock = { XS: 10, S: 10, M: 10, L: 10, XL: 0, XXL: 10, XXXL: 0 };
    const { user } = await renderForm(language);
    const sizes = screen.getByRole('radiogroup', { name: label(f, 'tshirtSize', language) });
    // Waits for the stock by its text: a radio's name is worked out from the computed style of every node of
    // its card, too slow in jsdom to repeat on each change of the page while the form loads.
    await waitFor(() => expect(within(sizes).getAllByText(text.soldOut)).toHaveLength(2));
    expect(within(sizes).getByRole('radio', { name: /^XL/ })).toBeDisabled();
    expect(within(sizes).getByRole('radio', { name: /^XXXL/ })).toBeDisabled();
    const chart = screen.getByTestId('size-chart');
    expect(
      within(chart)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(expect.arrayContaining(['XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL']));
    expect(within(chart).getByRole('row', { name: /92/ })).toHaveTextContent(/92.*96.*100.*104.*108.*112.*116/);
    await user.click(within(sizes).getByRole('radio', { name: /^M/ }).closest('label')!);
    expect(within(sizes).getByRole('radio', { name: /^M/ })).toBeChecked();
    await expectMessage('tshirtSize', '');
  });

  it("lists the runner's own finishes for past events once the name and certificate are filled, with a clear empty state", async () => {
    const { user, submitted } = await renderForm(language, {
      initialValues: { name: '李雷', certificateType: 1, certificateNumber: RUNNER.certificateNumber },
    });
    const group = screen.getByRole('group', { name: label(f, 'pastEvents', language) });
    await user.clear(input(f, 'name', language));
    await user.click(within(group).getByRole('button', { name: text.find }));
    expect(await within(group).findByText(text.needKey)).toBeInTheDocument();
    await user.type(input(f, 'name', language), '李雷');
    await user.click(within(group).getByRole('button', { name: text.find }));
    expect(await within(group).findByText(text.empty)).toBeInTheDocument();
    await user.clear(input(f, 'name', language));
    await user.type(input(f, 'name', language), RUNNER.name);
    await user.click(within(group).getByRole('button', { name: /./ }));
    const first = await within(group).findByRole('checkbox', { name: new RegExp(OWN_RESULTS[0]!.chipTime) });
    expect(registrationMock.myResultsAsked.at(-1)).toMatchObject({ ...RUNNER, raceId: 'qc-marathon-2027' });
    await user.click(first);
    expect(first).toBeChecked();
    expect(submitted).toEqual([]);
  });

  it('takes a score verification: an own result picked from the lookup, or an outside one with the pending-review note and its own checks', async () => {
    const { user } = await renderForm(language, {
      initialValues: { item: 'M', name: RUNNER.name, certificateType: 1, certificateNumber: RUNNER.certificateNumber },
    });
    const box = await screen.findByTestId('score-verification');
    await user.click(within(box).getByRole('radio', { name: text.own }));
    await user.click(within(box).getByRole('button', { name: text.find }));
    await user.click(await within(box).findByRole('radio', { name: new RegExp(OWN_RESULTS[0]!.chipTime) }));
    await user.click(within(box).getByRole('radio', { name: text.outside }));
    expect(within(box).getByTestId('score-pending-note')).toHaveTextContent(text.pending);
    await user.click(within(box).getByLabelText(text.chipTime));
    await user.paste('3:75:00');
    await user.click(input(f, 'runningClub', language)); // focus leaves the group: it is checked
    await expectMessage('qualifyingResult', message('scoreRaceRequired'));
  });

  it('checks choices: the checkbox limit, a date out of range, the country list (mainland China first) that shows the region picker', async () => {
    const { user } = await renderForm(language, { initialValues: { birthday: '2016-01-01' } });
    const interests = screen.getByRole('group', { name: label(f, 'interests', language) });
    for (const box of within(interests).getAllByRole('checkbox')) await user.click(box);
    await expectMessage('interests', message('tooManyChoices', { count: 3 }));
    await user.click(within(interests).getAllByRole('checkbox')[0]!);
    await expectMessage('interests', '');
    await user.click(screen.getByTestId('submit-form'));
    await expectMessage('birthday', message('dateTooLate', { date: '2015-04-18' }));
    const country = screen.getByLabelText(label(f, 'nationality', language));
    await waitFor(() => expect(country).toBeEnabled());
    await user.click(country);
    // The server's order: mainland China, Hong Kong, Macao, Taiwan, then the others.
    await waitFor(() =>
      expect([...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'))[0]).toBe(
        text.china,
      ),
    );
    await user.click(document.querySelector<HTMLElement>(`.ant-select-item-option[title="${text.china}"]`)!);
    await waitFor(() => expect(screen.getByText(label(f, 'region', language))).toBeInTheDocument());
  });

  it('opens the empty birthday calendar near a plausible adult birthday (30 years ago), not at the latest date', async () => {
    const { user } = await renderForm(language);
    await user.click(input(f, 'birthday', language));
    const year = () =>
      document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-year-btn');
    await waitFor(() => expect(year()).not.toBeNull());
    // The demo form's latest birthday is 2015-04-18 (12 on race day): the calendar once opened there.
    expect(year()!.textContent).toContain(String(new Date().getFullYear() - 30));
  });

  it('opens the birthday calendar at the year of its value', async () => {
    const { user } = await renderForm(language, { initialValues: { birthday: '1984-06-02' } });
    await user.click(input(f, 'birthday', language));
    await waitFor(() =>
      expect(
        document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-year-btn')
          ?.textContent,
      ).toContain('1984'),
    );
  });

  it('finds mainland China in the country list by China, Chinese, mainland or 中国, keeping its label', async () => {
    const { user } = await renderForm(language);
    const country = screen.getByLabelText(label(f, 'nationality', language));
    await waitFor(() => expect(country).toBeEnabled());
    const shown = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.getAttribute('title'));
    for (const typed of ['China', 'chinese', 'Mainland', '中国', ' CHN ']) {
      await user.click(country);
      await user.clear(country);
      await user.type(country, typed);
      await waitFor(() => expect(shown(), typed).toContain(text.china));
    }
    // Hong Kong, Macao and Taiwan are found by China as well; Japan is not.
    await user.clear(country);
    await user.type(country, 'China');
    await waitFor(() => expect(shown()).toHaveLength(4));
    await user.click(document.querySelector<HTMLElement>(`.ant-select-item-option[title="${text.china}"]`)!);
    await waitFor(() => expect(screen.getByText(label(f, 'region', language))).toBeInTheDocument());
  });

  it('submits a complete form: onSubmit gets the values cleanSubmission keeps', async () => {
    const values = {
      item: '10K',
      name: RUNNER.name,
      gender: 1,
      certificateType: 1,
      certificateNumber: RUNNER.certificateNumber,
      birthday: '1990-01-01',
      phone: '13800138000',
      email: 'runner@example.com',
      nationality: 'CN',
      region: ['110000', '110100', '110108'],
      address: '中关村大街1号',
      emergencyName: '李娜',
      emergencyPhone: '13900139000',
      bloodType: 'A',
      tshirtSize: 'M',
      photo: 'uploads/photo.png',
    };
    const { user, submitted } = await renderForm(language, { initialValues: { ...values, runningClub: ' ' } });
    await waitFor(() => expect(screen.getByLabelText(label(f, 'nationality', language))).toBeEnabled());
    await user.click(screen.getByTestId('submit-form'));
    await waitFor(() => expect(submitted).toEqual([values]));
  });

  it("hands cleanSubmission's values to onSubmit and the filled values to a draft; shows the server's field refusals on their fields", async () => {
    const { user, drafts, rerender } = await renderForm(language, {
      initialValues: {
        item: '10K',
        name: RUNNER.name,
        certificateType: 1,
        certificateNumber: RUNNER.certificateNumber,
        runningClub: '  ',
      },
    });
    await user.click(screen.getByTestId('save-draft'));
    await waitFor(() => expect(drafts).toHaveLength(1));
    // Blank and hidden values are left out.
    expect(drafts[0]).toEqual({
      item: '10K',
      name: RUNNER.name,
      certificateType: 1,
      certificateNumber: RUNNER.certificateNumber,
    });
    rerender(
      <AntdScope>
        <RegistrationFormView
          form={f}
          raceId="qc-marathon-2027"
          onSubmit={() => undefined}
          fieldErrors={{ certificateNumber: { code: 'directCertificateUsed' }, name: { code: 'nameInvalid' } }}
        />
      </AntdScope>,
    );
    await expectMessage('certificateNumber', message('directCertificateUsed'));
    await expectMessage('name', message('nameInvalid'));
  });
});
