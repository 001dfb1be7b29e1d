// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseFragment, serialize, type DefaultTreeAdapterMap } from 'parse5';
import { describe, expect, it } from 'vitest';
import { sanitizeDescription as sanitizeInBrowser } from '@portal/shared/ui/components/sanitize-description';
import { sanitizeDescription as sanitizeOnServer } from './sanitize';

/**
 * One corpus of hostile and benign descriptions (test/fixtures/html/sanitizer-corpus.json) through
 * both sanitizers: the server's (stored text) and the apps' DOMPurify configuration (what is
 * rendered). The server's output is read back with parse5, a spec-compliant HTML parser, in the
 * context the apps put it in (a <div>'s innerHTML).
 */
interface CorpusItem {
  kind: 'hostile' | 'benign';
  name: string;
  html: string;
  /**
   * Where DOMPurify's DOM is not the server's, why, and what DOMPurify gives instead: for the
   * raw text (`raw`), and for the stored text when it differs there too (`stored`).
   */
  dompurifyDiffers?: { why: string; raw: string; stored?: string };
}

const corpus = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../test/fixtures/html/sanitizer-corpus.json'), 'utf8'),
) as CorpusItem[];

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];

/** A <div> of a parsed document: the context a description is parsed in (innerHTML of a div). */
const context = (() => {
  const document = parse('<!DOCTYPE html><html><head></head><body><div></div></body></html>');
  const html = document.childNodes.find((node) => node.nodeName === 'html') as Element;
  const body = html.childNodes.find((node) => node.nodeName === 'body') as Element;
  return body.childNodes[0] as Element;
})();

const fragmentOf = (html: string) => parseFragment(context, html, {});

/**
 * The DOM as a plain value: elements with their attributes (sorted: order carries no meaning),
 * and text. Adjacent texts are merged, as the DOM normalizes them.
 */
type Tree = (string | { tag: string; attributes: Record<string, string>; children: Tree })[];
function treeOf(nodes: readonly Node[]): Tree {
  const tree: Tree = [];
  for (const node of nodes) {
    if (node.nodeName === '#text') {
      const text = (node as DefaultTreeAdapterMap['textNode']).value;
      const last = tree.at(-1);
      if (typeof last === 'string') tree[tree.length - 1] = last + text;
      else tree.push(text);
    } else if (node.nodeName === '#comment') {
      tree.push({ tag: '#comment', attributes: {}, children: [] });
    } else {
      const element = node as Element;
      const attributes = Object.fromEntries(
        element.attrs.map((attr) => [attr.name, attr.value] as const).sort(([a], [b]) => a.localeCompare(b)),
      );
      tree.push({ tag: element.tagName, attributes, children: treeOf(element.childNodes) });
    }
  }
  return tree;
}
const domOf = (html: string): Tree => treeOf(fragmentOf(html).childNodes);

/**
 * How HTML serializers write what the server writes otherwise, both meaning the same to a parser:
 * a void element as `<br>` (the server writes `<br />`), a boolean attribute as `reversed=""`
 * (the server writes `reversed`), a no-break space as `&nbsp;` (the server writes the character).
 */
const asHtmlSerializerWrites = (serverHtml: string) =>
  serverHtml
    .replace(/ \/>/g, '>')
    .replace(/ reversed(?=[ >])/g, ' reversed=""')
    .replace(/\u00a0/g, '&nbsp;');

/** Every element and attribute in a tree, to check nothing outside the policy survived. */
function* elementsOf(tree: Tree): Generator<{ tag: string; attributes: Record<string, string> }> {
  for (const node of tree) {
    if (typeof node === 'string') continue;
    yield node;
    yield* elementsOf(node.children);
  }
}

describe('the sanitizer corpus', () => {
  it('holds hostile and benign descriptions', () => {
    expect(corpus.filter((item) => item.kind === 'hostile').length).toBeGreaterThanOrEqual(20);
    expect(corpus.filter((item) => item.kind === 'benign').length).toBeGreaterThanOrEqual(8);
    expect(new Set(corpus.map((item) => item.name)).size).toBe(corpus.length);
  });
});

describe.each(corpus)('$kind: $name', ({ kind, html, dompurifyDiffers }) => {
  const server = sanitizeOnServer(html);

  it("the server's output is well-formed: parse5 reads it and writes the same text back", () => {
    expect(serialize(fragmentOf(server))).toBe(asHtmlSerializerWrites(server));
  });

  it("the server's output is stable: sanitizing it again changes nothing", () => {
    expect(sanitizeOnServer(server)).toBe(server);
  });

  it('DOMPurify, as the apps configure it, leaves the stored text as it is (the DOM the apps render)', () => {
    expect(domOf(sanitizeInBrowser(server))).toEqual(domOf(dompurifyDiffers?.stored ?? server));
  });

  it('DOMPurify on the raw text gives the same DOM as the server, or the explained difference', () => {
    const dompurify = domOf(sanitizeInBrowser(html));
    if (!dompurifyDiffers) {
      expect(dompurify).toEqual(domOf(server));
      return;
    }
    expect(dompurifyDiffers.why).not.toBe('');
    expect(dompurify).toEqual(domOf(dompurifyDiffers.raw));
    // A recorded difference that went away is stale: remove it from the corpus.
    expect(dompurify).not.toEqual(domOf(server));
  });

  it('nothing outside the policy survives', () => {
    for (const element of elementsOf(domOf(server))) {
      expect(element.tag).not.toMatch(/^(script|style|iframe|svg|math|object|embed|form|input|meta|base|#comment)$/);
      for (const [name, value] of Object.entries(element.attributes)) {
        expect(name).not.toMatch(/^(on|style$|class$|id$|data-|name$)/);
        if (name === 'href' || name === 'src') expect(value).toMatch(/^(https?:|mailto:)/);
      }
    }
    if (kind === 'benign') expect(domOf(server).length).toBeGreaterThan(0);
  });
});
