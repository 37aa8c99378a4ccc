import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { initI18n } from '@/app/i18n';
import { textsLoaded } from '@/lib/locale-bundles';
import { findPage } from './page-registry';

describe('page registry', () => {
  beforeAll(async () => {
    await initI18n('zh');
  });

  it('renders a page fetched ahead at once, without the loading fallback', async () => {
    const Home = findPage('Home');
    expect(Home).toBeDefined();
    if (!Home) return;
    await Home.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Home />
      </Suspense>,
    );
    expect(screen.queryByText('loading')).toBeNull();
  });

  it('resolves a page only together with its texts', async () => {
    const News = findPage('NewsPage');
    expect(textsLoaded('content', 'zh')).toBe(false);
    await News?.preload();
    expect(textsLoaded('content', 'zh')).toBe(true);
    expect(textsLoaded('home', 'zh')).toBe(true); // Home, fetched ahead above
    expect(textsLoaded('search', 'zh')).toBe(false);
  });

  it('knows no page for an unknown or inherited name', () => {
    expect(findPage('NoSuchPage')).toBeUndefined();
    expect(findPage('toString')).toBeUndefined();
    expect(findPage(undefined)).toBeUndefined();
  });
});
