/**
 * Where a JSON path of the form checks ($.fields[3].options[1].value, contract/site-config/document-limits.ts
 * formatJsonPath) is in the document's text: the range of that member (its key and value), or of the nearest
 * enclosing one that is there (a missing key is reported on the object that lacks it). The JSON editor marks
 * each problem there. A text that is not JSON has no ranges (its syntax error is marked by the JSON linter).
 */
import { formatJsonPath } from '#contract/site-config/document-limits';

export interface TextRange {
  from: number;
  to: number;
}

/** Every path of a JSON text with its range; empty when the text is not JSON. */
export function jsonPathRanges(text: string): Map<string, TextRange> {
  const ranges = new Map<string, TextRange>();
  let at = 0;
  const space = () => {
    while (at < text.length && /\s/.test(text[at]!)) at += 1;
  };
  const fail = (): never => {
    throw new SyntaxError('not JSON');
  };
  const string = (): string => {
    const start = at;
    at += 1;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    if (at >= text.length) fail();
    at += 1;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (path: PropertyKey[], from: number) => {
    space();
    const start = at;
    const c = text[at];
    if (c === '{') {
      at += 1;
      space();
      if (text[at] === '}') at += 1;
      else {
        for (;;) {
          space();
          if (text[at] !== '"') fail();
          const keyStart = at;
          const key = string();
          space();
          if (text[at] !== ':') fail();
          at += 1;
          value([...path, key], keyStart);
          space();
          if (text[at] === ',') at += 1;
          else if (text[at] === '}') {
            at += 1;
            break;
          } else fail();
        }
      }
    } else if (c === '[') {
      at += 1;
      space();
      if (text[at] === ']') at += 1;
      else {
        for (let i = 0; ; i += 1) {
          space();
          value([...path, i], at);
          space();
          if (text[at] === ',') at += 1;
          else if (text[at] === ']') {
            at += 1;
            break;
          } else fail();
        }
      }
    } else if (c === '"') string();
    else {
      const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 64));
      if (!literal) fail();
      at += literal![0].length;
    }
    ranges.set(formatJsonPath(path), { from: Math.min(from, start), to: at });
  };
  try {
    value([], 0);
  } catch {
    return new Map();
  }
  return ranges;
}

/** The range of a path, else of its nearest enclosing path that is in the text, else undefined. */
export function rangeOfPath(ranges: Map<string, TextRange>, path: string): TextRange | undefined {
  for (let current = path; ;) {
    const found = ranges.get(current);
    if (found) return found;
    const cut = Math.max(current.lastIndexOf('.'), current.lastIndexOf('['));
    if (cut <= 0) return ranges.get('$');
    current = current.slice(0, cut);
  }
}
