import { announce } from './announce';

describe('announce', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('puts the text into one polite live region, emptied first so a repeated text is read again', () => {
    vi.useFakeTimers();
    announce('3 results found');
    const region = document.querySelector('[data-testid="announcer"]')!;
    expect(region).toHaveAttribute('role', 'status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('');
    vi.advanceTimersByTime(100);
    expect(region).toHaveTextContent('3 results found');

    announce('3 results found');
    expect(region).toHaveTextContent('');
    vi.advanceTimersByTime(100);
    expect(region).toHaveTextContent('3 results found');
    expect(document.querySelectorAll('[data-testid="announcer"]')).toHaveLength(1);
  });
});
