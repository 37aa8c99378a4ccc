import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { http, HttpResponse } from 'msw';
import { API_PATHS } from '#contract/api';
import type { MessageCode } from '#contract/messages';
import { saveUserData } from '@/lib/user-data';
import type { Language } from '@/stores/app-store';
import { api } from '@/testing/mocks/base-url';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import {
  PARTICIPANT_ADULT,
  PARTICIPANT_MINOR,
  participantsMock,
  resetParticipantsMock,
} from '@/testing/mocks/handlers/participants';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const message = (code: MessageCode) => i18n.t(`messages.${code}`);
type LabelKey =
  'name' | 'certificateNumber' | 'birthday' | 'phone' | 'emergencyName' | 'emergencyPhone' | 'deleteTitle';
const label = (key: LabelKey) => i18n.t(`centre.participants.${key}`);
const open = async (language: Language) => {
  saveUserData({ token: VALID_TOKEN });
  await renderApp({ path: '/my/participants', language, token: VALID_TOKEN });
  return screen.findByTestId('participants-page');
};

const T = {
  zh: { title: '常用参赛人', adult: '成年', minor: '未成年', age: '（36 岁）', empty: '您还没有常用参赛人。' },
  en: {
    title: 'My participants',
    adult: 'Adult',
    minor: 'Minor',
    age: '(36 years old)',
    empty: 'You have no saved participants yet.',
  },
} as const;

beforeEach(() => resetParticipantsMock([PARTICIPANT_ADULT, PARTICIPANT_MINOR]));

describe.each(['zh', 'en'] as const)('my participants in %s', (language) => {
  const t = T[language];

  it('lists the saved participants with masked numbers, age and the adult or minor tag', async () => {
    const page = await open(language);
    const adult = await within(page).findByTestId(`participant-${PARTICIPANT_ADULT.id}`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(t.title);
    expect(within(adult).getByTestId('participant-name')).toHaveTextContent('李娜');
    expect(within(adult).getByTestId('participant-adult')).toHaveTextContent(t.adult);
    expect(within(adult).getByTestId('participant-certificate')).toHaveTextContent('1101**********0022');
    expect(within(adult).getByTestId('participant-phone')).toHaveTextContent('136****0001');
    expect(adult).toHaveTextContent('1990-05-20');
    expect(adult).toHaveTextContent(t.age);
    expect(adult).toHaveTextContent('李强 · 135****0002');
    expect(adult).not.toHaveTextContent(PARTICIPANT_ADULT.certificateNumber);
    const minor = within(page).getByTestId(`participant-${PARTICIPANT_MINOR.id}`);
    expect(within(minor).getByTestId('participant-adult')).toHaveTextContent(t.minor);
    expect(within(minor).getByTestId('participant-certificate')).toHaveTextContent('E1*****78');
  });

  it('shows the empty state', async () => {
    resetParticipantsMock([]);
    const page = await open(language);
    expect(await within(page).findByTestId('participants-empty')).toHaveTextContent(t.empty);
  });
});

describe('adding, editing and deleting', () => {
  it('adds a participant once the contract checks (the emergency contact differs) pass on blur', async () => {
    resetParticipantsMock([]);
    const user = userEvent.setup();
    // One change per value (a paste): typing key by key into antd fields takes seconds a field in jsdom.
    const fill = async (input: HTMLElement, text: string) => {
      await user.click(input);
      await user.paste(text);
    };
    // Leaving a field by a click on the page's title (Tab reads the computed style of every element in jsdom).
    const leave = () => user.click(screen.getByRole('heading', { level: 1 }));
    const page = await open('zh');
    await user.click(await within(page).findByTestId('participants-add'));
    const form = within(page).getByTestId('participant-form');
    await fill(within(form).getByLabelText(label('name')), '张三');
    await user.click(within(form).getByLabelText(i18n.t('enums.genders.1')));
    await fill(within(form).getByLabelText(label('certificateNumber')), '110105199003071239');
    await fill(within(form).getByLabelText(label('birthday')), '1990-03-07');
    await user.keyboard('{Enter}');
    await fill(within(form).getByLabelText(label('phone')), '13812345678');
    await fill(within(form).getByLabelText(label('emergencyName')), '张三');
    await leave();
    expect(await within(form).findByText(message('emergencyNameSame'))).toBeInTheDocument();
    await user.clear(within(form).getByLabelText(label('emergencyName')));
    await fill(within(form).getByLabelText(label('emergencyName')), '李四');
    await fill(within(form).getByLabelText(label('emergencyPhone')), '13812345678');
    await leave();
    expect(await within(form).findByText(message('emergencyPhoneSame'))).toBeInTheDocument();
    await user.clear(within(form).getByLabelText(label('emergencyPhone')));
    await fill(within(form).getByLabelText(label('emergencyPhone')), '13987654321');
    await user.click(within(form).getByTestId('participant-save'));

    await waitFor(() => expect(participantsMock.saves).toHaveLength(1));
    expect(participantsMock.saves[0]).toEqual({
      name: '张三',
      gender: 1,
      certificateType: 1,
      certificateNumber: '110105199003071239',
      birthday: '1990-03-07',
      phone: '13812345678',
      emergencyName: '李四',
      emergencyPhone: '13987654321',
    });
    const card = await within(page).findByTestId('participant-100');
    expect(within(card).getByTestId('participant-certificate')).toHaveTextContent('1101**********1239');
    expect(within(page).queryByTestId('participant-form')).not.toBeInTheDocument();
  });

  it("shows the server's field refusals on their fields and keeps the form open", async () => {
    server.use(
      http.post(api(API_PATHS.participantSave), () =>
        HttpResponse.json({
          code: 400,
          msg: 'refused',
          msgCode: 'idCardInvalid',
          data: { fields: { certificateNumber: { code: 'idCardInvalid' } } },
        }),
      ),
    );
    const user = userEvent.setup();
    const page = await open('zh');
    const adult = await within(page).findByTestId(`participant-${PARTICIPANT_ADULT.id}`);
    await user.click(within(adult).getByTestId('participant-edit'));
    const form = within(page).getByTestId('participant-form');
    await user.click(within(form).getByTestId('participant-save'));
    const item = within(form).getByLabelText(label('certificateNumber')).closest('.ant-form-item')!;
    await waitFor(() => expect(item).toHaveTextContent(message('idCardInvalid')));
    expect(within(page).getByTestId('participant-form')).toBeInTheDocument();
  });

  it('edits with the masked numbers sent back unchanged, and deletes after a confirmation', async () => {
    const user = userEvent.setup();
    const fill = async (input: HTMLElement, text: string) => {
      await user.click(input);
      await user.paste(text);
    };
    const page = await open('en');
    const adult = await within(page).findByTestId(`participant-${PARTICIPANT_ADULT.id}`);
    await user.click(within(adult).getByTestId('participant-edit'));
    const form = within(page).getByTestId('participant-form');
    expect(within(form).getByLabelText(label('certificateNumber'))).toHaveValue('1101**********0022');
    const name = within(form).getByLabelText(label('name'));
    await user.clear(name);
    await fill(name, 'LiNa');
    await user.click(within(form).getByTestId('participant-save'));
    await waitFor(() => expect(participantsMock.saves).toHaveLength(1));
    expect(participantsMock.saves[0]).toMatchObject({
      id: PARTICIPANT_ADULT.id,
      name: 'LiNa',
      certificateNumber: '1101**********0022',
      phone: '136****0001',
      emergencyPhone: '135****0002',
    });
    expect(participantsMock.list[0]).toMatchObject({ certificateNumber: PARTICIPANT_ADULT.certificateNumber });
    const card = () => within(page).getByTestId(`participant-${PARTICIPANT_ADULT.id}`);
    await waitFor(() => expect(within(card()).getByTestId('participant-name')).toHaveTextContent('LiNa'));

    await user.click(within(card()).getByTestId('participant-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(label('deleteTitle'));
    expect(dialog).toHaveTextContent('LiNa');
    await user.click(within(dialog).getByTestId('participants-delete-ok'));
    await waitFor(() => expect(participantsMock.deletes).toEqual([PARTICIPANT_ADULT.id]));
    await waitFor(() =>
      expect(within(page).queryByTestId(`participant-${PARTICIPANT_ADULT.id}`)).not.toBeInTheDocument(),
    );
    expect(within(page).getByTestId(`participant-${PARTICIPANT_MINOR.id}`)).toBeInTheDocument();
  });
});
