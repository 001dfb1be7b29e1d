import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DESCRIPTION_ALLOWED_ATTRIBUTES,
  DESCRIPTION_ALLOWED_TAGS,
  DESCRIPTION_LINK_REL,
  DESCRIPTION_LINK_TARGET,
} from '@portal/shared/domain/description-policy';
import { parseCatalogueCsv } from './parse-csv';
import { sanitizeDescription } from './sanitize';

/** Payloads removed entirely or down to their text: [name, input, output]. */
const REMOVED: [name: string, dirty: string, clean: string][] = [
  ['a script element and its content', '<p>Hi</p><script>alert(1)</script>', '<p>Hi</p>'],
  ['a script closing an attribute', '"><script>alert(document.cookie)</script>', '"&gt;'],
  ['a style element', '<style>body{display:none}</style><h3>Title</h3>', '<h3>Title</h3>'],
  ['an iframe', '<iframe src="https://evil.test/"></iframe><p>x</p>', '<p>x</p>'],
  ['svg with onload', '<svg onload="alert(1)"><circle r="1"/></svg>after', 'after'],
  ['mathml with a javascript link', '<math><mi xlink:href="javascript:alert(1)">x</mi></math>', ''],
  ['object and embed', '<object data="x.swf"></object><embed src="x.swf">', ''],
  ['a form and its controls', '<form action="https://evil.test/"><input value="1"><button>Go</button></form>', 'Go'],
  ['a noscript parser trick', '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', ''],
];

/** Payloads whose dangerous attributes go while the element's text (`A`) stays: [name, input]. */
const STRIPPED: [name: string, dirty: string][] = [
  ['onerror on an image', '<img src="https://cdn.acme.test/a.jpg" onerror="alert(1)" alt="A">'],
  ['onclick on a paragraph', '<p onclick="alert(1)">A</p>'],
  ['onmouseover on a cell', '<table><tr><td onmouseover="alert(1)">A</td></tr></table>'],
  ['a style expression', '<p style="width: expression(alert(1))">A</p>'],
  ['a style url', '<div style="background:url(javascript:alert(1))">A</div>'],
  ['class and id', '<p class="x" id="login">A</p>'],
];

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

  it.each(REMOVED)('removes %s', (_name, dirty, clean) => {
    expect(sanitizeDescription(dirty)).toBe(clean);
  });

  it.each(STRIPPED)('strips %s', (_name, dirty) => {
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

const NEW_TAB = 'target="_blank" rel="noopener noreferrer"';

/** Spellings of a javascript: (or other forbidden) URL that a browser would follow as such. */
const FORBIDDEN_URLS: [name: string, url: string][] = [
  ['a hex entity', 'jav&#x61;script:alert(1)'],
  ['a decimal entity', '&#106;avascript:alert(1)'],
  ['an entity without semicolon', '&#106avascript:alert(1)'],
  ['a zero-padded entity', '&#0000106;avascript:alert(1)'],
  ['a named entity for the colon', 'javascript&colon;alert(1)'],
  ['a tab', 'java\tscript:alert(1)'],
  ['a tab entity', 'java&Tab;script:alert(1)'],
  ['a newline', 'java\nscript:alert(1)'],
  ['a newline entity', 'java&#10;script:alert(1)'],
  ['leading spaces', '   javascript:alert(1)'],
  ['a leading control character', '\x01javascript:alert(1)'],
  ['a leading control character entity', '&#x1;javascript:alert(1)'],
  ['leading spaces and a NUL', ' \x00 javascript:alert(1)'],
  ['mixed case', 'JaVaScRiPt:alert(1)'],
  ['vbscript', 'vbscript:msgbox(1)'],
  ['data', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
  ['a doubly escaped entity (not a URL a browser follows either)', '&amp;#106;avascript:alert(1)'],
];

describe('sanitizeDescription: URLs', () => {
  it.each(FORBIDDEN_URLS)('drops a javascript: link written with %s', (_name, url) => {
    expect(sanitizeDescription(`<a href="${url}">x</a>`)).toBe(`<a ${NEW_TAB}>x</a>`);
    expect(sanitizeDescription(`<a href='${url}' title="t">x</a>`)).toBe(`<a title="t" ${NEW_TAB}>x</a>`);
  });

  it.each(FORBIDDEN_URLS)('drops an image whose source is written with %s', (_name, url) => {
    expect(sanitizeDescription(`<p>a<img src="${url}" alt="A">b</p>`)).toBe('<p>ab</p>');
  });

  it('keeps an absolute link with spaces around it as written, as a browser ignores them', () => {
    expect(sanitizeDescription('<a href="  https://acme.test/care ">Care</a>')).toBe(
      `<a href="  https://acme.test/care " ${NEW_TAB}>Care</a>`,
    );
    expect(sanitizeDescription('<a href="HTTPS://ACME.TEST/">x</a>')).toBe(
      `<a href="HTTPS://ACME.TEST/" ${NEW_TAB}>x</a>`,
    );
  });

  it('drops a link that is not absolute for a browser (non-ASCII space before the scheme)', () => {
    expect(sanitizeDescription('<a href="\u00a0https://acme.test/">x</a>')).toBe(`<a ${NEW_TAB}>x</a>`);
    expect(sanitizeDescription('<a href="ht tps://acme.test/">x</a>')).toBe(`<a ${NEW_TAB}>x</a>`);
    expect(sanitizeDescription('<a href="https://">x</a>')).toBe(`<a ${NEW_TAB}>x</a>`);
  });

  it('keeps mailto links, not mailto images', () => {
    expect(sanitizeDescription('<a href="mailto:a@b.c">Mail us</a>')).toBe(
      `<a href="mailto:a@b.c" ${NEW_TAB}>Mail us</a>`,
    );
    expect(sanitizeDescription('<img src="mailto:a@b.c">')).toBe('');
  });

  it('reads the first of repeated attributes, as a browser does', () => {
    expect(sanitizeDescription('<a href="https://acme.test/" href="javascript:alert(1)">x</a>')).toBe(
      `<a href="https://acme.test/" ${NEW_TAB}>x</a>`,
    );
    expect(sanitizeDescription('<a href="javascript:alert(1)" href="https://acme.test/">x</a>')).toBe(
      `<a ${NEW_TAB}>x</a>`,
    );
  });

  it('writes target and rel at their place in the input, or after the other attributes', () => {
    expect(sanitizeDescription('<a target="_self" href="https://acme.test/" rel="opener">x</a>')).toBe(
      '<a target="_blank" href="https://acme.test/" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeDescription('<a title="T">x</a>')).toBe(`<a title="T" ${NEW_TAB}>x</a>`);
  });

  it('removes an image with an event handler and no valid source', () => {
    expect(sanitizeDescription('<img src=x onerror=alert(1)>')).toBe('');
    expect(sanitizeDescription('<IMG SRC=x ONERROR=alert(1)>')).toBe('');
    expect(sanitizeDescription('<img onerror=alert(1)>text')).toBe('text');
    expect(sanitizeDescription('<img src="" alt="A">')).toBe('');
    expect(sanitizeDescription('<img src="https://cdn.acme.test/a.jpg" onerror="alert(1)">')).toBe(
      '<img src="https://cdn.acme.test/a.jpg" />',
    );
  });
});

describe('sanitizeDescription: elements', () => {
  it.each([
    ['svg around a script', '<svg><script>alert(1)</script></svg>ok', 'ok'],
    ['svg around html', '<svg><foreignObject><p>in</p><script>alert(1)</script></foreignObject></svg>ok', 'ok'],
    ['mathml around a table', '<math><mtext><table><tr><td>x</td></tr></table></mtext></math>ok', 'ok'],
    ['iframe around object', '<div><iframe><object><p>a</p></object></iframe>b</div>', '<div>b</div>'],
    ['template around style', '<template><style>p{}</style><p>hidden</p></template><p>shown</p>', '<p>shown</p>'],
    ['a select in a form', '<form><select><option>a</option><optgroup><option>b</optgroup></select>Go</form>', 'Go'],
    ['script in script', '<script><script>x</script>y</script>z', 'yz'],
    ['noembed parser trick', '<noembed><p title="</noembed><img src=x onerror=alert(1)>"></noembed>ok', 'ok'],
    ['textarea and title', '<textarea><b>a</b></textarea><title>t</title><xmp><i>x</i></xmp>ok', 'ok'],
    ['noframes and plaintext', '<noframes><b>a</b></noframes>ok<plaintext><b>x</b>', 'ok'],
  ])('removes nested forbidden elements with their content: %s', (_name, dirty, clean) => {
    expect(sanitizeDescription(dirty)).toBe(clean);
  });

  it('closes unclosed elements at the end, innermost first', () => {
    expect(sanitizeDescription('<p><b>text')).toBe('<p><b>text</b></p>');
    expect(sanitizeDescription('<ul><li>a<li>b')).toBe('<ul><li>a</li><li>b</li></ul>');
    expect(sanitizeDescription('<table><tr><td>a<td>b<tr><td>c</table>')).toBe(
      '<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>',
    );
    expect(sanitizeDescription('<b><i>x</b>y</i>')).toBe('<b><i>x</i></b>y');
  });

  it('drops stray closing tags', () => {
    expect(sanitizeDescription('</div>x</div>')).toBe('x');
    expect(sanitizeDescription('<p>a</span></div></p></b>')).toBe('<p>a</p>');
  });

  it('writes void elements once, self-closed, as browsers read </br> and </p>', () => {
    expect(sanitizeDescription('a<br>b<BR/>c<hr><hr/>')).toBe('a<br />b<br />c<hr /><hr />');
    expect(sanitizeDescription('<table><colgroup><col span="2"></colgroup></table>')).toBe(
      '<table><colgroup><col span="2" /></colgroup></table>',
    );
    expect(sanitizeDescription('a</br>b</p>')).toBe('a<br />b<p></p>');
    expect(sanitizeDescription('<div/>x')).toBe('<div>x</div>');
  });

  it('removes comments, CDATA, processing instructions and doctypes', () => {
    expect(sanitizeDescription('<!-- <script> -->')).toBe('');
    expect(sanitizeDescription('<p>a<!-- <script>alert(1)</script> -->b</p>')).toBe('<p>ab</p>');
    expect(sanitizeDescription('<![CDATA[<script>alert(1)</script>]]>x')).toBe('x');
    expect(sanitizeDescription('<?xml version="1.0"?><!DOCTYPE html><p>x</p>')).toBe('<p>x</p>');
    expect(sanitizeDescription('<!--><script>alert(1)</script>-->x')).toBe('--&gt;x');
  });

  it('keeps split tag names as text', () => {
    expect(sanitizeDescription('<scr<script>ipt>alert(1)</script>')).toBe('ipt&gt;alert(1)');
    expect(sanitizeDescription('<<script>script>alert(1)<</script>/script>')).toBe('&lt;/script&gt;');
    expect(sanitizeDescription('<scr<b>ipt>alert(1)</scr</b>ipt>')).toBe('ipt&gt;alert(1)ipt&gt;');
  });

  it('escapes quotes and markup in attribute values, and markup in text', () => {
    expect(sanitizeDescription(`<a title='say "hi" & <bye>' href="https://acme.test/?a=1&amp;b=2">x</a>`)).toBe(
      `<a title="say &quot;hi&quot; &amp; &lt;bye&gt;" href="https://acme.test/?a=1&amp;b=2" ${NEW_TAB}>x</a>`,
    );
    expect(sanitizeDescription('<img src="https://cdn.acme.test/a.jpg" alt="&quot; onerror=&quot;alert(1)">')).toBe(
      '<img src="https://cdn.acme.test/a.jpg" alt="&quot; onerror=&quot;alert(1)" />',
    );
    expect(sanitizeDescription('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; "q" &#39;s&nbsp;</p>')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; "q" \'s\u00a0</p>',
    );
  });

  it('reads upper-case tags and attributes', () => {
    expect(
      sanitizeDescription('<P CLASS="x" TITLE="y"><A HREF="https://acme.test/">t</A></P><SCRIPT>alert(1)</SCRIPT>'),
    ).toBe(`<p><a href="https://acme.test/" ${NEW_TAB}>t</a></p>`);
    expect(sanitizeDescription('<IMG SRC="https://cdn.acme.test/a.jpg" ALT="A" OnError="alert(1)">')).toBe(
      '<img src="https://cdn.acme.test/a.jpg" alt="A" />',
    );
  });

  it('drops empty attributes except alt and boolean ones', () => {
    expect(sanitizeDescription('<ol reversed start="" type="a"><li value="">x</li></ol>')).toBe(
      '<ol reversed type="a"><li>x</li></ol>',
    );
    expect(sanitizeDescription('<img src="https://cdn.acme.test/a.jpg" alt title="">')).toBe(
      '<img src="https://cdn.acme.test/a.jpg" alt="" />',
    );
  });

  it('closes an element where a browser would, even when a removed element stands between', () => {
    // A <div> closes an open <p>; with the <font> gone, the output must say so itself.
    expect(sanitizeDescription('<p>a<font><div>b</div>c</font>d</p>')).toBe('<p>a</p><div>b</div>cd');
    expect(sanitizeDescription('<ul><li>a<span><li>b</span></ul>')).toBe('<ul><li>a<span><li>b</li></span></li></ul>');
    expect(sanitizeDescription('<ul><li>a<font><li>b</font></ul>')).toBe('<ul><li>a</li><li>b</li></ul>');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over a corpus: stable (the output sanitizes to itself), deterministic, well-formed.

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/csv/', import.meta.url));
const ALLOWED_TAGS: ReadonlySet<string> = new Set(DESCRIPTION_ALLOWED_TAGS);
const VOID_TAGS = new Set(['br', 'hr', 'img', 'col']);

/**
 * Fails unless `html` is what the sanitizer may write: only allowed tags, each closed in order
 * (void ones written `<br />` and never closed), only their allowed attributes, each once and
 * double-quoted, allowed URLs only, every `&`, `<`, `>` (and `"` in values) escaped.
 */
function expectWellFormed(html: string): void {
  const token = /<(\/?)([^\s/>]+)((?: [a-z]+(?:="[^"]*")?)*)( \/)?>|([^<]+)|(<)/g;
  const open: string[] = [];
  for (const [, end, tag, attributes, selfClosed, text, stray] of html.matchAll(token)) {
    expect(stray, html).toBeUndefined();
    if (text !== undefined) {
      expect(text, html).not.toMatch(/>|&(?!amp;|lt;|gt;)/);
      continue;
    }
    expect(ALLOWED_TAGS.has(tag!), `<${tag}> in ${html}`).toBe(true);
    if (end) {
      expect(open.pop(), html).toBe(tag);
      expect(attributes, html).toBe('');
      continue;
    }
    expect(Boolean(selfClosed), html).toBe(VOID_TAGS.has(tag!));
    if (!selfClosed) open.push(tag!);
    const names: string[] = [];
    for (const [, name, value] of attributes!.matchAll(/ ([a-z]+)(?:="([^"]*)")?/g)) {
      names.push(name!);
      expect(DESCRIPTION_ALLOWED_ATTRIBUTES[tag!] ?? [], html).toContain(name);
      expect(value ?? '', html).not.toMatch(/[<>]|&(?!amp;|lt;|gt;|quot;)/);
      // eslint-disable-next-line no-control-regex
      const url = (value ?? '').replaceAll('&amp;', '&').replace(/[\x00-\x20]/g, '');
      if (name === 'href') expect(url, html).toMatch(/^(https?|mailto):/i);
      if (name === 'src') expect(url, html).toMatch(/^https?:/i);
    }
    expect(new Set(names).size, html).toBe(names.length);
    if (tag === 'img') expect(names, html).toContain('src');
    if (tag === 'a') expect(attributes, html).toContain(` target="${DESCRIPTION_LINK_TARGET}"`);
    if (tag === 'a') expect(attributes, html).toContain(` rel="${DESCRIPTION_LINK_REL}"`);
  }
  expect(open, html).toEqual([]);
}

function expectStable(dirty: string): void {
  const clean = sanitizeDescription(dirty);
  expect(sanitizeDescription(clean), dirty).toBe(clean);
  expect(sanitizeDescription(dirty), dirty).toBe(clean);
  expectWellFormed(clean);
}

/** Small random documents from a seeded generator: tags, attributes, entities, broken markup. */
function randomDocuments(count: number, seed: number): string[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const tags = [
    ...DESCRIPTION_ALLOWED_TAGS,
    'font',
    'form',
    'center',
    'script',
    'svg',
    'noscript',
    'textarea',
    'A',
    'IMG',
  ];
  const attributes = [
    'href',
    'src',
    'alt',
    'title',
    'target',
    'rel',
    'onclick',
    'style',
    'start',
    'reversed',
    'colspan',
    'HREF',
  ];
  const values = [
    'https://acme.test/?a=1&b=2',
    'mailto:a@b.c',
    'jav&#x61;script:x',
    ' java\tscript:x',
    '"q"',
    "it's",
    '<b>',
    '',
  ];
  const texts = [
    'hi',
    'a<b',
    '5 > 3',
    '&amp;',
    '&lt;p&gt;',
    '&nbsp;',
    '<!-- c -->',
    '<![CDATA[x]]>',
    '</div>',
    '</p>',
    '</br>',
    '<scr<script>ipt>',
    '&',
  ];
  const build = (depth: number): string => {
    let html = '';
    for (let n = Math.floor(next() * 4); n > 0; n--) {
      if (next() < 0.35 || depth > 4) {
        html += pick(texts);
        continue;
      }
      const tag = pick(tags);
      let attrs = '';
      for (let a = Math.floor(next() * 3); a > 0; a--) {
        attrs += ` ${pick(attributes)}="${pick(values).replaceAll('"', '&quot;')}"`;
      }
      html += `<${tag}${attrs}>${build(depth + 1)}${next() < 0.8 ? `</${tag}>` : ''}`;
    }
    return html;
  };
  return Array.from({ length: count }, () => build(0));
}

// Thousands of documents, CPU-bound: enough time for them on a busy machine.
describe('sanitizeDescription: stability', { timeout: 60_000 }, () => {
  it('is stable and well-formed on the payloads of these tests', () => {
    const corpus = [
      ...REMOVED.map(([, dirty]) => dirty),
      ...STRIPPED.map(([, dirty]) => dirty),
      ...FORBIDDEN_URLS.flatMap(([, url]) => [`<a href="${url}">x</a>`, `<img src="${url}">`]),
      '<a href="  https://acme.test/ ">x</a><a href="mailto:a@b.c" target=_self>m</a>',
      '<ol reversed start="2"><li value="3">x</ol><img src="https://cdn.acme.test/a.jpg" alt>',
      '<p>a<font><div>b</div>c</font>d</p><li>a<font><li>b</font><dt>x<font><dd>y',
      '<table><caption>c<font><tr><td>a<font><td>b<font><tr><th>c<font><tbody>',
    ];
    for (const dirty of corpus) expectStable(dirty);
  });

  it('is stable and well-formed on every CSV fixture, its descriptions and its whole text', async () => {
    const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.csv'));
    expect(files).toContain('xss-payloads.csv');
    const descriptions: string[] = [];
    for (const name of files) {
      const content = readFileSync(join(FIXTURES, name));
      expectStable(content.toString('utf8'));
      await parseCatalogueCsv([content], {
        sanitize: (html) => {
          descriptions.push(html);
          return html;
        },
      });
    }
    expect(descriptions.some((html) => html.includes('<script>'))).toBe(true);
    for (const dirty of descriptions) expectStable(dirty);
  });

  it('is stable when any allowed element opens inside any other, with or without a removed one between', () => {
    const start = (tag: string) => (tag === 'img' ? '<img src="https://cdn.acme.test/a.jpg">' : `<${tag}>`);
    for (const outer of DESCRIPTION_ALLOWED_TAGS) {
      for (const inner of DESCRIPTION_ALLOWED_TAGS) {
        expectStable(`${start(outer)}a${start(inner)}b</${inner}>c</${outer}>d`);
        expectStable(`${start(outer)}a<font>${start(inner)}b</${inner}>c</font>d</${outer}>e`);
        expectStable(`${start(outer)}a<font>${start(inner)}b<font>${start(outer)}c`);
      }
    }
  });

  it('is stable on random markup', () => {
    for (const dirty of randomDocuments(1500, 20_240_601)) expectStable(dirty);
  });
});
