import { entryStatusLabel, placeByDraw, signUpWindow } from '#contract/entry';

describe('entryStatusLabel', () => {
  it('words a place by draw as the ballot does, and a place taken at submission as registered / awaiting payment', () => {
    expect(entryStatusLabel(0, 'ballot', 'public')).toBe('enums.registrationStatuses.0');
    expect(entryStatusLabel(1, 'payThenDraw', 'team')).toBe('enums.registrationStatuses.1');
    expect(entryStatusLabel(0, 'firstCome', 'public')).toBe('enums.registrationStatusesPlaced.0');
    expect(entryStatusLabel(1, 'firstCome')).toBe('enums.registrationStatusesPlaced.1');
    // Guaranteed channels of a ballot item take their place at submission too.
    for (const channel of ['direct', 'code', 'charity'] as const) {
      expect(entryStatusLabel(1, 'ballot', channel)).toBe('enums.registrationStatusesPlaced.1');
    }
    // The other statuses read alike; without a model, the spec's wording.
    expect(entryStatusLabel(5, 'firstCome')).toBe('enums.registrationStatuses.5');
    expect(entryStatusLabel(1)).toBe('enums.registrationStatuses.1');
    expect(placeByDraw('firstCome', 'public')).toBe(false);
    expect(placeByDraw('ballot')).toBe(true);
  });
});

describe('signUpWindow', () => {
  const race = { signUpOpenStatus: 1, signUpStartTime: '2027-01-05 09:00:00', signUpEndTime: '2027-01-20 18:00:00' };
  const at = (text: string) => Date.parse(`${text.replace(' ', 'T')}+08:00`);
  it('is closed while signUpOpenStatus is not 1, else where the race clock stands in the window', () => {
    expect(signUpWindow(race, at('2027-01-05 08:59:59'))).toBe('notYet');
    expect(signUpWindow(race, at('2027-01-05 09:00:00'))).toBe('open');
    expect(signUpWindow(race, at('2027-01-20 18:00:00'))).toBe('ended');
    expect(signUpWindow({ ...race, signUpOpenStatus: 0 }, at('2027-01-10 12:00:00'))).toBe('closed');
    expect(signUpWindow({ ...race, signUpOpenStatus: undefined }, at('2027-01-10 12:00:00'))).toBe('closed');
    expect(signUpWindow({ signUpOpenStatus: 1 }, at('2027-01-10 12:00:00'))).toBe('ended');
  });
});
