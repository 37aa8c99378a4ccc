/**
 * The draft's JSON in CodeMirror 6: lang-json's highlighting, the validator's errors and warnings as you type
 * (draft-report.ts, the server's own checks) underlined at their JSON path's place (json-paths.ts), completion of
 * property names and allowed values from docs/site-config.schema.json (schema-completion.ts). Tab moves focus
 * out of the editor (it does not indent), so the keyboard is never trapped; `reveal(path)` selects a problem's
 * place and focuses the editor (the problem list beside calls it).
 */
import { autocompletion } from '@codemirror/autocomplete';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import { lintGutter, linter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { draftReport } from './draft-report';
import { rangeOfPath } from './json-paths';
import { siteConfigCompletion } from './schema-completion';

export interface JsonEditorHandle {
  /** Selects the place of a JSON path and focuses the editor. */
  reveal: (path: string) => void;
}

interface JsonEditorProps {
  value: string;
  onChange: (text: string) => void;
  /** The editor's accessible name. */
  label: string;
  /** The id of the text that describes it (the keyboard hint). */
  describedBy?: string;
}

function treeOf(state: EditorState) {
  return ensureSyntaxTree(state, state.doc.length, 1000) ?? syntaxTree(state);
}

/** The validator's problems as CodeMirror diagnostics at their paths (the JSON syntax error at its place). */
function siteConfigLint(view: EditorView): Diagnostic[] {
  const text = view.state.doc.toString();
  const report = draftReport(text);
  if (!report.syntaxOk) {
    const syntax = jsonParseLinter()(view);
    if (syntax.length > 0) return syntax;
    return report.problems.map((p) => ({
      from: 0,
      to: Math.min(1, text.length),
      severity: 'error',
      message: p.message,
    }));
  }
  const tree = treeOf(view.state);
  const slice = (a: number, b: number) => view.state.sliceDoc(a, b);
  return report.problems.map((problem) => {
    const range = rangeOfPath(tree, slice, problem.path);
    return {
      from: range.from,
      to: Math.max(range.to, range.from),
      severity: problem.severity,
      message: `${problem.path}: ${problem.message}`,
    };
  });
}

const theme = EditorView.theme({
  '&': { fontSize: '13px', border: '1px solid #d9d9d9', borderRadius: '6px', background: '#fff' },
  '&.cm-focused': { outline: '2px solid #1677ff', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: '420px' },
  '.cm-gutters': { background: '#fafafa', color: '#595959' },
});

export const JsonEditor = forwardRef<JsonEditorHandle, JsonEditorProps>(function JsonEditor(
  { value, onChange, label, describedBy },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    if (!host.current) return undefined;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          json(),
          linter(siteConfigLint, { delay: 400 }),
          lintGutter(),
          autocompletion({ override: [siteConfigCompletion] }),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
            'data-testid': 'site-json-editor',
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A change from outside (a form editor, a discard, another domain): the editor's text follows.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useImperativeHandle(
    ref,
    () => ({
      reveal(path: string) {
        const editor = view.current;
        if (!editor) return;
        const range = rangeOfPath(treeOf(editor.state), (a, b) => editor.state.sliceDoc(a, b), path);
        editor.dispatch({
          selection: { anchor: range.from, head: range.to },
          effects: EditorView.scrollIntoView(range.from, { y: 'center' }),
        });
        editor.focus();
      },
    }),
    [],
  );

  return <div ref={host} className="site-json-editor" />;
});
