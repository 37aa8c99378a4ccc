/**
 * For the form editors' component tests: renders an editor with the console's texts, either as given (the
 * document each change gives is in `onChange`) or holding the draft as the site page does (`stateful`).
 */
import { fireEvent, getByLabelText, render } from '@testing-library/react';
import { useState, type ComponentType } from 'react';
import { vi } from 'vitest';
import { i18n, startI18n } from '../../../i18n';
import type { SiteDraft, SiteEditorProps } from '../editor-types';

export async function startTexts(language: 'zh' | 'en' = 'en') {
  if (!i18n.isInitialized) await startI18n(language);
  else await i18n.changeLanguage(language);
}

export function renderEditor(
  Editor: ComponentType<SiteEditorProps>,
  draft: SiteDraft,
  options: { problems?: SiteEditorProps['problems']; stateful?: boolean } = {},
) {
  const onChange = vi.fn<(next: SiteDraft) => void>();
  const props = { raceId: 'qc-2027', domain: 'localhost', problems: options.problems ?? [] };
  function Stateful() {
    const [doc, setDoc] = useState(draft);
    return (
      <Editor
        {...props}
        draft={doc}
        onChange={(next) => {
          onChange(next);
          setDoc(next);
        }}
      />
    );
  }
  const view = render(options.stateful ? <Stateful /> : <Editor {...props} draft={draft} onChange={onChange} />);
  return { ...view, onChange, last: () => onChange.mock.lastCall?.[0] };
}

/** Chooses `option` in the antd Select labelled `label` (inside `within`, or the whole page). */
export function choose(label: string, option: string, container: HTMLElement = document.body) {
  const input = getByLabelText(container, label);
  fireEvent.mouseDown(input);
  const options = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].filter(
    (element) => element.getAttribute('title') === option || element.textContent === option,
  );
  const visible = options[options.length - 1];
  if (!visible) throw new Error(`no option "${option}" in "${label}"`);
  fireEvent.click(visible);
}
