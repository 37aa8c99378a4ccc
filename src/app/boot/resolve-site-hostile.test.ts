import { http, HttpResponse } from 'msw';
import { screen, waitFor } from '@testing-library/react';
import { server } from '@/testing/mocks/server';
import { api } from '@/testing/mocks/base-url';
import { CONFIG_URI } from '@/testing/mocks/handlers/site';
import { testConfig } from '@/testing/fixtures/site';
import { renderApp } from '@/testing/test-utils';
import { resolveSite } from './resolve-site';

/** Serves a configuration as raw JSON text (too deep for JSON.stringify to write it). */
const serveText = (text: string) =>
  server.use(
    http.get(api(CONFIG_URI), () => new HttpResponse(text, { headers: { 'Content-Type': 'application/json' } })),
  );

describe('a hostile or broken site configuration never takes the site down', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined); // the dropped parts are reported there
  });

  it('shows the site when an extra key holds 100,000 nested arrays', async () => {
    serveText(`${JSON.stringify(testConfig()).slice(0, -1)},"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const site = await resolveSite('localhost');
    expect(site.mode).toBe('bound');
    expect(site.config.menuGroups).toHaveLength(2);
    await renderApp({ config: site.config, path: '/race-information/race-rules' });
    await waitFor(() => expect(screen.getByRole('heading', { name: '竞赛规程' })).toBeInTheDocument());
  });

  it('keeps the other menus when one menu is nested 2,000 levels deep', async () => {
    let item = `{"path":"leaf","meta":{"title":"leaf"}}`;
    for (let i = 0; i < 2000; i += 1) item = `{"path":"p${i}","meta":{"title":"t"},"children":[${item}]}`;
    const good = JSON.stringify(testConfig().menuGroups).slice(1, -1);
    serveText(`${JSON.stringify(testConfig()).slice(0, -1)},"menuGroups":[${good},${item}]}`);
    const site = await resolveSite('localhost');
    expect(site.mode).toBe('bound');
    expect(site.config.menuGroups!.slice(0, 2)).toEqual(testConfig().menuGroups);
    expect(site.problems[0].message).toMatch(/nested more than 24 levels deep/);
  });

  it('keeps the good items however many are broken', async () => {
    const doc = testConfig();
    const good = doc.carouselList!;
    doc.carouselList = [...Array.from({ length: 500 }, () => ({ surfacePlotUrl: 7 }) as never), ...good];
    serveText(JSON.stringify(doc));
    const site = await resolveSite('localhost');
    expect(site.mode).toBe('bound');
    expect(site.config.carouselList).toEqual(good);
  });
});
