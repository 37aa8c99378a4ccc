import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import { checkFormDocument, checkSubmission, FIELD_TYPES, type RegistrationForm } from '#contract/registration-form';
import { sql } from '../src/db/engine.ts';
import { checkRegistrationSubmission, serverSubmissionContext } from '../src/services/registration/check-submission.ts';
import {
  buildTestApp,
  FIXTURE_RACE_ID,
  FIXTURE_SEED,
  FIXTURES,
  openTestDatabase,
  removeTempDirs,
  siteCli,
  tempDir,
} from './helpers.ts';

afterAll(removeTempDirs);

const DEMO_FORMS = path.resolve(import.meta.dirname, '../seed/registration-forms');
const demoForm = (name: string) =>
  JSON.parse(readFileSync(path.join(DEMO_FORMS, name), 'utf8')) as Record<string, unknown>;

const formUrl = (query: string) => `${API_PATHS.registrationForm}?${query}`;

describe('GET the published registration form', () => {
  it('answers the seeded form of a race (channel public by default), cacheable for 60 s', async () => {
    const app = await buildTestApp();
    try {
      const res = await app.inject({ method: 'GET', url: formUrl(`raceId=${FIXTURE_RACE_ID}`) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      const body = res.json();
      expect(body).toMatchObject({
        code: 0,
        data: { raceId: FIXTURE_RACE_ID, channel: 'public', version: 1, form: { version: 1, channel: 'public' } },
      });
      expect(body.data.md5).toMatch(/^[0-9a-f]{32}$/);
      expect(body.data.form.fields.map((f: { key: string }) => f.key)).toEqual(['name', 'phone', 'emergencyPhone']);
      expect(checkFormDocument(body.data.form).problems).toEqual([]);
      const same = await app.inject({ method: 'GET', url: formUrl(`raceId=${FIXTURE_RACE_ID}&channel=public`) });
      expect(same.json()).toEqual(body);
    } finally {
      await app.close();
    }
  });

  it('answers registrationFormMissing for an unknown race or channel, not cached', async () => {
    const app = await buildTestApp();
    try {
      for (const query of [`raceId=${FIXTURE_RACE_ID}&channel=direct`, 'raceId=no-such-race']) {
        const res = await app.inject({ method: 'GET', url: formUrl(query) });
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.json()).toEqual({
          code: 404,
          msg: 'No registration form is published for this race and channel',
          data: null,
          msgCode: 'registrationFormMissing',
        });
      }
    } finally {
      await app.close();
    }
  });

  it('refuses a request without raceId or with a malformed channel', async () => {
    const app = await buildTestApp();
    try {
      for (const query of ['channel=public', `raceId=${FIXTURE_RACE_ID}&channel=Direct!`]) {
        const res = await app.inject({ method: 'GET', url: formUrl(query) });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 400, msgCode: 'invalidRequest' });
      }
    } finally {
      await app.close();
    }
  });
});

describe('site form-validate and form-publish', () => {
  it('validates the demo forms', async () => {
    const run = siteCli(tempDir());
    const res = await run('form-validate', path.join(DEMO_FORMS, 'qc-marathon-2027.json'));
    expect(res).toMatchObject({ code: 0, out: 'valid: 26 fields for race qc-marathon-2027, channel public' });
    const direct = await run('form-validate', path.join(DEMO_FORMS, 'qc-marathon-2027.direct.json'));
    expect(direct).toMatchObject({ code: 0, out: 'valid: 24 fields for race qc-marathon-2027, channel direct' });
  });

  it('prints every problem with its JSON path and exits 1', async () => {
    const res = await siteCli(tempDir())('form-validate', 'invalid-registration-form.json');
    expect(res.code).toBe(1);
    expect(res.err).toContain('invalid-registration-form.json is not a valid registration form (6 problems):');
    for (const line of [
      '$.fields[0].requred: unknown key "requred"; did you mean "required"?',
      '$.fields[0].label.en: must be a string',
      '$.fields[1].options[1].value: "A" is already the value of option 0',
      '$.fields[2].showWhen.field: "later" comes after this field; showWhen must name an earlier field',
      '$.fields[2].rules[0].field: must be the key of another field of this form',
      '$.fields[3].min: must be a date "YYYY-MM-DD"',
    ]) {
      expect(res.err).toContain(`  ${line}`);
    }
  });

  it('reports broken JSON with its line and column, and a missing file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, '{\n  "version": 1,\n  "fields": [\n}\n');
    const run = siteCli(dir);
    const res = await run('form-validate', file);
    expect(res.code).toBe(1);
    expect(res.err).toContain('Invalid JSON at line 4, column 1');
    expect(await run('form-validate', 'nothing-here.json')).toMatchObject({
      code: 1,
      err: 'Cannot read nothing-here.json: no such file',
    });
  });

  it('publishes a channel form that the server then serves; the same document again is unchanged', async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    const res = await run('form-publish', FIXTURE_RACE_ID, 'registration-form-direct.json');
    expect(res.code).toBe(0);
    expect(res.out).toContain(`published the registration form of ${FIXTURE_RACE_ID}, channel direct: version 1`);
    const again = await run('form-publish', FIXTURE_RACE_ID, 'registration-form-direct.json', '--channel', 'direct');
    expect(again.out).toContain('unchanged: this form is already published');

    const app = await buildTestApp({ dataDir, seedDir: FIXTURE_SEED });
    try {
      const body = (
        await app.inject({ method: 'GET', url: formUrl(`raceId=${FIXTURE_RACE_ID}&channel=direct`) })
      ).json();
      expect(body.data).toMatchObject({ channel: 'direct', version: 1 });
      expect(body.data.form.fields.map((f: { type: string }) => f.type)).toEqual(['input', 'scoreVerification']);
    } finally {
      await app.close();
    }
  });

  it('publishes a changed document as the next version, under --channel', async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    const doc = JSON.parse(readFileSync(path.join(FIXTURE_SEED, 'registration-forms/fixture-race-2025.json'), 'utf8'));
    doc.fields.push({ key: 'email', type: 'email', label: { zh: '邮箱', en: 'E-mail' } });
    const file = path.join(dataDir, 'sponsor.json');
    writeFileSync(file, JSON.stringify(doc));
    expect((await run('form-publish', FIXTURE_RACE_ID, file, '--channel', 'sponsor')).out).toContain('version 1');
    doc.fields.pop();
    writeFileSync(file, JSON.stringify(doc));
    expect((await run('form-publish', FIXTURE_RACE_ID, file, '--channel', 'sponsor')).out).toContain(
      'channel sponsor: version 2',
    );
    const app = await buildTestApp({ dataDir, seedDir: FIXTURE_SEED });
    try {
      const body = (
        await app.inject({ method: 'GET', url: formUrl(`raceId=${FIXTURE_RACE_ID}&channel=sponsor`) })
      ).json();
      expect(body.data.version).toBe(2);
      expect(body.data.form.fields).toHaveLength(3);
    } finally {
      await app.close();
    }
  });

  it('refuses an invalid document, another race, another channel or an unknown race, and publishes nothing', async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    const invalid = await run('form-publish', FIXTURE_RACE_ID, 'invalid-registration-form.json');
    expect(invalid.code).toBe(1);
    expect(invalid.err).toContain('Refused to publish');
    expect(invalid.err).toContain('$.fields[1].options[1].value');

    const otherRace = await run('form-publish', 'another-race', 'registration-form-direct.json');
    expect(otherRace.code).toBe(1);
    expect(otherRace.err).toContain(
      '$.raceId: is "fixture-race-2025", but the form is published for race "another-race"',
    );

    const otherChannel = await run(
      'form-publish',
      FIXTURE_RACE_ID,
      'registration-form-direct.json',
      '--channel',
      'public',
    );
    expect(otherChannel.code).toBe(1);
    expect(otherChannel.err).toContain('$.channel: is "direct", but the form is published for channel "public"');

    const dir = tempDir();
    const file = path.join(dir, 'ghost.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(readFileSync(path.join(FIXTURES, 'registration-form-direct.json'), 'utf8')),
        raceId: 'ghost-race',
      }),
    );
    const ghost = await run('form-publish', 'ghost-race', file);
    expect(ghost.code).toBe(1);
    expect(ghost.err).toContain('$.raceId: no race "ghost-race"; add it first with: site add-race <race.json>');

    expect(await run('form-publish', FIXTURE_RACE_ID, 'registration-form-direct.json', '--channel')).toMatchObject({
      code: 2,
      err: expect.stringContaining('--channel needs a value.'),
    });
    expect(
      await run('form-publish', FIXTURE_RACE_ID, 'registration-form-direct.json', '--channel', 'Direct!'),
    ).toMatchObject({
      code: 2,
      err: expect.stringContaining('--channel "Direct!" must be lower-case letters'),
    });

    const opened = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: Date.now() });
    try {
      expect((await opened.repos.registrationForms.listLatest()).map((f) => [f.channel, f.version])).toEqual([
        ['public', 1],
      ]);
    } finally {
      await opened.db.close();
    }
  });

  it('lists the published forms with their race, channel and version', async () => {
    const dataDir = tempDir();
    const run = siteCli(dataDir);
    await run('form-publish', FIXTURE_RACE_ID, 'registration-form-direct.json');
    const res = await run('list');
    expect(res.out).toMatch(
      /registration forms:\n {2}fixture-race-2025 direct: version 1, [0-9a-f]{32} at 2025-06-16T02:00:00\.000Z\n {2}fixture-race-2025 public: version 1/,
    );
  });

  it('lists form-validate and form-publish in the help', async () => {
    const res = await siteCli(tempDir())('help');
    expect(res.out).toContain('form-validate <file.json>');
    expect(res.out).toContain('form-publish <raceId> <file.json> [--channel <name>]');
  });
});

describe('seeding the forms', () => {
  it('publishes the seed forms once, and again into a data folder that has none', async () => {
    const dataDir = tempDir();
    const first = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: Date.now() });
    try {
      expect(await first.repos.registrationForms.count()).toBe(1);
      await first.db.run(sql`DELETE FROM registration_forms`);
    } finally {
      await first.db.close();
    }
    const second = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: Date.now() });
    try {
      expect(await second.repos.registrationForms.count()).toBe(1);
    } finally {
      await second.db.close();
    }
    const third = await openTestDatabase({ dataDir, seedDir: FIXTURE_SEED, now: Date.now() });
    try {
      expect(await third.repos.registrationForms.count()).toBe(1);
    } finally {
      await third.db.close();
    }
  });
});

describe('the demo race forms', () => {
  const context = serverSubmissionContext();
  const form = checkFormDocument(demoForm('qc-marathon-2027.json')).form as RegistrationForm;

  it('are valid, and the public form uses every field type', () => {
    expect(form).toBeDefined();
    expect(checkFormDocument(demoForm('qc-marathon-2027.direct.json')).problems).toEqual([]);
    const used = new Set(form.fields.map((f) => f.type));
    expect(FIELD_TYPES.filter((type) => !used.has(type))).toEqual([]);
  });

  const entry = {
    item: 'M',
    name: '王小明',
    gender: 1,
    certificateType: 1,
    certificateNumber: '11010519491231002X',
    birthday: '1988-08-08',
    phone: '13800138000',
    email: 'runner@example.com',
    nationality: 'CN',
    region: ['320000', '320100', '320102'],
    address: '运河中路1号',
    emergencyName: '李红',
    emergencyPhone: '13900139000',
    bloodType: 'O',
    tshirtSize: 'L',
    marathonsFinished: 3,
    qualifyingResult: { source: 'own', resultId: 'qc-marathon-2026:A00001' },
    photo: '/files/uploads/u1/photo.jpg',
    healthCertificate: '/files/uploads/u1/report.pdf',
    interests: ['expo', 'pacer'],
    stravaProfile: 'https://www.strava.com/athletes/1',
  };

  it('pass a complete entry, and refuse what the SPA refuses with the same codes', () => {
    expect(checkSubmission(form, entry, context)).toEqual({});
    const refusals = checkSubmission(
      form,
      {
        ...entry,
        name: '""',
        emergencyPhone: '13800138000',
        nationality: 'ZZ',
        tshirtSize: 'XXXL',
        marathonsFinished: '03',
        stravaProfile: 'strava',
        verificationFee: 'paid',
      },
      context,
    );
    expect(Object.fromEntries(Object.entries(refusals).map(([key, r]) => [key, r.code]))).toEqual({
      name: 'nameInvalid',
      emergencyPhone: 'emergencyPhoneSame',
      nationality: 'badCountry',
      tshirtSize: 'sizeSoldOut',
      marathonsFinished: 'positiveInteger',
      stravaProfile: 'badUrl',
      verificationFee: 'readOnlyField',
    });
  });

  it('are checked on the server with its country list and region tree, keeping only what the runner may set', async () => {
    const accepted = await checkRegistrationSubmission(form, { ...entry, address: ' 运河中路1号 ', stranger: 'x' });
    expect(accepted.ok && accepted.values).toMatchObject({
      address: '运河中路1号',
      region: ['320000', '320100', '320102'],
    });
    expect(accepted.ok && accepted.values).not.toHaveProperty('stranger');
    expect(await checkRegistrationSubmission(form, { ...entry, region: ['320000', '320100', '110101'] })).toEqual({
      ok: false,
      refusals: { region: { code: 'regionUnknown' } },
    });
    expect(await checkRegistrationSubmission(form, { ...entry, nationality: 'HK', region: undefined })).toMatchObject({
      ok: true,
    });
    const own = await checkRegistrationSubmission(form, entry, { ownResult: () => false });
    expect(own).toEqual({ ok: false, refusals: { qualifyingResult: { code: 'badPastEvent' } } });
  });

  it('check the upload values against the files the runner uploaded', async () => {
    const stored: Record<string, number> = {
      'report.pdf': 5 * 1024 * 1024,
      'big.jpg': 3 * 1024 * 1024,
      'cert.png': 1000,
    };
    const uploads = {
      userId: 7,
      uploads: {
        findForUser: async (userId: number, storedName: string) =>
          userId === 7 && storedName in stored
            ? {
                userId,
                storedName,
                originalName: storedName,
                kind: 'image' as const,
                bytes: stored[storedName]!,
                sha256: '',
                ip: '',
                createdAt: 0,
              }
            : undefined,
      },
    };
    const values = {
      ...entry,
      photo: 'uploads/big.jpg',
      healthCertificate: 'uploads/report.pdf,/files/uploads/not-mine.pdf',
      qualifyingResult: {
        source: 'outside',
        raceName: '2026 上海马拉松',
        item: 'M',
        chipTime: '2:59:59',
        raceDate: '2026-11-29',
        certificateImage: 'uploads/elsewhere.png',
      },
    };
    expect(await checkRegistrationSubmission(form, values, { uploads })).toEqual({
      ok: false,
      refusals: {
        photo: { code: 'fileTooBig', params: { size: 2, unit: 'MB' } },
        healthCertificate: { code: 'badUpload' },
        qualifyingResult: { code: 'badUpload' },
      },
    });
    const fine = {
      ...values,
      photo: undefined,
      item: 'HM',
      healthCertificate: '/files/uploads/report.pdf',
      qualifyingResult: undefined,
      marathonsFinished: undefined,
    };
    expect(await checkRegistrationSubmission(form, fine, { uploads })).toMatchObject({
      ok: false,
      refusals: { photo: { code: 'uploadRequired' } },
    });
    // The photo must be exactly 358 × 441 px: the stored file's header is read.
    const png = readFileSync(path.join(FIXTURES, 'images/3x2.png'));
    const withFiles = { ...uploads, files: { get: async () => png } };
    expect(
      await checkRegistrationSubmission(form, { ...fine, photo: 'uploads/cert.png' }, { uploads: withFiles }),
    ).toEqual({
      ok: false,
      refusals: {
        photo: {
          code: 'imageSizeMismatch',
          params: { width: 358, height: 441, actualWidth: 3, actualHeight: 2 },
        },
      },
    });
  });

  it('ask the marathon-only questions only of marathon runners', () => {
    const { marathonsFinished: _m, qualifyingResult: _q, ...tenK } = entry;
    expect(checkSubmission(form, { ...tenK, item: '10K', healthCertificate: '' }, context)).toEqual({});
    expect(checkSubmission(form, { ...tenK, item: 'HM', healthCertificate: '' }, context)).toEqual({
      healthCertificate: { code: 'uploadRequired' },
    });
  });
});
