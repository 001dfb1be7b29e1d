import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSanitizer, SafeHtml } from './SafeHtml';
import { sanitizeDescription } from './sanitize-description';

afterEach(cleanup);

describe('sanitizeDescription (DOMPurify with the description policy)', () => {
  it('keeps the allowed markup', () => {
    const html =
      '<h2>Warm</h2><p>Knit from <strong>merino</strong> and <em>silk</em>.</p><ul><li>S</li><li>M</li></ul>' +
      '<table><tbody><tr><th scope="row">Capacity</th><td colspan="2">32 oz</td></tr></tbody></table>';
    expect(sanitizeDescription(html)).toBe(html);
  });

  it('removes scripts with their content, event handlers and javascript: links', () => {
    const clean = sanitizeDescription(
      '<p>Tracks steps.</p><script>alert(document.cookie)</script><img src=x onerror="alert(1)">' +
        '<a href="javascript:alert(1)">Specs</a><a href=" JaVaScRiPt:alert(1)">Two</a>' +
        '<p onclick="alert(1)" style="background:url(javascript:alert(1))">Water-resistant.</p>' +
        '<svg onload="alert(1)"><circle r="5"/></svg><iframe src="https://evil.test/"></iframe>',
    );
    expect(clean).not.toMatch(/script|onerror|onclick|onload|javascript:|style=|<svg|<iframe|alert/i);
    expect(clean).toContain('<p>Tracks steps.</p>');
    expect(clean).toContain('>Specs</a>');
    expect(clean).toContain('<p>Water-resistant.</p>');
  });

  it('keeps only absolute http(s) and mailto links, always opening in a new tab without the opener', () => {
    const clean = sanitizeDescription(
      '<a href="https://shop.example/care" target="_self" rel="opener">Care</a>' +
        '<a href="mailto:help@example.com">Mail</a><a href="/relative">Relative</a>' +
        '<a href="data:text/html,<script>alert(1)</script>">Data</a>',
    );
    const holder = document.createElement('div');
    holder.innerHTML = clean;
    const links = Array.from(holder.querySelectorAll('a'));
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Care', 'https://shop.example/care'],
      ['Mail', 'mailto:help@example.com'],
      ['Relative', null],
      ['Data', null],
    ]);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('keeps images with http(s) sources only, and drops attributes that are not allowed', () => {
    const clean = sanitizeDescription(
      '<img src="https://img.example/a.jpg" alt="A" class="x" id="y" data-z="1">' +
        '<img src="data:image/png;base64,AAAA" alt="B"><img src="javascript:alert(1)" alt="C">' +
        '<p class="lead" id="intro" title="t">Text</p>',
    );
    expect(clean).toBe('<img src="https://img.example/a.jpg" alt="A"><p>Text</p>');
  });

  // Agreement with the server's sanitizer, on one corpus of hostile and benign descriptions
  // (test/fixtures/html/sanitizer-corpus.json): functions/src/catalogue/sanitizer-agreement.test.ts.
});

describe('SafeHtml', () => {
  beforeAll(async () => {
    await loadSanitizer();
  });

  it('renders nothing of the description until DOMPurify has loaded, then the sanitized markup', async () => {
    vi.resetModules();
    const fresh = await import('./SafeHtml');
    const { container } = render(
      <fresh.SafeHtml html="<p>Knit from <strong>merino</strong>.</p><script>x()</script>" />,
    );
    // DOMPurify is a chunk of its own: until it is in, the description's place is held, empty.
    expect(container.querySelector('.rich-text--pending')?.getAttribute('aria-busy')).toBe('true');
    expect(container.textContent).toBe('');
    expect((await screen.findByText('merino')).tagName).toBe('STRONG');
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('.rich-text--pending')).toBeNull();
  });

  it('renders the description as markup', () => {
    const { container } = render(<SafeHtml html="<p>Knit from <strong>merino</strong>.</p><script>x()</script>" />);
    expect(container.querySelector('strong')?.textContent).toBe('merino');
    expect(container.querySelector('script')).toBeNull();
  });

  it('says so when nothing is left to show', () => {
    const { container } = render(<SafeHtml html="<script>alert(1)</script>" emptyText="No description." />);
    expect(container.textContent).toBe('No description.');
  });
});
