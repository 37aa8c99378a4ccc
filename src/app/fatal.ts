/**
 * Last-resort screen when the site cannot start (a bad environment value, a crash in the pipeline). Plain
 * DOM, both languages (i18n may be what failed), never a blank page or a stack trace.
 */
export type Fatal = { kind: 'env'; detail: string } | { kind: 'boot' };

export function renderFatal(fatal: Fatal, root: HTMLElement | null = document.getElementById('root')): void {
  if (!root) return;
  const box = document.createElement('section');
  box.className = 'fatal';
  box.setAttribute('role', 'alert');
  const zh = document.createElement('h1');
  const en = document.createElement('p');
  if (fatal.kind === 'env') {
    zh.textContent = `站点环境配置有误：${fatal.detail}`;
    en.textContent = `The site's environment configuration is wrong: ${fatal.detail}`;
  } else {
    zh.textContent = '站点加载失败，请刷新重试';
    en.textContent = 'The site failed to load. Please refresh and try again';
  }
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = '刷新 / Refresh';
  button.addEventListener('click', () => window.location.reload());
  box.append(zh, en, button);
  root.replaceChildren(box);
}
