/**
 * One entry from the command line (issue 30 §5; cli/entry-one-commands.ts): the console's actions, the same
 * services, recorded in the audit log and on the timeline as the command line's. A ballot winner cancelled by
 * the organiser gives the place to the next on the wait list, as every freed place does. Both engines; no app.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySettings } from '#contract/entry';
import type { RaceInfo } from '#contract/site-config/race-types';
import type { OpenedDatabase } from '../src/db/database.ts';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { idCard } from '../src/db/seed-runners.ts';
import { FIXTURE_RACE_ID, FIXTURE_SEED, openTestDatabase, removeTempDirs, siteCli, tempDir } from './helpers.ts';

const T0 = Date.UTC(2025, 5, 16, 2, 0, 0);
const END = Date.UTC(2025, 5, 20, 12, 0, 0);
const HOUR = 3_600_000;
const name = (zh: string, en = zh) => ({ zh, en });
const ENTRY: EntrySettings = {
  allowMultiple: false,
  items: [{ code: 'M', name: name('马拉松', 'Marathon'), capacity: 2, feeFen: 20_000, model: 'ballot' }],
};
const FORM = {
  version: 1,
  raceId: FIXTURE_RACE_ID,
  channel: 'public',
  fields: [
    { key: 'name', type: 'input', label: name('姓名', 'Name'), required: true },
    { key: 'gender', type: 'gender', label: name('性别', 'Gender'), required: true },
    { key: 'certificateType', type: 'certificateType', label: name('证件类型', 'Type'), required: true },
    {
      key: 'certificateNumber',
      type: 'certificateNumber',
      typeField: 'certificateType',
      label: name('证件号码', 'Number'),
      required: true,
    },
    { key: 'birthday', type: 'date', label: name('出生日期', 'Birthday'), required: true },
    { key: 'phone', type: 'phone', label: name('手机', 'Phone'), required: true },
  ],
};

const dataDir = tempDir();
let opened: OpenedDatabase;
const cli = (at: number, ...argv: string[]) => siteCli(dataDir, () => at)(...argv);
const certs: string[] = [];

beforeAll(async () => {
  opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: T0 });
  const { repos } = opened;
  const race = (await repos.races.findById(FIXTURE_RACE_ID))!;
  const withEntry: RaceInfo = {
    ...race,
    signUpOpenStatus: 1,
    signUpStartTime: '2025-06-01 00:00:00',
    signUpEndTime: '2025-06-20 20:00:00',
    entry: ENTRY,
  };
  await repos.races.save(withEntry, T0);
  await repos.entries.ensurePlaces(FIXTURE_RACE_ID, ENTRY);
  await publishRegistrationForm({
    repos,
    raceId: FIXTURE_RACE_ID,
    channel: 'public',
    bytes: Buffer.from(JSON.stringify(FORM)),
    now: T0,
  });
  for (let i = 1; i <= 4; i += 1) {
    const cert = idCard(`11010119900101${String(200 + i)}`);
    certs.push(cert);
    const userId = await repos.users.create({ phone: `1370000100${i}` }, T0);
    await repos.entries.insertEntry({
      raceId: FIXTURE_RACE_ID,
      itemCode: 'M',
      channel: 'public',
      userId,
      teamId: null,
      status: 0,
      holdsPlace: false,
      name: `王${i}`,
      gender: 1,
      birthday: '1990-01-01',
      certType: 1,
      certHash: repos.raceCenter.certHash(cert),
      certNumber: cert,
      phone: `1370000100${i}`,
      values: {
        name: `王${i}`,
        gender: 1,
        certificateType: 1,
        certificateNumber: cert,
        birthday: '1990-01-01',
        phone: `1370000100${i}`,
      },
      feeFen: 20_000,
      now: T0,
    });
  }
});

afterAll(async () => {
  await opened?.db.close();
  removeTempDirs();
});

describe('one entry from the command line', () => {
  it('cancels a ballot winner: the wait list moves, the command line is on the timeline and in the audit log', async () => {
    const { repos } = opened;
    expect((await cli(T0, 'ballot-commit', FIXTURE_RACE_ID, 'M')).code).toBe(0);
    const drawn = await cli(END + HOUR, 'ballot-draw', FIXTURE_RACE_ID, 'M');
    expect(drawn.code, drawn.err).toBe(0);
    const ballot = (await repos.ballots.latest(FIXTURE_RACE_ID, 'M'))!;
    const [winnerNo] = ballot.result!.winners;
    const [firstWaiting] = ballot.result!.waitList;

    const noReason = await cli(END + 2 * HOUR, 'entry-cancel', '--race', FIXTURE_RACE_ID, '--entry', winnerNo!);
    expect(noReason.code).toBe(2);
    const at = END + 2 * HOUR;
    const res = await cli(at, 'entry-cancel', '--race', FIXTURE_RACE_ID, '--entry', winnerNo!, '--reason', '冒名');
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain('its place is given back');
    expect((await repos.entries.findByNo(winnerNo!))!.status).toBe(3);
    const promoted = (await repos.entries.findByNo(firstWaiting!))!;
    expect(promoted).toMatchObject({ status: 1, holdsPlace: true, waitRank: null });
    const steps = (await repos.entries.events([promoted.id])).get(promoted.id)!;
    expect(steps.find((s) => s.step === 'promoted')).toMatchObject({
      note: `place of ${winnerNo} (cancelled by the organiser)`,
    });
    const winner = (await repos.entries.findByNo(winnerNo!))!;
    const cancelled = (await repos.entries.events([winner.id])).get(winner.id)!.at(-1)!;
    expect(cancelled).toMatchObject({ step: 'cancelled', note: '冒名' });
    expect(cancelled.actor).toMatch(/^cli:/);
    const [record] = await repos.audit.find({ action: 'entry.cancel', limit: 5 });
    expect(record).toMatchObject({ source: 'cli', target: winnerNo });
    expect(record!.actor).toMatch(/^cli:/);
    // Not also recorded a second time as a bare command.
    expect(await repos.audit.find({ action: 'cli.entry-cancel', limit: 5 })).toEqual([]);

    const shown = await cli(at, 'entry-show', '--race', FIXTURE_RACE_ID, '--entry', winnerNo!);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toMatch(/cancelled\s+cli /);
    expect(shown.out).not.toContain(certs[0]!);
  });

  it('edits answers from a JSON file, sets a bib and reads the whole numbers, each recorded', async () => {
    const { repos } = opened;
    const entry = (await repos.entries.listForRace(FIXTURE_RACE_ID)).find((e) => e.status === 1)!;
    const file = path.join(dataDir, 'answers.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: entry.name,
        gender: 2,
        certificateType: 1,
        certificateNumber: entry.certNumber,
        birthday: '1990-01-01',
        phone: '13900001111',
      }),
    );
    const args = ['--race', FIXTURE_RACE_ID, '--entry', entry.entryNo];
    const edited = await cli(END + 3 * HOUR, 'entry-edit', ...args, '--values', file, '--reason', '更正性别');
    expect(edited.code, edited.err).toBe(0);
    expect((await repos.entries.findById(entry.id))!).toMatchObject({ gender: 2, phone: '13900001111' });
    const bad = await cli(END + 3 * HOUR, 'entry-bib', ...args, '--bib', '000', '--reason', '补号');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('A bib is 1–20 letters or digits');
    const bib = await cli(END + 3 * HOUR, 'entry-bib', ...args, '--bib', 'A0001', '--reason', '补号');
    expect(bib.code, bib.err).toBe(0);
    expect((await repos.entries.findById(entry.id))!.bib).toBe('A0001');
    const whole = await cli(END + 3 * HOUR, 'entry-personal', ...args);
    expect(whole.out).toContain(entry.certNumber);
    expect(await repos.audit.find({ action: 'entry.personal', limit: 5 })).toHaveLength(1);
    const noPayment = await cli(
      END + 3 * HOUR,
      'entry-pay-offline',
      ...args,
      '--fen',
      '20000',
      '--method',
      'cash',
      '--reference',
      'R1',
      '--reason',
      '现场缴费',
    );
    expect(noPayment.code, noPayment.out).toBe(0);
    expect((await repos.orders.latestOfEntry(entry.id))!.status).toBe(3);
  });
});
