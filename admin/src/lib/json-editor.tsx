/**
 * A JSON document in CodeMirror 6, the one editor of the console's JSON tabs (site configuration, registration
 * forms, race.json): lang-json's highlighting, the JSON syntax error at its place as you type, else the
 * page's `problems` (its own checks or the server's, each by JSON path) underlined at their path's place
 * (json-paths.ts, lang-json's syntax tree), and an optional completion source (the site page's, from its
 * schema). The text is the page's: a change from outside replaces the editor's, every edit goes back through
 * `onChange`. Tab moves focus out of the editor (it does not indent), so the keyboard is never trapped;
 * `reveal(path)` selects a path's place and focuses the editor (a problem list beside calls it).
 */
import { autocompletion, type CompletionSource } from '@codemirror/autocomplete';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import { lintGutter, linter, type Diagnostic } from '@codemirror/lint';
import { EditorState, StateEffect } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef } from 'react';
import { rangeOfPath } from './json-paths';

/** A problem to mark: its JSON path (formatJsonPath's `$.a[0].b`), its message, error unless said otherwise. */
export interface JsonProblem {
  path: string;
  message: string;
  severity?: 'error' | 'warning';
}

export interface JsonEditorHandle {
  /** Selects the place of a JSON path and focuses the editor. */
  reveal: (path: string) => void;
}

export interface JsonEditorProps {
  value: string;
  onChange: (text: string) => void;
  /** The editor's accessible name. */
  label: string;
  /** The id of the text that describes it (a keyboard hint). */
  describedBy?: string;
  /** The problems to underline (when the text is JSON; else its syntax error is marked). */
  problems?: readonly JsonProblem[];
  /** Completion (e.g. property names and allowed values from a schema); none when absent. */
  completion?: CompletionSource;
  /** The class of the element around the editor (the page's size rules). */
  className?: string;
  /** Test id of the element around the editor. */
  testId?: string;
  /** Test id of the editable content itself (`.cm-content`). */
  contentTestId?: string;
}

function treeOf(state: EditorState) {
  return ensureSyntaxTree(state, state.doc.length, 1000) ?? syntaxTree(state);
}

/** The problems as diagnostics at their paths' places in a state's text (which parses as JSON). */
export function problemDiagnostics(state: EditorState, problems: readonly JsonProblem[]): Diagnostic[] {
  const tree = treeOf(state);
  const slice = (a: number, b: number) => state.sliceDoc(a, b);
  return problems.map((problem) => {
    const range = rangeOfPath(tree, slice, problem.path);
    return {
      from: range.from,
      to: Math.max(range.to, range.from),
      severity: problem.severity ?? 'error',
      message: `${problem.path}: ${problem.message}`,
    };
  });
}

const NO_PROBLEMS: readonly JsonProblem[] = [];

/** The page's problems changed (its checks answered): the linter runs again at once. */
const problemsChanged = StateEffect.define<null>();
const refreshOnProblems = (update: { transactions: readonly { effects: readonly StateEffect<unknown>[] }[] }) =>
  update.transactions.some((tr) => tr.effects.some((effect) => effect.is(problemsChanged)));

const theme = EditorView.theme({
  '&': { fontSize: '13px', border: '1px solid #d9d9d9', borderRadius: '6px', background: '#fff' },
  '&.cm-focused': { outline: '2px solid #1677ff', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
  '.cm-gutters': { background: '#fafafa', color: '#595959' },
});

export const JsonEditor = forwardRef<JsonEditorHandle, JsonEditorProps>(function JsonEditor(
  { value, onChange, label, describedBy, problems = NO_PROBLEMS, completion, className, testId, contentTestId },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ problems, onChange });
  useLayoutEffect(() => {
    latest.current = { problems, onChange };
  });

  useEffect(() => {
    if (!host.current) return undefined;
    const syntax = jsonParseLinter();
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          json(),
          linter(
            (v) => {
              const errors = syntax(v);
              return errors.length > 0 ? errors : problemDiagnostics(v.state, latest.current.problems);
            },
            { delay: 300, needsRefresh: refreshOnProblems },
          ),
          lintGutter(),
          ...(completion ? [autocompletion({ override: [completion] })] : []),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
            ...(contentTestId ? { 'data-testid': contentTestId } : {}),
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
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
    // The editor is made again for a new name (the language switched); the text and problems reach it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [label, describedBy, completion, contentTestId]);

  // A change from outside (a form, a discard, a reload): the editor's text follows.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  // New problems from the page's checks (which may answer after the linter ran): mark them.
  useEffect(() => {
    view.current?.dispatch({ effects: problemsChanged.of(null) });
  }, [problems]);

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

  return <div ref={host} className={className} data-testid={testId} />;
});
