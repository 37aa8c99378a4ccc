/**
 * The console's direct-pass review (issue 32 §1; routes/admin/review.ts): the queue (submitted first, oldest
 * first; filtered by status), one application (personal numbers masked; the whole ones only with
 * entries.personal, logged), its documents served to reviewers only (no-store, nosniff, type checked from the
 * bytes), approving and rejecting (the CLI's reviewApplication, audited as direct.approve / direct.reject; the
 * runner reads the reason in /direct), refused twice or after a change. Runs on both engines.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '#contract/api';
import type { DirectQueueAnswer, DirectReviewDetail } from '#contract/console-review';
import type { RegistrationForm } from '#contract/registration-form';
import type { DirectApplicationSettings } from '#contract/registration-screens';
import { publishRegistrationForm } from '../src/db/registration-form-publisher.ts';
import { storeRunnerUpload } from '../src/services/uploads/runner-uploads.ts';
import { consoleMember } from './console-helpers.ts';
import { buildTestApp, fakeClock, FIXTURE_RACE_ID, multipart, removeTempDirs, tempDir } from './helpers.ts';
import { pngOf } from './png.ts';

const REPO = path.resolve(import.meta.dirname, '../..');
const DIRECT_FORM = JSON.parse(
  readFileSync(path.join(REPO, 'server/seed/registration-forms/qc-marathon-2027.direct.json'), 'utf8'),
) as RegistrationForm;
const WINDOW: DirectApplicationSettings = { startTime: '2025-06-01 10:00:00', endTime: '2025-07-01 18:00:00' };
const HOUR = 3_600_000;
const CERT = '110101199001011234';

const pdf = Buffer.from('%PDF-1.7\n% a report\n', 'latin1');

const clock = fakeClock();
const dataDir = tempDir();
let app: FastifyInstance;

interface Runner {
  id: number;
  token: string;
  photo: string;
  report: string;
  disguised: string;
}

async function upload(token: string, url: string, filename: string, content: Buffer) {
  const body = multipart(filename, content);
  const res = await app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, token } });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.url as string;
}

/** A file named a picture whose bytes are not one (the upload route refuses such a file; a store could hold one). */
async function disguisedUpload(userId: number) {
  const storedName = `disguised-${randomUUID()}.png`;
  const refused = await storeRunnerUpload(
    { repos: app.repos, files: app.files },
    { userId, storedName, originalName: 'cert.png', kind: 'image', ip: '127.0.0.1', now: clock.now() },
    Buffer.from('<html><script>alert(1)</script></html>'),
  );
  expect(refused).toBeNull();
  return `uploads/${storedName}`;
}

let people = 0;
async function runner(): Promise<Runner> {
  people += 1;
  const id = await app.repos.users.create({ phone: `1370000${String(people).padStart(4, '0')}` }, clock.now());
  const { token } = await app.repos.tokens.issue(id, 30 * 24 * HOUR, clock.now());
  return {
    id,
    token,
    photo: await upload(token, API_PATHS.uploadImage, 'photo.png', pngOf(2, 2)),
    report: await upload(token, API_PATHS.uploadFile, 'report.pdf', pdf),
    disguised: await disguisedUpload(id),
  };
}

/** A submitted (status 1) application of the runner, saved as /direct saves it. */
async function submitted(who: Runner, name: string, certNo = CERT) {
  clock.advance(60_000);
  const values = {
    item: 'M',
    name,
    certificateNumber: certNo,
    phone: '13811112222',
    qualifyingResult: {
      source: 'outside',
      raceName: '2025 上海马拉松',
      item: 'M',
      chipTime: '2:45:10',
      raceDate: '2025-03-30',
      certificateImage: who.disguised,
    },
    photo: who.photo,
    healthCertificate: who.report,
  };
  return app.repos.directApplications.save({
    raceId: FIXTURE_RACE_ID,
    userId: who.id,
    status: 1,
    name,
    certHash: app.repos.raceCenter.certHash(certNo),
    values,
    sizes: {},
    submittedAt: clock.now(),
    now: clock.now(),
  });
}

const review = `/races/${FIXTURE_RACE_ID}/review`;

beforeAll(async () => {
  app = await buildTestApp({ dataDir, env: { RATE_LIMITS: 'off', JOBS: 'off' }, now: clock.now });
  const race = (await app.repos.races.findById(FIXTURE_RACE_ID))!;
  await app.repos.races.save({ ...race, directApplication: WINDOW }, clock.now());
  await publishRegistrationForm({
    repos: app.repos,
    raceId: FIXTURE_RACE_ID,
    channel: 'direct',
    bytes: Buffer.from(JSON.stringify({ ...DIRECT_FORM, raceId: FIXTURE_RACE_ID })),
    now: clock.now(),
  });
});

afterAll(async () => {
  await app?.close();
  removeTempDirs();
});

describe('the review queue and one application', () => {
  it('lists submitted ones first, oldest first, filters by status, and refuses roles without review', async () => {
    const [a, b, c] = [await runner(), await runner(), await runner()];
    const first = await submitted(a, '钱一');
    const second = await submitted(b, '孙二', '110101199001015678');
    const draft = await app.repos.directApplications.save({
      raceId: FIXTURE_RACE_ID,
      userId: c.id,
      status: 0,
      name: '李三',
      certHash: null,
      values: { name: '李三' },
      sizes: {},
      submittedAt: null,
      now: clock.now() + 1000,
    });
    const service = await consoleMember(app, 'service', clock.now);
    const queue = (await service('GET', review)).json().data as DirectQueueAnswer;
    const ids = queue.items.map((i) => i.id);
    expect(ids.indexOf(first)).toBeLessThan(ids.indexOf(second));
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(draft));
    expect(queue.items.find((i) => i.id === first)).toMatchObject({ status: 1, name: '钱*', documents: 3 });
    expect(queue.counts[1]).toBeGreaterThanOrEqual(2);
    const onlyDrafts = (await service('GET', `${review}?status=0`)).json().data as DirectQueueAnswer;
    expect(onlyDrafts.items.every((i) => i.status === 0)).toBe(true);
    expect((await service('GET', `${review}?status=9`)).json()).toMatchObject({ code: 400 });

    for (const role of ['results', 'finance', 'checkIn'] as const) {
      const other = await consoleMember(app, role, clock.now);
      expect((await other('GET', review)).json(), role).toMatchObject({ code: 403, msgCode: 'staffForbidden' });
      expect((await other('GET', `${review}/${first}`)).json()).toMatchObject({ code: 403 });
      expect((await other('POST', `${review}/${first}/approve`, { updatedAt: 0 })).json()).toMatchObject({
        code: 403,
      });
    }
    await app.repos.races.save(
      { raceId: 'another-race-2025', raceName: '别的赛事', startTime: '2025-10-01 07:30:00' },
      clock.now(),
    );
    const elsewhere = await consoleMember(app, 'service', clock.now, ['another-race-2025']);
    expect((await elsewhere('GET', review)).json()).toMatchObject({ code: 403, msgCode: 'staffRaceForbidden' });
    expect((await service('GET', `/races/no-such-race/review`)).json()).toMatchObject({ code: 404 });
  });

  it('shows every value with personal numbers masked; the whole ones only with entries.personal, logged', async () => {
    const who = await runner();
    const id = await submitted(who, '周四', '110101199203037777');
    const service = await consoleMember(app, 'service', clock.now);
    const res = await service('GET', `${review}/${id}`);
    expect(res.headers['cache-control']).toBe('no-store');
    const detail = res.json().data as DirectReviewDetail;
    expect(res.body).not.toContain('110101199203037777');
    expect(res.body).not.toContain('13811112222');
    const cert = detail.values.find((v) => v.key === 'certificateNumber')!;
    expect(cert).toMatchObject({ personal: true, label: { zh: expect.any(String), en: expect.any(String) } });
    expect(cert.text).toMatch(/\*/);
    expect(detail.values.find((v) => v.key === 'qualifyingResult')!.claim).toMatchObject({
      source: 'outside',
      raceName: '2025 上海马拉松',
      chipTime: '2:45:10',
    });
    expect(detail.documents.map((d) => [d.field, d.kind])).toEqual([
      ['qualifyingResult', 'image'],
      ['photo', 'image'],
      ['healthCertificate', 'pdf'],
    ]);
    // Another race's id is not this race's application.
    expect((await service('GET', `${review}/999999`)).json()).toMatchObject({ code: 404 });

    const whole = await service('POST', `${review}/${id}/personal`);
    expect(whole.json().data).toEqual({ certificateNumber: '110101199203037777', phone: '13811112222' });
    const logged = await app.repos.audit.find({ action: 'direct.personal', limit: 5 });
    expect(logged[0]).toMatchObject({ target: `direct-application ${id}`, staffId: service.staffId });
    expect(JSON.stringify(logged[0])).not.toContain('110101199203037777');
    const results = await consoleMember(app, 'results', clock.now);
    expect((await results('POST', `${review}/${id}/personal`)).json()).toMatchObject({ code: 403 });
  });

  it("serves the runner's documents to reviewers only: no-store, nosniff, types from the bytes", async () => {
    const who = await runner();
    const id = await submitted(who, '吴五', '110101199304048888');
    const service = await consoleMember(app, 'service', clock.now);
    const detail = (await service('GET', `${review}/${id}`)).json().data as DirectReviewDetail;
    const url = (field: string) => detail.documents.find((d) => d.field === field)!.url.replace('/api/admin', '');

    const image = await service('GET', url('photo'));
    expect(image.statusCode).toBe(200);
    expect(image.headers).toMatchObject({
      'content-type': 'image/png',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(String(image.headers['content-disposition'])).toMatch(/^inline; filename="[\w.-]+"$/);
    expect(image.rawPayload.equals(pngOf(2, 2))).toBe(true);

    const report = await service('GET', url('healthCertificate'));
    expect(report.headers['content-type']).toBe('application/pdf');

    // Named .png but not a picture: never shown as one, only downloaded.
    const disguised = await service('GET', url('qualifyingResult'));
    expect(disguised.headers['content-type']).toBe('application/octet-stream');
    expect(String(disguised.headers['content-disposition'])).toMatch(/^attachment;/);

    // Not to a role without review, nor without a session, nor a file the application does not name.
    const results = await consoleMember(app, 'results', clock.now);
    const refused = await results('GET', url('photo'));
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['cache-control']).toBe('no-store');
    const anonymous = await app.inject({ method: 'GET', url: `/api/admin${url('photo')}` });
    expect(anonymous.json()).toMatchObject({ code: 401, data: null });
    expect(anonymous.body).not.toContain('PNG');
    const other = await runner();
    const notNamed = url('photo').replace(/files\/.*$/, `files/${other.photo.split('/').pop()}`);
    expect((await service('GET', notNamed)).statusCode).toBe(404);
    // The public file route still refuses the organiser's session: a runner's upload is its owner's.
    const publicRoute = await app.inject({ method: 'GET', url: `/files/${who.photo.replace(/^\/?files\//, '')}` });
    expect(publicRoute.statusCode).toBe(404);
  });
});

describe('approving and rejecting', () => {
  it('approves once (audited, the runner told); a second approval is refused and changes nothing', async () => {
    const who = await runner();
    const id = await submitted(who, '郑六', '110101199405059999');
    const service = await consoleMember(app, 'service', clock.now);
    const read = (await service('GET', `${review}/${id}`)).json().data as DirectReviewDetail;
    clock.advance(1000);
    const approved = await service('POST', `${review}/${id}/approve`, { updatedAt: read.updatedAt });
    expect(approved.json()).toMatchObject({ code: 0, data: { status: 2 } });
    const again = await service('POST', `${review}/${id}/approve`, { updatedAt: read.updatedAt });
    expect(again.json()).toMatchObject({ code: 409, msgCode: 'directReviewApprovedAlready' });
    const rejectAfter = await service('POST', `${review}/${id}/reject`, { updatedAt: read.updatedAt, reason: 'x' });
    expect(rejectAfter.json()).toMatchObject({ code: 409 });
    const record = await app.repos.directApplications.findById(id);
    expect(record).toMatchObject({ status: 2, rejectReason: null });
    const logged = (await app.repos.audit.find({ action: 'direct.approve', limit: 10 })).filter(
      (r) => r.target === `direct-application ${id}`,
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ staffId: service.staffId, raceId: FIXTURE_RACE_ID });
  });

  it('rejects with a reason the runner reads in /direct; refuses no reason, and a decision on a changed application', async () => {
    const who = await runner();
    const id = await submitted(who, '王七', '110101199506061111');
    const service = await consoleMember(app, 'service', clock.now);
    const read = (await service('GET', `${review}/${id}`)).json().data as DirectReviewDetail;
    expect((await service('POST', `${review}/${id}/reject`, { updatedAt: read.updatedAt })).json()).toMatchObject({
      code: 400,
      msgCode: 'directRejectReasonRequired',
    });
    expect(
      (await service('POST', `${review}/${id}/reject`, { updatedAt: read.updatedAt, reason: '   ' })).json(),
    ).toMatchObject({ code: 400 });
    const reason = '成绩证书不清晰，请重新上传';
    const rejected = await service('POST', `${review}/${id}/reject`, { updatedAt: read.updatedAt, reason });
    expect(rejected.json()).toMatchObject({ code: 0, data: { status: 3, rejectReason: reason } });
    const mine = await app.inject({
      method: 'GET',
      url: `${API_PATHS.directMine}?raceId=${FIXTURE_RACE_ID}`,
      headers: { token: who.token },
    });
    expect(mine.json().data.application).toMatchObject({ status: 3, rejectReason: reason });
    const logged = (await app.repos.audit.find({ action: 'direct.reject', limit: 10 })).find(
      (r) => r.target === `direct-application ${id}`,
    );
    expect(JSON.parse(logged!.after!)).toEqual({ status: 3, reason });

    // The runner corrects and submits again: the reviewer who read the old one is refused, nothing changes.
    await submitted(who, '王七', '110101199506061111');
    const stale = await service('POST', `${review}/${id}/approve`, { updatedAt: read.updatedAt });
    expect(stale.json()).toMatchObject({ code: 409, msgCode: 'directReviewChanged' });
    expect((await app.repos.directApplications.findById(id))!.status).toBe(1);
    const fresh = (await service('GET', `${review}/${id}`)).json().data as DirectReviewDetail;
    expect((await service('POST', `${review}/${id}/approve`, { updatedAt: fresh.updatedAt })).json()).toMatchObject({
      code: 0,
    });
  });

  it('refuses a changing call without the CSRF header', async () => {
    const service = await consoleMember(app, 'service', clock.now);
    void service;
    const res = await app.inject({ method: 'POST', url: `/api/admin${review}/1/approve`, payload: { updatedAt: 0 } });
    expect(res.json().code).toBe(401);
  });
});
