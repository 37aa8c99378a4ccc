import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
import i18n from 'i18next';
import { initI18n } from '@/app/i18n';
import { AntdScope } from '@/components/ui/antd-scope';
import { useAppStore, type Language } from '@/stores/app-store';
import { loadRegionSource, RegionField, type RegionSource } from './region-picker';

const TEXT = {
  zh: {
    placeholder: '请选择省/市/区',
    loading: '正在加载省市区数据…',
    loadError: '省市区数据加载失败',
    retry: '重试',
    noMatch: '没有匹配的地区',
    incomplete: '请选择完整的省、市、区',
    unknown: '请从列表中选择省、市、区',
    search: '海淀',
    haidian: '北京市 / 北京市 / 海淀区',
    pudong: ['上海市', '上海市', '浦东新区'],
  },
  en: {
    placeholder: 'Select province / city / district',
    loading: 'Loading the regions…',
    loadError: 'The regions could not be loaded',
    retry: 'Retry',
    noMatch: 'No matching region',
    incomplete: 'Please select a province, a city and a district',
    unknown: 'Please choose the province, city and district from the list',
    search: 'haidian',
    haidian: 'Beijing / Beijing / Haidian District',
    pudong: ['Shanghai', 'Shanghai', 'Pudong New Area'],
  },
} as const;

async function renderForm(language: Language, field: React.ReactNode, initialValues?: Record<string, unknown>) {
  await initI18n(language);
  await i18n.changeLanguage(language);
  useAppStore.getState().setLanguageState(language);
  const submitted: Record<string, unknown>[] = [];
  render(
    <AntdScope>
      <Form
        name="probe"
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues}
        onFinish={(v: Record<string, unknown>) => submitted.push(v)}
      >
        {field}
        <button type="submit">go</button>
      </Form>
    </AntdScope>,
  );
  return { user: userEvent.setup(), submitted };
}

/** The text of the messages linked to the input (aria-describedby). */
const linkedText = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby')?.split(' ') ?? [])
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();

async function expectMessage(input: HTMLElement, text: string) {
  await waitFor(() => {
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(linkedText(input)).toBe(text);
  });
}

/** An entry of the Cascader's n-th column (a province, city or district), by its name. */
const findInColumn = (column: number, name: string) =>
  waitFor(() => {
    const menu = document.querySelectorAll<HTMLElement>('.ant-cascader-menu')[column];
    expect(menu).toBeDefined();
    return within(menu!).getByRole('menuitemcheckbox', { name: new RegExp(`^${name}`) });
  });

/** The picker is ready when its input takes typing. */
const ready = (input: HTMLElement) => waitFor(() => expect(input).toBeEnabled());

describe.each(['zh', 'en'] as const)('region picker in %s', (language) => {
  const text = TEXT[language];

  it('loads the data, then finds a district by typing and gives its three codes', async () => {
    const { user, submitted } = await renderForm(language, <RegionField label="Home region" />);
    const input = screen.getByLabelText('Home region');
    expect(input).toHaveAttribute('aria-required', 'true');
    await ready(input);
    expect(screen.getByText(text.placeholder)).toBeInTheDocument();

    await user.type(input, text.search);
    await user.click(await screen.findByText((_, el) => el?.textContent === text.haidian && el.tagName === 'LI'));
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ region: ['110000', '110100', '110108'] }]));
    expect(screen.getByText(text.haidian)).toBeInTheDocument(); // the chosen path, shown in the field
  });

  it('goes down the three levels by clicking, and a province or city alone is not a choice', async () => {
    const { user, submitted } = await renderForm(language, <RegionField label="Home region" />);
    const input = screen.getByLabelText('Home region');
    await ready(input);
    await user.click(input);
    const [province, city, district] = text.pudong;
    await user.click(await findInColumn(0, province));
    await user.click(await findInColumn(1, city));
    // Two levels chosen: nothing is the form's value yet.
    await user.click(screen.getByRole('button', { name: 'go' }));
    await expectMessage(input, text.incomplete);
    expect(submitted).toEqual([]);

    // Opened again, it starts from the value (none): down the three levels this time.
    await user.click(input);
    await user.click(await findInColumn(0, province));
    await user.click(await findInColumn(1, city));
    await user.click(await findInColumn(2, district));
    await waitFor(() => expect(input).not.toHaveAttribute('aria-invalid'));
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ region: ['310000', '310100', '310115'] }]));
  });

  it('refuses an empty required picker with the three-levels message', async () => {
    const { user } = await renderForm(language, <RegionField label="Home region" />);
    const input = screen.getByLabelText('Home region');
    await ready(input);
    await user.click(screen.getByRole('button', { name: 'go' }));
    await expectMessage(input, text.incomplete);
  });

  it('refuses a stored value of a city under another province', async () => {
    const { user, submitted } = await renderForm(language, <RegionField label="Home region" />, {
      region: ['440000', '320100', '320102'],
    });
    const input = screen.getByLabelText('Home region');
    await ready(input);
    await user.click(screen.getByRole('button', { name: 'go' }));
    await expectMessage(input, text.unknown);
    expect(submitted).toEqual([]);
  });

  it('says when nothing matches the search', async () => {
    const { user } = await renderForm(language, <RegionField label="Home region" />);
    const input = screen.getByLabelText('Home region');
    await ready(input);
    await user.type(input, 'zzzzqqq');
    await waitFor(() => expect(screen.getByText(text.noMatch)).toBeInTheDocument());
  });

  it('shows that it is loading, then a load error with a retry that loads again', async () => {
    let calls = 0;
    let release!: () => void;
    const load = async (lang: Language): Promise<RegionSource> => {
      calls += 1;
      if (calls === 1) {
        await new Promise<void>((resolve) => (release = resolve));
        throw new Error('chunk failed');
      }
      return loadRegionSource(lang);
    };
    const { user, submitted } = await renderForm(language, <RegionField label="Home region" load={load} />);
    const input = screen.getByLabelText('Home region');
    expect(input).toBeDisabled();
    expect(screen.getByText(text.loading)).toBeInTheDocument();

    release();
    expect(await screen.findByRole('alert')).toHaveTextContent(text.loadError);
    expect(input).toBeDisabled();
    expect(linkedText(input)).toContain(text.loadError);

    await user.click(screen.getByRole('button', { name: text.retry }));
    await ready(input);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.type(input, text.search);
    await user.click(await screen.findByText((_, el) => el?.textContent === text.haidian && el.tagName === 'LI'));
    await user.click(screen.getByRole('button', { name: 'go' }));
    await waitFor(() => expect(submitted).toEqual([{ region: ['110000', '110100', '110108'] }]));
  });

  it('shows a stored value by its names in the language', async () => {
    await renderForm(language, <RegionField label="Home region" required={false} />, {
      region: ['110000', '110100', '110108'],
    });
    await ready(screen.getByLabelText('Home region'));
    expect(screen.getByText(text.haidian)).toBeInTheDocument();
    expect(screen.getByLabelText('Home region')).not.toHaveAttribute('aria-required', 'true');
  });
});
