/**
 * The form document as JSON (CodeMirror 6): JSON highlighting, its syntax errors as you type (the JSON
 * linter), and the problems of the form checks (the server's, by JSON path) marked where they are, each with
 * its message. The text is the page's: every change goes back through `onChange`.
 */
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { forceLinting, linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { ConfigProblem } from '#contract/site-config/document-limits';
import { jsonPathRanges, rangeOfPath } from './json-paths';

export interface JsonEditorProps {
  text: string;
  problems: readonly ConfigProblem[];
  onChange: (text: string) => void;
  /** The editor's accessible name. */
  label: string;
}

/** The problems of the checks as diagnostics, where their paths are in the text. */
export function problemDiagnostics(text: string, problems: readonly ConfigProblem[]): Diagnostic[] {
  const ranges = jsonPathRanges(text);
  if (ranges.size === 0) return []; // not JSON: the JSON linter marks the syntax error
  return problems.map((problem) => {
    const range = rangeOfPath(ranges, problem.path);
    // A problem of the whole document is marked on its first character, not over all of it.
    const whole = !range || (range.from === 0 && range.to >= text.trimEnd().length);
    return {
      from: whole ? 0 : range.from,
      to: whole ? Math.min(1, text.length) : range.to,
      severity: 'error',
      message: `${problem.path}: ${problem.message}`,
    };
  });
}

export function JsonEditor({ text, problems, onChange, label }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ problems, onChange });
  useLayoutEffect(() => {
    latest.current = { problems, onChange };
  });

  useEffect(() => {
    const syntax = jsonParseLinter();
    const state = EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        json(),
        lintGutter(),
        linter(
          (v) => {
            const parsed = syntax(v);
            return parsed.length > 0 ? parsed : problemDiagnostics(v.state.doc.toString(), latest.current.problems);
          },
          { delay: 200 },
        ),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) latest.current.onChange(update.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.theme({ '&': { height: '560px' }, '.cm-scroller': { overflow: 'auto' } }),
      ],
    });
    view.current = new EditorView({ state, parent: host.current! });
    return () => {
      view.current?.destroy();
      view.current = null;
    };
    // The editor is made once; the text and problems reach it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [label]);

  // A text changed elsewhere (the field list, a reload) replaces the editor's.
  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== text) {
      current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: text } });
    }
  }, [text]);

  // New problems from the checks: mark them now.
  useEffect(() => {
    if (view.current) forceLinting(view.current);
  }, [problems]);

  return <div ref={host} className="forms-json" data-testid="forms-json" />;
}
