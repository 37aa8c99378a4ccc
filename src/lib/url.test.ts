import { isClickableLink, resolveFileUrl, resolveImageUrl, resolveJump, resolveWebLink } from './url';

describe('URL helpers (spec §5)', () => {
  it('uses http, https and blob file URLs as they are and prefixes the rest with the file host', () => {
    expect(resolveFileUrl('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
    expect(resolveFileUrl('http://cdn.example/a.png')).toBe('http://cdn.example/a.png');
    expect(resolveFileUrl('blob:http://x/1')).toBe('blob:http://x/1');
    expect(resolveFileUrl('demo/logo.svg')).toBe('/files/demo/logo.svg');
    expect(resolveFileUrl('/demo/logo.svg')).toBe('/files/demo/logo.svg');
    expect(resolveFileUrl('demo/a.png', 'https://img.example/')).toBe('https://img.example/demo/a.png');
    expect(resolveImageUrl('demo/logo.svg')).toBe('/files/demo/logo.svg');
  });

  it('never lets a dangerous or empty URL through', () => {
    expect(resolveFileUrl('javascript:alert(1)')).toBeUndefined();
    expect(resolveFileUrl(' data:text/html,x')).toBeUndefined();
    expect(resolveFileUrl('')).toBeUndefined();
    expect(resolveFileUrl(undefined)).toBeUndefined();
    expect(resolveWebLink('javascript:alert(1)')).toBeUndefined();
    expect(resolveWebLink('JaVaScRiPt:alert(1)')).toBeUndefined();
    expect(resolveWebLink('vbscript:x')).toBeUndefined();
    expect(resolveWebLink('mailto:a@b.c')).toBeUndefined();
    expect(resolveWebLink('http://a b')).toBeUndefined();
  });

  it('uses http, https and // web links as they are and prefixes the rest with //', () => {
    expect(resolveWebLink('https://beian.miit.gov.cn/')).toBe('https://beian.miit.gov.cn/');
    expect(resolveWebLink('//example.com/x')).toBe('//example.com/x');
    expect(resolveWebLink('beian.miit.gov.cn')).toBe('//beian.miit.gov.cn');
  });

  it('treats a link as clickable only when it begins with http, https or //', () => {
    expect(isClickableLink('https://a.example')).toBe(true);
    expect(isClickableLink('http://a.example')).toBe(true);
    expect(isClickableLink('//a.example')).toBe(true);
    expect(isClickableLink('/\\a.example')).toBe(true);
    expect(isClickableLink('a.example')).toBe(false);
    expect(isClickableLink('')).toBe(false);
    expect(isClickableLink(undefined)).toBe(false);
  });

  it('tells internal routes from external jump links', () => {
    expect(resolveJump('/race-information/race-rules')).toEqual({
      kind: 'internal',
      to: '/race-information/race-rules',
    });
    expect(resolveJump('https://a.example/x')).toEqual({ kind: 'external', href: 'https://a.example/x' });
    expect(resolveJump('//a.example/x')).toEqual({ kind: 'external', href: '//a.example/x' });
    // Browsers read a backslash as "/": these leave the site, so they are never routed as pages of this site.
    expect(resolveJump('/\\evil.example')).toEqual({ kind: 'external', href: '/\\evil.example' });
    expect(resolveJump('\\\\evil.example')).toEqual({ kind: 'external', href: '\\\\evil.example' });
    expect(resolveJump('java\tscript:alert(1)')).toBeNull();
    expect(resolveJump('javascript:alert(1)')).toBeNull();
    expect(resolveJump('a.example')).toBeNull();
    expect(resolveJump('')).toBeNull();
  });
});
