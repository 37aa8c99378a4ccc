/** Toasts (antd message). One place, so the durations of spec §9 are applied everywhere alike. */
import { message } from 'antd';

/** Toast duration for transport errors, in seconds (spec §9: 5000 ms). */
export const TOAST_SECONDS = 5;

export const notify = {
  error(text: string, seconds = 3) {
    void message.error({ content: text, duration: seconds, className: 'toast-error' });
  },
  success(text: string) {
    void message.success({ content: text, className: 'toast-success' });
  },
  warning(text: string, seconds = 3) {
    void message.warning({ content: text, duration: seconds, className: 'toast-warning' });
  },
};
