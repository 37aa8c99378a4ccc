/**
 * JSON.parse with a line and column for the first syntax error (Node 20's messages carry no position).
 */
export type JsonTextResult =
  { ok: true; value: unknown } | { ok: false; message: string; line: number; column: number };

export function parseJsonText(text: string): JsonTextResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch {
    let offset: number;
    try {
      offset = findSyntaxErrorOffset(source);
    } catch {
      // The grammar walk recurses: a text nested thousands of levels deep overflows it before the error.
      return { ok: false, line: 0, column: 0, message: 'Invalid JSON, nested too deeply to locate the error' };
    }
    const { line, column } = lineAndColumn(source, offset);
    const found = offset >= source.length ? 'end of input' : `'${source[offset]}'`;
    return {
      ok: false,
      line,
      column,
      message: `Invalid JSON at line ${line}, column ${column}: unexpected ${found}`,
    };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text[i] === '\n') {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class Stop extends Error {
  constructor(readonly offset: number) {
    super('stop');
  }
}

/** Walks the JSON grammar and returns the offset of the first character that breaks it. */
export function findSyntaxErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i += 1;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i += 1;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i += 1;
    for (;;) {
      if (i >= text.length) fail();
      const ch = text.charCodeAt(i);
      if (ch === 0x22) {
        i += 1;
        return;
      }
      if (ch < 0x20) fail();
      if (ch === 0x5c) {
        i += 1;
        const esc = text[i];
        if (esc === 'u') {
          for (let k = 0; k < 4; k += 1) {
            i += 1;
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail();
          }
        } else if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail();
      }
      i += 1;
    }
  };
  const digits = () => {
    if (!/[0-9]/.test(text[i] ?? '')) fail();
    while (/[0-9]/.test(text[i] ?? '')) i += 1;
  };
  const number = () => {
    if (text[i] === '-') i += 1;
    if (text[i] === '0') i += 1;
    else digits();
    if (text[i] === '.') {
      i += 1;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i += 1;
      if (text[i] === '+' || text[i] === '-') i += 1;
      digits();
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i += 1;
      ws();
      if (text[i] === '}') {
        i += 1;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') fail();
        i += 1;
        value();
        ws();
        if (text[i] === ',') i += 1;
        else if (text[i] === '}') {
          i += 1;
          return;
        } else fail();
      }
    }
    if (ch === '[') {
      i += 1;
      ws();
      if (text[i] === ']') {
        i += 1;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i += 1;
        else if (text[i] === ']') {
          i += 1;
          return;
        } else fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || /[0-9]/.test(ch ?? '')) return number();
    fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return text.length;
  } catch (error) {
    if (error instanceof Stop) return error.offset;
    throw error;
  }
}
