/** Helpers of the login drawer tests (open the drawer, switch tabs, open a sub-screen) and of any slider check. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { SLIDER } from '@/testing/mocks/handlers/auth';

export type User = ReturnType<typeof userEvent.setup>;

export async function openDrawer(language: 'zh' | 'en' = 'zh', options: Parameters<typeof renderApp>[0] = {}) {
  const user = userEvent.setup();
  const utils = await renderApp({ language, ...options });
  await user.click(await screen.findByTestId('login-entry'));
  await screen.findByTestId('form-password');
  return { user, ...utils };
}

export async function showTab(user: User, name: string, testId: string) {
  await user.click(screen.getByRole('tab', { name }));
  return screen.findByTestId(testId);
}

/** Drags the slider handle to x (px from the track's start). */
export async function dragSliderTo(x: number) {
  const slider = await screen.findByTestId('slider-captcha');
  await waitFor(() => expect(slider).toHaveAttribute('data-phase', 'ready'));
  const handle = within(slider).getByTestId('slider-handle');
  fireEvent.mouseDown(handle, { clientX: 100, button: 0 });
  for (const share of [0.2, 0.45, 0.7, 0.9, 1]) fireEvent.mouseMove(document, { clientX: 100 + x * share });
  fireEvent.mouseUp(document, { clientX: 100 + x });
}

/** Passes the page's slider check (the sign-up's, the login drawer's): dragged onto its target, then passed. */
export async function passSlider() {
  await dragSliderTo(SLIDER.targetX);
  await waitFor(() => expect(screen.getByTestId('slider-captcha')).toHaveAttribute('data-phase', 'passed'));
}

export async function openScreen(user: User, lang: 'zh' | 'en', which: 'register' | 'resetEmail' | 'resetPhone') {
  const zh = lang === 'zh';
  const form = await showTab(user, zh ? '邮箱登录' : 'Email login', 'form-email');
  if (which === 'register') {
    await user.click(within(form).getByRole('button', { name: zh ? '立即注册' : 'Register now' }));
  } else {
    await user.click(within(form).getByRole('button', { name: zh ? '忘记密码？' : 'Forgot password?' }));
    const choice = await screen.findByTestId('reset-choice');
    const name =
      which === 'resetEmail' ? (zh ? '通过邮箱找回' : 'Reset by email') : zh ? '通过手机号找回' : 'Reset by phone';
    await user.click(within(choice).getByRole('button', { name }));
  }
  return screen.findByTestId(`screen-${which}`);
}

/** Sends the code of a sub-screen through the slider. */
export async function sendCode(user: User, screenEl: HTMLElement) {
  await user.click(within(screenEl).getByTestId('send-code'));
  await dragSliderTo(SLIDER.targetX);
  await waitFor(() => expect(within(screenEl).getByTestId('send-code')).toBeDisabled());
}
