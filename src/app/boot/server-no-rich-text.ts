/**
 * dompurify for the desktop first screen's server build (vite.config.ts aliases it there): Node has no DOM
 * for DOMPurify to sanitise with, and without one DOMPurify hands its input back as it came. Rich text is
 * sanitised in the browser only (components/ui/safe-html.tsx): a page that needs it while the server renders
 * fails, and the server sends the page as built (server/src/lib/first-screen.ts).
 */
const refuse = (): never => {
  throw new Error('Rich text is not rendered on the server (components/ui/safe-html.tsx sanitises it in the browser)');
};

const DOMPurify = { sanitize: refuse, addHook: refuse, removeHook: refuse, setConfig: refuse, isSupported: false };
export default DOMPurify;
export type Config = Record<string, unknown>;
