import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { server } from './mocks/server';

// jsdom lacks these; antd and the layout use them.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
window.scrollTo = () => undefined;
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

// antd is imported on first use (toasts, dialogs); its first import in jsdom can take a few seconds.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  // Toasts close on their own timers: close them now, so no React work outlives the test environment.
  if (document.querySelector('.ant-message')) {
    const { default: message } = await import('antd/es/message');
    message.destroy();
  }
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0].trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});
afterAll(async () => {
  server.close();
  // Let closing animations (rc-motion's fallback timers) finish while the DOM still exists.
  await new Promise((resolve) => setTimeout(resolve, 800));
});
