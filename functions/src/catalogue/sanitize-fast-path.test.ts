import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DESCRIPTION_ALLOWED_TAGS } from '@portal/shared/domain/description-policy';
import { isSanitizedForm, sanitizeDescription, sanitizeWithParser } from './sanitize';
import { seededRandom } from '../../../test/fixtures/csv/generate-large';

/**
 * The sanitizer's fast path (isSanitizedForm) returns a description as it is, without the parser.
 * That is only right when the parser would give it back unchanged: checked here on the sanitizer
 * corpus and on 20 000 pieces of markup generated from a fixed seed, built from the pieces most
 * likely to break it (implied end tags, void elements, entities, stray `<` `>` `&`, attributes,
 * the forced `a` and required `img`, upper case, dropped elements). A seeded generator rather
 * than a property-testing library: the repository has none, and one deterministic loop suffices.
 */

const TEXTS = [
  'Plain text',
  ' spaced  out ',
  'a "quoted" word',
  "it's",
  '5 &lt; 6',
  'Kitchen &amp; Co.',
  '&gt;',
  'bare & ampersand',
  '&amp',
  '&nbsp;',
  '&quot;',
  '&#60;',
  '3 > 2',
  '1 < 2',
  '<',
  '\n',
  '\r\n',
  '\t',
  '\u0000',
  '\u00a0',
  'é',
  '😀',
  '<!-- comment -->',
  '<![CDATA[x]]>',
  '<?php ?>',
  '<!DOCTYPE html>',
];

const EXTRA_TAGS = [
  '<P>',
  '</P>',
  '<p >',
  '<p/>',
  '<p class="x">',
  '<br>',
  '<br/>',
  '<br />',
  '<hr />',
  '</br>',
  '<img />',
  '<img src="https://cdn.test/a.jpg" />',
  '<a>',
  '</a>',
  '<a href="https://acme.test/">',
  '<font>',
  '</font>',
  '<script>',
  '</script>',
  '<style>',
  '<textarea>',
  '<svg>',
  '</svg>',
  '<title>',
  '<select>',
  '<option>',
  '<xmp>',
];

function generate(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const open: string[] = [];
  let html = '';
  const length = 1 + Math.floor(next() * 12);
  for (let i = 0; i < length; i++) {
    const roll = next();
    if (roll < 0.3) html += pick(TEXTS);
    else if (roll < 0.55) {
      const tag = pick(DESCRIPTION_ALLOWED_TAGS);
      html += `<${tag}>`;
      open.push(tag);
    } else if (roll < 0.75 && open.length > 0) html += `</${open.pop()!}>`;
    else if (roll < 0.82) html += `</${pick(DESCRIPTION_ALLOWED_TAGS)}>`;
    else html += pick(EXTRA_TAGS);
  }
  // Mostly closed properly, so that many pass the fast path's checks and reach the comparison.
  if (next() < 0.8) while (open.length > 0) html += `</${open.pop()!}>`;
  return html;
}

const corpus = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../test/fixtures/html/sanitizer-corpus.json'), 'utf8')) as {
    html: string;
  }[]
).map((item) => item.html);

describe('the sanitizer fast path', () => {
  it('accepts only what the parser gives back unchanged (20 000 generated pieces of markup)', () => {
    const next = seededRandom(16);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const html = generate(next);
      if (!isSanitizedForm(html)) continue;
      accepted += 1;
      expect(sanitizeWithParser(html), html).toBe(html);
    }
    // The comparison above must have run often enough to mean something.
    expect(accepted).toBeGreaterThan(1_000);
  });

  it('gives the same result as the parser on the sanitizer corpus and on its own output', () => {
    for (const html of corpus) {
      const clean = sanitizeWithParser(html);
      expect(sanitizeDescription(html)).toBe(clean);
      expect(sanitizeDescription(clean)).toBe(clean);
    }
  });

  it('takes the plain markup of a typical supplier description', () => {
    const html =
      '<h2>The lunch box you will "actually" use</h2><p>Made from bamboo, with care.</p><ul>\n<li>Fits a 15.6" laptop</li>\n<li>Kitchen &amp; Co.</li>\n</ul>';
    expect(isSanitizedForm(html)).toBe(true);
    expect(sanitizeWithParser(html)).toBe(html);
  });

  it('reads tag names of one to ten characters, digits after the first', () => {
    const html = '<blockquote><h2>a</h2><figure><figcaption>b</figcaption></figure></blockquote><b>c</b><br />';
    expect(isSanitizedForm(html)).toBe(true);
    expect(sanitizeWithParser(html)).toBe(html);
  });

  it.each([
    ['a name longer than any allowed tag', '<blockquotes>a</blockquotes>'],
    ['an allowed name with more after it', '<blockquotexyz>a</blockquotexyz>'],
    ['an end tag that differs from its start tag in a digit', '<h2>a</h3>'],
    ['an end tag that differs from its start tag in the order of its letters', '<ul>a</lu>'],
    ['a name that starts with a digit', '<2p>a</2p>'],
    ['a tag without a name', '<>a</>'],
    ['an attribute', '<p class="x">a</p>'],
    ['a link, which gets target and rel', '<a>a</a>'],
    ['an image without a source', '<img />'],
    ['an unclosed element', '<p>a'],
    ['a misnested end tag', '<b><i>a</b></i>'],
    ['a block inside a paragraph', '<p><div>a</div></p>'],
    ['a list item closing another', '<ul><li>a<li>b</li></ul>'],
    ['a void element written <br>', 'a<br>b'],
    ['a bare ampersand', 'a & b'],
    ['a named entity other than &amp; &lt; &gt;', 'a&nbsp;b'],
    ['a greater-than sign in text', '3 > 2'],
    ['an upper-case tag', '<P>a</P>'],
    ['a comment', 'a<!-- b -->'],
  ])('leaves to the parser %s', (_, html) => {
    expect(isSanitizedForm(html)).toBe(false);
  });
});
