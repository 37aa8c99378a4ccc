/**
 * Toasts (antd message). One place, so the durations of spec §9 apply everywhere alike. antd is loaded
 * on the first toast, so it stays out of the JS of the first paint.
 */
type Kind = 'error' | 'success' | 'warning';

/** Toast duration for transport errors, in seconds (spec §9: 5000 ms). */
export const TOAST_SECONDS = 5;

function show(kind: Kind, text: string, seconds = 3): void {
  void import('antd/es/message').then(({ default: message }) => {
    void message[kind]({ content: text, duration: seconds, className: `toast-${kind}` });
  });
}

export const notify = {
  error: (text: string, seconds?: number) => show('error', text, seconds),
  success: (text: string) => show('success', text),
  warning: (text: string, seconds?: number) => show('warning', text, seconds),
};
