import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { VALID_TOKEN } from '@/testing/mocks/handlers/common';
import { entryMock, resetEntryMock } from '@/testing/mocks/handlers/entry';
import { PARTICIPANT_ADULT, PARTICIPANT_MINOR, resetParticipantsMock } from '@/testing/mocks/handlers/participants';
import type { Language } from '@/stores/app-store';
import { passSlider } from '@/testing/auth-drawer';
import { renderApp } from '@/testing/test-utils';

const open = (language: Language) => renderApp({ path: '/my/signup', language, token: VALID_TOKEN });
const choose = async (user: ReturnType<typeof userEvent.setup>, item: string) =>
  user.click(
    within(await screen.findByTestId(`entry-item-${item}`)).getByRole('button', {
      name: i18n.t('entry.signUp.choose'),
    }),
  );

beforeEach(() => {
  resetEntryMock();
  resetParticipantsMock([PARTICIPANT_ADULT, PARTICIPANT_MINOR]);
});

describe.each(['zh', 'en'] as const)('choose from my participants in %s', (language: Language) => {
  it('fills the first person from a saved participant and sends its id with the masked number', async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    await open(language);
    await choose(user, 'H');
    const picker = await screen.findByTestId('saved-participant-picker');
    expect(picker).toHaveTextContent(i18n.t('entry.savedParticipants.label'));
    const select = within(picker).getByLabelText(i18n.t('entry.savedParticipants.label'));
    const option = i18n.t('entry.savedParticipants.option', { name: '李娜', number: '1101**********0022' });
    expect(within(picker).getByRole('option', { name: option })).toBeInTheDocument();
    await user.selectOptions(select, String(PARTICIPANT_ADULT.id));
    await waitFor(() => expect(screen.getByDisplayValue('李娜')).toBeInTheDocument());
    expect(screen.getByDisplayValue('1101**********0022')).toBeInTheDocument();
    expect(screen.getByDisplayValue('1990-05-20')).toBeInTheDocument();
    await passSlider();
    await user.click(screen.getByRole('button', { name: i18n.t('entry.signUp.submit') }));
    await waitFor(() => expect(entryMock.submitted).toHaveLength(1));
    expect(entryMock.submitted[0]?.participants).toEqual([
      {
        item: 'H',
        name: '李娜',
        certificateType: 1,
        certificateNumber: '1101**********0022',
        birthday: '1990-05-20',
        savedParticipantId: PARTICIPANT_ADULT.id,
      },
    ]);
  });
});

it('picks a saved participant for a person of the list when the race allows several', async () => {
  entryMock.info.allowMultiple = true;
  resetParticipantsMock([PARTICIPANT_ADULT]);
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  await open('en');
  await choose(user, 'M');
  await user.selectOptions(await screen.findByTestId('saved-participant-select'), String(PARTICIPANT_ADULT.id));
  await screen.findByDisplayValue('李娜');
  await user.click(screen.getByRole('button', { name: i18n.t('entry.signUp.savePerson') }));
  expect(await screen.findByTestId('entry-person-0')).toHaveTextContent('李娜');
  await passSlider();
  await user.click(screen.getByTestId('entry-submit'));
  await waitFor(() => expect(entryMock.submitted).toHaveLength(1));
  expect(entryMock.submitted[0]?.participants).toEqual([
    expect.objectContaining({ name: '李娜', certificateNumber: '1101**********0022', savedParticipantId: 7 }),
  ]);
});

it('shows no picker while the account has no saved participant', async () => {
  resetParticipantsMock([]);
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  await open('zh');
  await choose(user, 'H');
  await screen.findByRole('button', { name: i18n.t('entry.signUp.submit') });
  expect(screen.queryByTestId('saved-participant-picker')).not.toBeInTheDocument();
});
