import { focusElement, moveFocus } from './move-focus';
import { WAIT_LIMIT_MS } from '@/testing/wait-limit';

describe('moveFocus', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('focuses an element that appears a few frames later, a heading by script only (tabindex -1)', async () => {
    moveFocus('#result');
    const heading = document.createElement('h2');
    heading.id = 'result';
    await new Promise((resolve) => window.requestAnimationFrame(resolve));
    document.body.append(heading);
    await vi.waitFor(() => expect(document.activeElement).toBe(heading), { timeout: WAIT_LIMIT_MS });
    expect(heading).toHaveAttribute('tabindex', '-1');
  });

  it('skips a target not in the page or disabled and takes the next; a button keeps its own Tab stop', () => {
    document.body.innerHTML = '<button id="off" disabled>a</button><button id="on">b</button>';
    expect(focusElement('#missing')).toBe(false);
    expect(focusElement('#off')).toBe(false);
    expect(focusElement(() => document.getElementById('on'))).toBe(true);
    expect(document.activeElement).toHaveAttribute('id', 'on');
    expect(document.activeElement).not.toHaveAttribute('tabindex');
  });
});
