/**
 * A line diff of two texts (Myers' O(ND) algorithm, with the common head and tail taken off first), for the
 * versions' comparison: the pretty-printed JSON of two publications, each line kept, added or removed.
 */
export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string; oldLine?: number; newLine?: number };

/** Beyond this many differing lines the middle is shown as all removed then all added (still correct). */
const MAX_EDITS = 4000;

function middleDiff(
  a: readonly string[],
  b: readonly string[],
): Array<{ kind: DiffLine['kind']; ai: number; bi: number }> {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) {
    return [
      ...a.map((_, ai) => ({ kind: 'removed' as const, ai, bi: -1 })),
      ...b.map((_, bi) => ({ kind: 'added' as const, ai: -1, bi })),
    ];
  }
  const steps: Array<{ kind: DiffLine['kind']; ai: number; bi: number }> = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      steps.push({ kind: 'same', ai: x, bi: y });
    }
    if (x === prevX) {
      y--;
      steps.push({ kind: 'added', ai: -1, bi: y });
    } else {
      x--;
      steps.push({ kind: 'removed', ai: x, bi: -1 });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    steps.push({ kind: 'same', ai: x, bi: y });
  }
  return steps.reverse();
}

/** The lines of `after` against `before`: each the same, added or removed, with its line numbers. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const lines: DiffLine[] = [];
  for (let i = 0; i < head; i++) lines.push({ kind: 'same', text: a[i]!, oldLine: i + 1, newLine: i + 1 });
  const middle = middleDiff(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  for (const step of middle) {
    if (step.kind === 'same')
      lines.push({ kind: 'same', text: a[head + step.ai]!, oldLine: head + step.ai + 1, newLine: head + step.bi + 1 });
    else if (step.kind === 'removed')
      lines.push({ kind: 'removed', text: a[head + step.ai]!, oldLine: head + step.ai + 1 });
    else lines.push({ kind: 'added', text: b[head + step.bi]!, newLine: head + step.bi + 1 });
  }
  for (let i = tail; i > 0; i--) {
    lines.push({ kind: 'same', text: a[a.length - i]!, oldLine: a.length - i + 1, newLine: b.length - i + 1 });
  }
  return lines;
}

/** A document's text pretty-printed for comparing (two spaces), or the text itself when it does not parse. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
