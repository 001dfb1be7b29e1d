import { describe, expect, it } from 'vitest';
import { sanitizeDescription } from './sanitize';

describe('sanitizeDescription', () => {
  it('keeps formatting, lists, headings and tables', () => {
    const html =
      '<h2>Features</h2><p>Soft <strong>merino</strong> <em>wool</em><br>blend</p>' +
      '<ul><li>Warm</li><li>Light</li></ul><ol start="3"><li>Three</li></ol>' +
      '<table><thead><tr><th scope="col">Size</th></tr></thead><tbody><tr><td colspan="2">M</td></tr></tbody></table>';
    expect(sanitizeDescription(html)).toBe(html.replace('<br>', '<br />'));
  });

  it('keeps escaped text escaped', () => {
    expect(sanitizeDescription('<p>5 < 6 & 7 > 3</p>')).toBe('<p>5 &lt; 6 &amp; 7 &gt; 3</p>');
  });

  it.each([
    ['a script element and its content', '<p>Hi</p><script>alert(1)</script>', '<p>Hi</p>'],
    ['a script closing an attribute', '"><script>alert(document.cookie)</script>', '"&gt;'],
    ['a style element', '<style>body{display:none}</style><h3>Title</h3>', '<h3>Title</h3>'],
    ['an iframe', '<iframe src="https://evil.test/"></iframe><p>x</p>', '<p>x</p>'],
    ['svg with onload', '<svg onload="alert(1)"><circle r="1"/></svg>after', 'after'],
    ['mathml with a javascript link', '<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ''],
    ['object and embed', '<object data="x.swf"></object><embed src="x.swf">', ''],
    ['a form and its controls', '<form action="https://evil.test/"><input value="1"><button>Go</button></form>', 'Go'],
    ['a noscript parser trick', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', ''],
  ])('removes %s', (_name, dirty, clean) => {
    expect(sanitizeDescription(dirty)).toBe(clean);
  });

  it.each([
    ['onerror on an image', '<img src="https://cdn.acme.test/a.jpg" onerror="alert(1)" alt="A">'],
    ['onclick on a paragraph', '<p onclick="alert(1)">A</p>'],
    ['onmouseover on a cell', '<table><tr><td onmouseover="alert(1)">A</td></tr></table>'],
    ['a style expression', '<p style="width: expression(alert(1))">A</p>'],
    ['a style url', '<div style="background:url(javascript:alert(1))">A</div>'],
    ['class and id', '<p class="x" id="login">A</p>'],
  ])('strips %s', (_name, dirty) => {
    const clean = sanitizeDescription(dirty);
    expect(clean).not.toMatch(/\son\w+=|style=|class=|id=|javascript:|expression/i);
    expect(clean).toContain('A');
  });

  it('drops images whose source is not an absolute http(s) address', () => {
    expect(sanitizeDescription('<img src=x onerror="alert(1)">')).toBe('');
    expect(sanitizeDescription('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).toBe('');
    expect(sanitizeDescription('<img src="javascript:alert(1)">')).toBe('');
    expect(sanitizeDescription('<img src="//evil.test/a.png">')).toBe('');
    expect(sanitizeDescription('<img src="/uploads/a.png">')).toBe('');
    expect(sanitizeDescription('<img src="https://cdn.acme.test/a.jpg" alt="Front" width="300">')).toBe(
      '<img src="https://cdn.acme.test/a.jpg" alt="Front" width="300" />',
    );
  });

  it('keeps only http, https and mailto links, opening in a new tab without opener', () => {
    const newTab = 'target="_blank" rel="noopener noreferrer"';
    expect(sanitizeDescription('<a href="javascript:alert(1)">x</a>')).toBe(`<a ${newTab}>x</a>`);
    expect(sanitizeDescription('<a href="jav&#x09;ascript:alert(1)">x</a>')).toBe(`<a ${newTab}>x</a>`);
    expect(sanitizeDescription('<a href="JAVASCRIPT:alert(1)">x</a>')).toBe(`<a ${newTab}>x</a>`);
    expect(sanitizeDescription('<a href="data:text/html,<script>alert(1)</script>">x</a>')).toBe(`<a ${newTab}>x</a>`);
    expect(sanitizeDescription('<a href="/relative">x</a>')).toBe(`<a ${newTab}>x</a>`);
    expect(sanitizeDescription('<a href="https://acme.test/" target="_self" rel="opener" onclick="x()">x</a>')).toBe(
      `<a href="https://acme.test/" ${newTab}>x</a>`,
    );
    expect(sanitizeDescription('<a href="mailto:sales@acme.test">x</a>')).toBe(
      `<a href="mailto:sales@acme.test" ${newTab}>x</a>`,
    );
  });
});
