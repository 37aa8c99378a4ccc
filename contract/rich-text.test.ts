/**
 * The one sanitiser both browser apps use (contract/rich-text.ts): what the console's editor gives back is what
 * the site shows. The attack catalogue is in src/components/ui/safe-html.test.tsx (the site's component, which
 * calls this); these tests hold the module's own promises.
 */
import { isBlankHtml, isSafeUrl, sanitizeRichText } from '#contract/rich-text';

function parsed(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = sanitizeRichText(html);
  return host;
}

describe('sanitizeRichText', () => {
  it('removes a script, an onerror= handler and a javascript: link, and keeps the text around them', () => {
    const root = parsed(
      '<p>开跑<script>window.hacked = 1</script></p><img src="/files/a.png" alt="起点" onerror="alert(1)">' +
        '<a href="javascript:alert(1)">点我</a>',
    );
    expect(root.querySelector('script')).toBeNull();
    expect(root.querySelector('img')).toHaveAttribute('alt', '起点');
    expect(root.querySelector('img')).not.toHaveAttribute('onerror');
    expect(root.querySelector('a')).not.toHaveAttribute('href');
    expect(root.textContent).toBe('开跑点我');
  });

  it('keeps what the editor writes: headings, bold, italic, underline, lists, quotes, rules, links and images', () => {
    const html =
      '<h2>一</h2><h3>二</h3><p><strong>b</strong><em>i</em><u>u</u><b>b2</b><i>i2</i></p><ul><li>a</li></ul>' +
      '<ol><li>b</li></ol><blockquote>q</blockquote><hr><p><a href="/race-information/race-rules">规程</a></p>';
    const root = parsed(html);
    for (const tag of ['h2', 'h3', 'strong', 'em', 'u', 'b', 'i', 'ul', 'ol', 'blockquote', 'hr', 'a']) {
      expect(root.querySelector(tag), tag).not.toBeNull();
    }
    expect(root.querySelector('a')).not.toHaveAttribute('target');
  });

  it('opens another site in a new tab without an opener', () => {
    const link = parsed('<a href="https://example.org/">x</a>').querySelector('a');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('is stable: sanitising its own output keeps every element, attribute and text', () => {
    const shape = (root: HTMLElement) =>
      [...root.querySelectorAll('*')].map((el) => ({
        tag: el.tagName,
        attributes: [...el.attributes].map((a) => `${a.name}=${a.value}`).sort(),
        text: el.textContent,
      }));
    const once = sanitizeRichText('<p>a<img src="/x.png" alt="x"><a href="//cdn.example/x">y</a></p>');
    expect(shape(parsed(once))).toEqual(shape(parsed(sanitizeRichText(once))));
  });

  it('gives back an empty text for nothing', () => {
    expect(sanitizeRichText(undefined)).toBe('');
    expect(sanitizeRichText('   ')).toBe('');
  });

  it('tells safe addresses and blank HTML apart', () => {
    expect(isSafeUrl('/files/a.png')).toBe(true);
    expect(isSafeUrl('data:image/png;base64,AAAA')).toBe(false);
    expect(isBlankHtml('<p><br></p>')).toBe(true);
    expect(isBlankHtml('<hr>')).toBe(false);
  });
});
