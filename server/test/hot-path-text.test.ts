/**
 * plainBibText reads the commonest lookup body without JSON.parse: it must never take a body that
 * plainBibQuery (the parsed check) would refuse, and must read what it takes exactly as JSON.parse does.
 */
import { describe, expect, it } from 'vitest';
import { plainBibQuery, plainBibText } from '../src/routes/race-center/hot-path-shapes.ts';

const bodies = [
  '{"raceId":"qc-marathon-2026","bib":"A00001"}',
  '{"raceId":"qc-marathon-2026","bib":"a00001"}',
  '{"raceId":"race.2026_x","bib":"1"}',
  '{"raceId":"qc-marathon-2026","bib":"000"}',
  '{"raceId":"qc-marathon-2026","bib":"0"}',
  '{"raceId":"qc-marathon-2026","bib":"A0000100001000010000"}',
  '{"raceId":"qc-marathon-2026","bib":"A00001000010000100001"}',
  '{"raceId":"qc-marathon-2026","bib":""}',
  '{"raceId":"qc-marathon-2026","bib":" A1"}',
  '{"raceId":"qc-marathon-2026","bib":"A\\u0031"}',
  '{"raceId":"../x","bib":"A1"}',
  '{"raceId":"赛事","bib":"A1"}',
  `{"raceId":"${'r'.repeat(64)}","bib":"A1"}`,
  `{"raceId":"${'r'.repeat(65)}","bib":"A1"}`,
  '{"bib":"A1","raceId":"qc-marathon-2026"}',
  '{ "raceId": "qc-marathon-2026", "bib": "A1" }',
  '{"raceId":"qc-marathon-2026","bib":"A1","x":1}',
  '{"raceId":"qc-marathon-2026","bib":"A1"} ',
];

describe('plainBibText', () => {
  it.each(bodies)('takes only what plainBibQuery takes, read the same: %s', (text) => {
    const fast = plainBibText(text);
    if (fast !== undefined) expect(fast).toEqual(plainBibQuery(JSON.parse(text)));
  });

  it('reads the plain spelling itself, and leaves every other spelling to JSON.parse', () => {
    expect(plainBibText('{"raceId":"qc-marathon-2026","bib":"A00001"}')).toEqual({
      raceId: 'qc-marathon-2026',
      bib: 'A00001',
    });
    expect(plainBibText('{"raceId":"qc-marathon-2026","bib":"000"}')).toBeUndefined();
    expect(plainBibText('{"bib":"A1","raceId":"qc-marathon-2026"}')).toBeUndefined();
    expect(plainBibText('{ "raceId": "qc-marathon-2026", "bib": "A1" }')).toBeUndefined();
  });
});
