/**
 * The one CSV table reader (lib/csv-table.ts) every import shares, and the console's import previews will:
 * every bad row is reported with the line it starts on, the good rows come back, and a file that is no table
 * is one problem.
 */
import { describe, expect, it } from 'vitest';
import { problemTexts, readTable, shownProblems } from '../src/lib/csv-table.ts';

const columns = { required: ['bib', 'name'], optional: ['time'] };
const asRow = ({ line, get, required, unique, problem }: Parameters<Parameters<typeof readTable>[2]>[0]) => {
  const bib = required('bib');
  if (bib !== '') unique(bib, 'bib');
  const name = required('name');
  const time = get('time');
  if (time !== '' && !/^\d:\d\d:\d\d$/.test(time)) problem('time', 'must be H:MM:SS');
  return { line, bib, name, time };
};

describe('readTable', () => {
  it('reports every bad row with its own line number (a quoted field over two lines counts both) and keeps the good rows', () => {
    const text = [
      'bib,name,time',
      'A1,Li Lei,3:01:02',
      'A2,"Han',
      'Meimei",bad',
      ',Wang,',
      'A1,Zhang,',
      'A5,Zhao',
      '',
      'A6,Sun,4:00:00',
    ].join('\r\n');
    const read = readTable(text, columns, asRow);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.columns).toEqual(['bib', 'name', 'time']);
    expect(read.rows).toEqual([
      { line: 2, bib: 'A1', name: 'Li Lei', time: '3:01:02' },
      { line: 9, bib: 'A6', name: 'Sun', time: '4:00:00' },
    ]);
    expect(problemTexts(read.problems)).toEqual([
      'line 3: time: must be H:MM:SS',
      'line 5: bib: is required',
      'line 6: bib: duplicate of line 2',
      'line 7: expected 3 fields, found 2',
    ]);
  });

  it('words a duplicate as the caller asks, and keeps one row’s problems in the order found', () => {
    const read = readTable('bib,name\nB1,\nB1,x\n', { required: ['bib', 'name'] }, ({ get, required, unique }) => {
      required('name');
      unique(get('bib'), 'bib', (first) => `the same runner as line ${first}`);
      return get('bib');
    });
    // A bad row's key still counts: the later line is its duplicate (the person fixes both at once).
    expect(read.ok && problemTexts(read.problems)).toEqual([
      'line 2: name: is required',
      'line 3: bib: the same runner as line 2',
    ]);
    expect(read.ok && read.rows).toEqual([]);
    const twice = readTable('bib,name\nB1,a\nB1,b\n', { required: ['bib', 'name'] }, ({ get, unique }) => {
      unique(get('bib'), 'bib', (first) => `the same runner as line ${first}`);
      return get('bib');
    });
    expect(twice.ok && problemTexts(twice.problems)).toEqual(['line 3: bib: the same runner as line 2']);
    expect(twice.ok && twice.rows).toEqual(['B1']);
  });

  it('answers one problem for a file that is no table: syntax, empty, a column missing or unknown, no data rows', () => {
    const problems = (text: string) => {
      const read = readTable(text, columns, asRow);
      return read.ok ? undefined : read.problems;
    };
    expect(problems('bib,name\nA1,"open\n')).toEqual(['line 2: a quoted field is not closed']);
    expect(problems('')).toEqual(['the file is empty (expected a header row)']);
    expect(problems('\uFEFFbib\nA1\n')).toEqual(['line 1: missing column(s): name']);
    expect(problems('bib,name,shoe\nA1,x,42\n')).toEqual(['line 1: unknown column(s): shoe']);
    expect(problems('bib,name\n')).toEqual(['the file has no data rows']);
    // Without `optional`, any other column is allowed (a results system's export carries more than we read).
    expect(readTable('bib,name,shoe\nA1,x,42\n', { required: ['bib', 'name'] }, ({ get }) => get('shoe'))).toEqual({
      ok: true,
      columns: ['bib', 'name', 'shoe'],
      rows: ['42'],
      problems: [],
    });
  });

  it('shows at most 200 problems, then how many more', () => {
    const texts = Array.from({ length: 203 }, (_, i) => `line ${i + 2}: bib: is required`);
    expect(shownProblems(texts)).toHaveLength(201);
    expect(shownProblems(texts).at(-1)).toBe('… and 3 more problems');
    expect(shownProblems(texts.slice(0, 200))).toHaveLength(200);
  });
});
