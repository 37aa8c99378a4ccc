/**
 * The site on PostgreSQL, end to end: a throwaway cluster (scripts/pg-cluster.ts), a second real server
 * with DATABASE_URL set (seeded with the 30,000 demo runners on start), and Chromium through the home page
 * (zh), a password login of the demo account, a score lookup by bib and the certificate's verification.
 * The other browser files keep the global SQLite server; this one starts and stops its own.
 */
import { API_PATHS } from '#contract/api';
import { createDatabase, startThrowawayCluster, type ThrowawayCluster } from '../../scripts/pg-cluster';
import { loginInDrawer, newPage, screenshot, useBrowser } from './browser';
import { type RunningServer, startServer } from './server-process';

// DEMO_RUNNERS in server/src/db/seed-runners.ts (as lookups.e2e.ts)
const RUNNER = { bib: 'A00001', pastRace: 'qc-marathon-2026' };
/** initdb, then migrations and the demo seed (30,000 runners) on an empty database: about 7 s here. */
const START_TIMEOUT_MS = 120_000;

let cluster: ThrowawayCluster | undefined;
let server: RunningServer | undefined;

const site = (hash: string) => `http://localhost:${server!.port}/#${hash}`;

async function api<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${server!.port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { data: T }).data;
}

const browser = useBrowser();

beforeAll(async () => {
  cluster = await startThrowawayCluster();
  const databaseUrl = await createDatabase(cluster.adminUrl);
  const started = Date.now();
  // PostgreSQL takes the ID-number secret from the environment only (server/src/lib/secrets.ts).
  server = await startServer({ DATABASE_URL: databaseUrl, ID_NUMBER_SECRET: 'e2e-id-number-secret-0123456789' });
  console.log(`postgres-smoke: the server on PostgreSQL answered after ${Date.now() - started} ms`);
}, START_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  await cluster?.stop();
}, 60_000);

describe('the site on PostgreSQL', () => {
  it('reports PostgreSQL as its database on /readyz', async () => {
    const response = await fetch(`http://127.0.0.1:${server!.port}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { database: string } };
    expect(body.data.database).toBe('postgres');
  });

  it('renders the home page, logs the demo account in, finds a score by bib and verifies its certificate', async () => {
    const { page, context, errors } = await newPage(browser());
    await page.goto(site('/home'));
    await page.getByTestId('login-entry').waitFor();
    await expect(page.locator('html').getAttribute('lang')).resolves.toMatch(/^zh/);

    // Password login in the drawer, as auth.e2e.ts does it (zh texts).
    await page.getByTestId('login-entry').click();
    await loginInDrawer(page, 'zh');
    await expect(page.getByTestId('login-entry').textContent()).resolves.toContain('个人中心');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    await screenshot(page, 'postgres-home-logged-in-zh');

    // A result of the past race by bib, from the PostgreSQL data, and its signed certificate.
    const [answer] = await api<{ bib: string; chipTime: string; certificate: { id: string; sig: string } }[]>(
      API_PATHS.searchScore,
      { raceId: RUNNER.pastRace, bib: RUNNER.bib },
    );
    expect(answer?.chipTime).toMatch(/^\d:\d\d:\d\d$/);
    const { id, sig } = answer!.certificate;
    await page.goto(site(`/certificate?id=${encodeURIComponent(id)}&sig=${encodeURIComponent(sig)}`));
    await page.getByTestId('certificate-valid').waitFor();
    await expect(page.getByTestId('certificate-valid').textContent()).resolves.toContain(answer!.chipTime);
    expect(errors).toEqual([]);
    await context.close();
  });
});
