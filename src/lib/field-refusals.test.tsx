import { act, render, screen, waitFor } from '@testing-library/react';
import { Form, Input, type FormInstance } from 'antd';
import { initI18n } from '@/app/i18n';
import { ApiError } from './api-client';
import { fieldRefusalsOf, showFieldRefusals } from './field-refusals';

type Values = { phone?: string; region?: string };

function renderForm() {
  const ref: { form?: FormInstance<Values> } = {};
  function TestForm() {
    const [form] = Form.useForm<Values>();
    ref.form = form;
    return (
      <Form<Values> form={form}>
        <Form.Item name="phone" label="phone">
          <Input />
        </Form.Item>
        <Form.Item name="region" label="region">
          <Input />
        </Form.Item>
      </Form>
    );
  }
  render(<TestForm />);
  return ref.form!;
}

describe('field refusals', () => {
  it('reads the per-field refusals of a save and nothing else', () => {
    const refused = new ApiError('business', 'x', 400, 200, {
      fields: { phone: { code: 'badPhone' }, other: { code: 'noSuchCode' } },
    });
    expect(fieldRefusalsOf(refused)).toEqual({ phone: { code: 'badPhone' } });
    expect(fieldRefusalsOf(new ApiError('business', 'x', 400))).toBeNull();
    expect(fieldRefusalsOf(new Error('x'))).toBeNull();
  });

  it('shows each refusal under its field in the visitor language', async () => {
    await initI18n('zh');
    const form = renderForm();
    let names: string[] = [];
    act(() => {
      names = showFieldRefusals(form, { phone: { code: 'badPhone' } });
    });
    expect(names).toEqual(['phone']);
    await waitFor(() => expect(screen.getByText('请输入正确的手机号')).toBeInTheDocument());
    expect(form.getFieldError('phone')).toEqual(['请输入正确的手机号']);
  });

  it('puts a refused key on the field the form maps it to', async () => {
    await initI18n('en');
    const form = renderForm();
    let names: string[] = [];
    act(() => {
      names = showFieldRefusals(
        form,
        { residentialProvince: { code: 'phoneRequired' }, phone: { code: 'badPhone' } },
        (key) => (key.startsWith('residential') ? 'region' : key),
      );
    });
    expect(names).toEqual(['region', 'phone']);
    expect(form.getFieldError('region')).toEqual(['Please enter phone number']);
    await waitFor(() => expect(screen.getByText('Please enter a correct phone number')).toBeInTheDocument());
  });
});
