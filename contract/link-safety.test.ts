import { inspectLink, linkProblem } from '#contract/link-safety';

describe('link safety (one rule for the SPA and site validate)', () => {
  it('blocks script, data, vbscript and file links however they are spelled', () => {
    for (const link of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      '\u0001javascript:alert(1)',
    ]) {
      expect(inspectLink(link).kind, link).toBe('blocked');
      expect(linkProblem(link), link).toMatch(/^unsafe link/);
    }
  });

  it('counts //host, /\\host and \\\\host as links to another site, and flags the backslash forms', () => {
    expect(inspectLink('//cdn.example/a')).toEqual({ kind: 'external' });
    expect(inspectLink('https://a.example/')).toEqual({ kind: 'external' });
    expect(inspectLink('/\\evil.example').kind).toBe('external');
    expect(inspectLink('\\\\evil.example').kind).toBe('external');
    expect(inspectLink('https:/\\evil.example').kind).toBe('external');
    expect(linkProblem('/\\evil.example')).toMatch(/backslash/);
    expect(linkProblem('//cdn.example/a')).toBeUndefined();
  });

  it('tells routes of this site, bare hosts and empty links apart', () => {
    expect(inspectLink('/race-information/race-rules')).toEqual({ kind: 'internal' });
    expect(inspectLink('beian.miit.gov.cn')).toEqual({ kind: 'other' });
    expect(inspectLink('mailto:a@b.example')).toEqual({ kind: 'other' });
    expect(inspectLink('demo/logo.svg')).toEqual({ kind: 'other' });
    expect(inspectLink('  ')).toEqual({ kind: 'empty' });
    expect(inspectLink(undefined)).toEqual({ kind: 'empty' });
  });
});
