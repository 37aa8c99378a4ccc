import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { findPage } from './page-registry';

describe('page registry', () => {
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

  it('knows no page for an unknown or inherited name', () => {
    expect(findPage('NoSuchPage')).toBeUndefined();
    expect(findPage('toString')).toBeUndefined();
    expect(findPage(undefined)).toBeUndefined();
  });
});
