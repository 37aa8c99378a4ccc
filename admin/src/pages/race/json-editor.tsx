/**
 * The whole race.json in a JSON editor (CodeMirror 6): the syntax checked as it is typed, and the document's
 * problems (add-race's checks, asked of the server a moment after typing stops) listed by JSON path beside it.
 */
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorView, basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

export function JsonEditor({
  value,
  onChange,
  label,
}: {
  /** The text to show; a change from outside (a form) replaces the editor's text. */
  value: string;
  onChange: (text: string) => void;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (!host.current) return undefined;
    const editor = new EditorView({
      doc: value,
      parent: host.current,
      extensions: [
        basicSetup,
        json(),
        linter(jsonParseLinter()),
        lintGutter(),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed.current(update.state.doc.toString());
        }),
      ],
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later values are put in by the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [label]);

  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="race-json" data-testid="race-json-editor" />;
}
