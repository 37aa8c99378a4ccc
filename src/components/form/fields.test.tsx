import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
import i18n from 'i18next';
import { initI18n } from '@/app/i18n';
import { AntdScope } from '@/components/ui/antd-scope';
import zhSearch from '@/locales/zh/search.json';
import enSearch from '@/locales/en/search.json';
import { useAppStore, type Language } from '@/stores/app-store';
import { CertificateFields } from './certificate-fields';
import { CodeField } from './code-field';
import { EmailField } from './email-field';
import { NameField } from './text-field';
import { PhoneField } from './phone-field';

/** Every message these fields show, as a visitor reads it in each language. */
const TEXT = {
  zh: {
    phoneRequired: '请输入手机号',
    badPhone: '请输入正确的手机号',
    emailRequired: '请输入邮箱地址',
    badEmail: '请输入正确的邮箱地址',
    badLoginEmail: '请输入有效的邮箱地址',
    nameRequired: '请输入姓名',
    nameInvalid: '姓名不能只有空格或双引号',
    textInvalid: '不能只有空格或双引号',
    certificateRequired: '请输入证件号码',
    idCardInvalid: '请输入正确的18位身份证号码',
    passportInvalid: '护照号码应为5-20位字母或数字',
    hkMacaoPermitInvalid: '请输入正确的通行证号码：H 或 M 开头，后接8位或10位数字',
    taiwanPermitInvalid: '请输入正确的通行证号码：8位或10位数字',
    captchaRequired: '请输入验证码',
    types: ['身份证（二代）', '护照', '港澳居民来往内地通行证', '台湾居民来往大陆通行证'],
  },
  en: {
    phoneRequired: 'Please enter phone number',
    badPhone: 'Please enter a correct phone number',
    emailRequired: 'Please enter email address',
    badEmail: 'Please enter a correct email address',
    badLoginEmail: 'Please enter a valid email address',
    nameRequired: 'Please enter your name',
    nameInvalid: 'The name must be more than spaces and double quotes',
    textInvalid: 'Please enter more than spaces and double quotes',
    certificateRequired: 'Please enter your certificate number',
    idCardInvalid: 'Please enter a valid 18-character ID card number',
    passportInvalid: 'The passport number must be 5-20 letters or digits',
    hkMacaoPermitInvalid: 'Please enter a valid permit number: H or M followed by 8 or 10 digits',
    taiwanPermitInvalid: 'Please enter a valid permit number: 8 or 10 digits',
    captchaRequired: 'Please enter verification code',
    types: [
      'ID card (second generation)',
      'Passport',
      'Hong Kong/Macau mainland travel permit',
      'Taiwan mainland travel permit',
    ],
  },
} as const;

const VALID_ID = '11010519491231002X';

/** A form holding the fields, in a language, with a submit button; `submitted` collects what it sends. */
async function renderForm(language: Language, fields: React.ReactNode) {
  await initI18n(language);
  // The certificate types' names live with the search texts (their own bundle in the app).
  i18n.addResourceBundle('zh', 'common', { search: zhSearch }, true, false);
  i18n.addResourceBundle('en', 'common', { search: enSearch }, true, false);
  await i18n.changeLanguage(language);
  useAppStore.getState().setLanguageState(language);
  const submitted: Record<string, unknown>[] = [];
  render(
    <AntdScope>
      <Form
        name="probe"
        layout="vertical"
        requiredMark={false}
        onFinish={(v: Record<string, unknown>) => submitted.push(v)}
      >
        {fields}
        <button type="submit">go</button>
      </Form>
    </AntdScope>,
  );
  return { user: userEvent.setup(), submitted };
}

/** The message linked to a field (aria-invalid, aria-describedby) shows this text. */
async function expectMessage(input: HTMLElement, text: string) {
  const linked = () =>
    (input.getAttribute('aria-describedby')?.split(' ') ?? [])
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
  await waitFor(() => {
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(linked()).toBe(text);
  });
}

async function expectNoMessage(input: HTMLElement) {
  await waitFor(() => expect(input).not.toHaveAttribute('aria-invalid'));
}

describe.each(['zh', 'en'] as const)('shared form fields in %s', (language) => {
  const text = TEXT[language];

  it('phone: required on submit; strict wants a mainland mobile number, checked as it is typed', async () => {
    const { user, submitted } = await renderForm(
      language,
      <>
        <PhoneField name="loose" label="Phone A" />
        <PhoneField name="strict" label="Phone B" strict />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'go' }));
    await expectMessage(screen.getByLabelText('Phone A'), text.phoneRequired);
    await expectMessage(screen.getByLabelText('Phone B'), text.phoneRequired);
    expect(screen.getByLabelText('Phone A')).toHaveAttribute('aria-required', 'true');

    await user.type(screen.getByLabelText('Phone A'), '12345');
    await expectNoMessage(screen.getByLabelText('Phone A'));
    await user.type(screen.getByLabelText('Phone B'), '12345678901');
    await expectMessage(screen.getByLabelText('Phone B'), text.badPhone);
    await user.clear(screen.getByLabelText('Phone B'));
    await user.type(screen.getByLabelText('Phone B'), '13800138000');
    await expectNoMessage(screen.getByLabelText('Phone B'));
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ loose: '12345', strict: '13800138000' }]));
  });

  it("e-mail: required; a login asks for a 'valid' address, an account for a 'correct' one", async () => {
    const { user, submitted } = await renderForm(
      language,
      <>
        <EmailField name="login" label="Login e-mail" flow="login" />
        <EmailField name="account" label="Account e-mail" />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'go' }));
    await expectMessage(screen.getByLabelText('Login e-mail'), text.emailRequired);
    await expectMessage(screen.getByLabelText('Account e-mail'), text.emailRequired);
    await user.type(screen.getByLabelText('Login e-mail'), 'a@b..com');
    await user.type(screen.getByLabelText('Account e-mail'), 'a@.b.com');
    await expectMessage(screen.getByLabelText('Login e-mail'), text.badLoginEmail);
    await expectMessage(screen.getByLabelText('Account e-mail'), text.badEmail);
    await user.clear(screen.getByLabelText('Login e-mail'));
    await user.type(screen.getByLabelText('Login e-mail'), 'runner@example.com');
    await user.clear(screen.getByLabelText('Account e-mail'));
    await user.type(screen.getByLabelText('Account e-mail'), 'runner@example.cn');
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ login: 'runner@example.com', account: 'runner@example.cn' }]));
  });

  it('name: required text checked on leaving the field, its message gone once the value changes', async () => {
    const { user, submitted } = await renderForm(
      language,
      <>
        <NameField label="Name" />
        <NameField name="nickname" label="Nickname" messages={{ required: 'nameRequired', invalid: 'textInvalid' }} />
      </>,
    );
    const name = screen.getByLabelText('Name');
    await user.type(name, ' " ');
    // Typing shows nothing: the rule waits for blur.
    await new Promise((r) => setTimeout(r, 100));
    expect(name).not.toHaveAttribute('aria-invalid');
    await user.tab();
    await expectMessage(name, text.nameInvalid);
    await user.type(name, 'x');
    await expectNoMessage(name);
    // A name as on a passport, with spaces inside, is a name.
    await user.clear(name);
    await user.type(name, 'ZHANG Wei');
    await user.tab();
    await expectNoMessage(name);
    await user.clear(name);
    await user.type(name, '""');
    await user.tab();
    await expectMessage(name, text.nameInvalid);
    await user.clear(name);
    await user.tab();
    await expectMessage(name, text.nameRequired);

    // The caller's messages.
    const nickname = screen.getByLabelText('Nickname');
    await user.type(nickname, '" "');
    await user.tab();
    await expectMessage(nickname, text.textInvalid);

    await user.type(name, '张三');
    await user.clear(nickname);
    await user.type(nickname, 'Runner');
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ name: '张三', nickname: 'Runner' }]));
  });

  it("certificate: the number follows the chosen type's rule and is checked again when the type changes", async () => {
    const { user, submitted } = await renderForm(
      language,
      <CertificateFields typeLabel="Type" numberLabel="Number" numberPlaceholder="number here" />,
    );
    const type = screen.getByLabelText('Type');
    const number = screen.getByLabelText('Number');
    expect([...type.querySelectorAll('option')].map((o) => o.textContent)).toEqual(text.types);
    expect(type).toHaveValue('1');

    // An untouched number is not judged when the type changes.
    await user.selectOptions(type, '2');
    await new Promise((r) => setTimeout(r, 100));
    expect(number).not.toHaveAttribute('aria-invalid');
    await user.selectOptions(type, '1');

    await user.click(screen.getByRole('button', { name: 'go' }));
    await expectMessage(number, text.certificateRequired);
    await user.type(number, 'H1234567');
    await user.tab();
    await expectMessage(number, text.idCardInvalid);
    await user.selectOptions(type, '2');
    await expectNoMessage(number);
    await user.selectOptions(type, '3');
    await expectMessage(number, text.hkMacaoPermitInvalid);
    await user.selectOptions(type, '4');
    await expectMessage(number, text.taiwanPermitInvalid);
    await user.clear(number);
    await user.type(number, '12345678');
    await user.tab();
    await expectNoMessage(number);
    await user.selectOptions(type, '1');
    await expectMessage(number, text.idCardInvalid);
    await user.clear(number);
    await user.type(number, VALID_ID);
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ certificateType: 1, certificateNumber: VALID_ID }]));
    await user.selectOptions(type, '2');
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted[1]).toEqual({ certificateType: 2, certificateNumber: VALID_ID }));
  });

  it('code: required, with the caller’s send button beside the input', async () => {
    const { user, submitted } = await renderForm(
      language,
      <CodeField label="Code" action={<button type="button">send</button>} />,
    );
    expect(screen.getByRole('button', { name: 'send' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'go' }));
    const code = screen.getByLabelText('Code');
    await expectMessage(code, text.captchaRequired);
    await user.type(code, '   ');
    await expectMessage(code, text.captchaRequired);
    await user.clear(code);
    await user.type(code, '123456');
    await expectNoMessage(code);
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ captcha: '123456' }]));
  });
});
