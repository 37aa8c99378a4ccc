import { render } from '@testing-library/react';
import { SafeHtml, isBlankHtml, isSafeUrl, sanitizeHtml } from './safe-html';

/** Parses the sanitised output, so assertions look at what the browser would build. */
function clean(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = sanitizeHtml(html);
  return host;
}

function allAttributes(root: HTMLElement): string[] {
  return [...root.querySelectorAll('*')].flatMap((el) => [...el.attributes].map((a) => `${a.name}=${a.value}`));
}

describe('SafeHtml', () => {
  it('keeps ordinary rich text: headings, lists, tables, images, links', () => {
    const root = clean(
      '<h2>一、组织机构</h2><p><strong>主办</strong>单位</p><ul><li>a</li></ul><ol><li>b</li></ol>' +
        '<table><thead><tr><th colspan="2">项目</th></tr></thead><tbody><tr><td>马拉松</td><td>42.195</td></tr></tbody></table>' +
        '<blockquote>引文</blockquote><img src="/files/demo/route-map.svg" alt="路线图" width="1200" height="800"><a href="#/news-notice/race-news">新闻</a>',
    );
    expect(root.querySelector('h2')).toHaveTextContent('一、组织机构');
    expect(root.querySelector('th')).toHaveAttribute('colspan', '2');
    expect(root.querySelectorAll('li')).toHaveLength(2);
    expect(root.querySelector('blockquote')).toHaveTextContent('引文');
    const img = root.querySelector('img')!;
    expect(img).toHaveAttribute('src', '/files/demo/route-map.svg');
    expect(img).toHaveAttribute('alt', '路线图');
    expect(img).toHaveAttribute('width', '1200');
    expect(root.querySelector('a')).toHaveAttribute('href', '#/news-notice/race-news');
  });

  it('removes script and style tags with their content', () => {
    const root = clean(
      '<p>before</p><script>window.hacked = 1</script><style>body{background:url(javascript:alert(1))}</style><p>after</p>',
    );
    expect(root.querySelector('script, style')).toBeNull();
    expect(root.textContent).toBe('beforeafter');
  });

  it('removes event handlers: img onerror, svg onload, body onload, a onclick, details ontoggle', () => {
    const root = clean(
      '<img src="x" onerror="alert(1)"><svg onload="alert(1)"><circle r="1"/></svg><body onload="alert(1)">' +
        '<a href="/x" onclick="alert(1)" onmouseover="alert(1)">x</a><details open ontoggle="alert(1)">d</details>',
    );
    expect(allAttributes(root).filter((a) => a.startsWith('on'))).toEqual([]);
    expect(root.querySelector('svg')).toBeNull();
    expect(root.querySelector('img')).toHaveAttribute('src', 'x');
  });

  it.each([
    ['plain', 'javascript:alert(1)'],
    ['upper case', 'JAVASCRIPT:alert(1)'],
    ['mixed case', 'JaVaScRiPt:alert(1)'],
    ['leading space', '  javascript:alert(1)'],
    ['tab inside', 'java\tscript:alert(1)'],
    ['newline inside', 'java\nscript:alert(1)'],
    ['decimal entities', '&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)'],
    ['hex entities', '&#x6A;avascript&#x3A;alert(1)'],
    ['named colon entity', 'javascript&colon;alert(1)'],
    ['entity-encoded tab', 'jav&#x09;ascript:alert(1)'],
    ['control character prefix', '\u0001javascript:alert(1)'],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['data html', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
  ])('drops a dangerous href (%s)', (_name, href) => {
    const root = clean(`<a href="${href}">link</a>`);
    const a = root.querySelector('a')!;
    expect(a).toHaveTextContent('link');
    expect(a).not.toHaveAttribute('href');
  });

  it('drops data: and javascript: image sources, including srcset, but keeps the image', () => {
    const root = clean(
      '<img alt="a" src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"><img alt="b" src="javascript:alert(1)">' +
        '<img alt="c" src="/ok.png" srcset="/ok.png 1x, data:image/png;base64,AAAA 2x"><img alt="d" src="/ok.png" srcset="/a.png 1x, https://cdn.example/b.png 2x">',
    );
    const [a, b, c, d] = [...root.querySelectorAll('img')];
    expect(a).not.toHaveAttribute('src');
    expect(b).not.toHaveAttribute('src');
    expect(c).toHaveAttribute('src', '/ok.png');
    expect(c).not.toHaveAttribute('srcset');
    expect(d).toHaveAttribute('srcset', '/a.png 1x, https://cdn.example/b.png 2x');
  });

  it('removes iframes, objects, embeds, forms and inputs, base, meta and link', () => {
    const root = clean(
      '<iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="x.swf">' +
        '<form action="javascript:alert(1)"><input name="q" onfocus="alert(1)" autofocus><button formaction="javascript:alert(1)">go</button></form>' +
        '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=javascript:alert(1)"><link rel="stylesheet" href="https://evil.example/x.css"><p>text</p>',
    );
    expect(root.querySelector('iframe, object, embed, form, input, button, base, meta, link')).toBeNull();
    expect(allAttributes(root).some((a) => /javascript|evil/i.test(a))).toBe(false);
    expect(root.querySelector('p')).toHaveTextContent('text');
  });

  it('removes the style attribute (url() and expression())', () => {
    const root = clean(
      '<p style="background:url(javascript:alert(1))">a</p><div style="width: expression(alert(1))">b</div><span style="color:red">c</span>',
    );
    expect(root.querySelector('[style]')).toBeNull();
    expect(root.textContent).toBe('abc');
  });

  it('opens external links in a new tab without an opener, whatever target they asked for', () => {
    const root = clean(
      '<a href="https://example.com/a" target="_self">https</a><a href="http://example.com/b">http</a>' +
        '<a href="//example.com/c" target="_top" rel="opener">protocol-relative</a>' +
        '<a href="/\\example.com/d">backslash</a>',
    );
    expect(root.querySelectorAll('a')).toHaveLength(4);
    for (const a of root.querySelectorAll('a')) {
      expect(a).toHaveAttribute('target', '_blank');
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });

  it('keeps internal, fragment, mailto and tel links in the tab (no target)', () => {
    const root = clean(
      '<a href="/race-information/race-rules" target="_blank">route</a><a href="#top" target="_blank">top</a>' +
        '<a href="mailto:service@qcmarathon.example">mail</a><a href="tel:400-820-2027">tel</a><a href="notes/page.html">relative</a>',
    );
    const links = [...root.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/race-information/race-rules',
      '#top',
      'mailto:service@qcmarathon.example',
      'tel:400-820-2027',
      'notes/page.html',
    ]);
    for (const a of links) expect(a).not.toHaveAttribute('target');
  });

  it('lazy-loads images', () => {
    expect(clean('<img src="/a.png" alt="a">').querySelector('img')).toHaveAttribute('loading', 'lazy');
  });

  it('drops data attributes and unsafe URLs on other URL attributes', () => {
    const root = clean(
      '<blockquote cite="javascript:alert(1)" data-x="1">q</blockquote><video poster="javascript:alert(1)" src="data:video/mp4;base64,AA"></video>',
    );
    expect(root.querySelector('blockquote')).not.toHaveAttribute('cite');
    expect(root.querySelector('blockquote')).not.toHaveAttribute('data-x');
    const video = root.querySelector('video');
    if (video) {
      expect(video).not.toHaveAttribute('poster');
      expect(video).not.toHaveAttribute('src');
    }
  });

  it('renders the cleaned HTML in a div with its class, and nothing for empty input', () => {
    const { container, rerender } = render(
      <SafeHtml html={'<p>hi</p><script>alert(1)</script>'} className="rich-text" />,
    );
    const div = container.firstElementChild!;
    expect(div).toHaveClass('safe-html', 'rich-text');
    expect(div.innerHTML).toBe('<p>hi</p>');
    rerender(<SafeHtml html={undefined} />);
    expect(container.firstElementChild!.innerHTML).toBe('');
  });

  it('tells safe URLs from unsafe ones', () => {
    for (const ok of [
      'https://a.example',
      'http://a',
      '//a.example/x',
      '/x',
      '#x',
      'x/y.png',
      '?q=1',
      'mailto:a@b.c',
      'tel:123',
    ]) {
      expect(isSafeUrl(ok)).toBe(true);
    }
    for (const bad of [
      'javascript:x',
      ' JavaScript:x',
      'data:image/png;base64,AA',
      'vbscript:x',
      'file:///etc/passwd',
      'j\u0000avascript:x',
    ]) {
      expect(isSafeUrl(bad)).toBe(false);
    }
  });

  it('knows blank HTML', () => {
    expect(isBlankHtml('')).toBe(true);
    expect(isBlankHtml('   ')).toBe(true);
    expect(isBlankHtml('<p><br></p>')).toBe(true);
    expect(isBlankHtml('<p>&nbsp;</p>')).toBe(true);
    expect(isBlankHtml('<p>x</p>')).toBe(false);
    expect(isBlankHtml('<p><img src="/a.png"></p>')).toBe(false);
  });
});
