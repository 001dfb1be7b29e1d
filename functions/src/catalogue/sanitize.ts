import type { Handler, ParserOptions } from 'htmlparser2';
// Not the package root: it re-exports DomUtils, and esbuild keeps dom-serializer's entity tables
// in the bundle although nothing uses them (+77 KiB minified). This entry holds only the Parser.
import { WritableStream } from 'htmlparser2/WritableStream';
import {
  DESCRIPTION_ALLOWED_ATTRIBUTES,
  DESCRIPTION_ALLOWED_TAGS,
  DESCRIPTION_IMAGE_SCHEMES,
  DESCRIPTION_LINK_REL,
  DESCRIPTION_LINK_SCHEMES,
  DESCRIPTION_LINK_TARGET,
} from '@portal/shared/domain/description-policy';

/**
 * The server-side sanitizer for a product's html_description: everything not on the allowlist
 * of shared/src/domain/description-policy.ts goes. Disallowed elements are removed but their
 * text is kept, except for elements whose content is code or hidden (script, style, iframe,
 * svg, ...), which are removed with their content. Links keep only absolute http, https and
 * mailto targets and always open in a new tab with rel="noopener noreferrer"; images keep only
 * absolute http and https sources, and an image left without a source is removed.
 *
 * It runs on htmlparser2's streaming Parser (parsing as browsers parse HTML, entities decoded)
 * and writes the output itself: only allowlisted tag and attribute names, every attribute value
 * double-quoted and escaped, every text escaped, void elements as `<br />`, every element closed,
 * comments, CDATA, processing instructions and doctypes dropped. The output is stable: it
 * sanitizes to itself.
 *
 * The apps sanitize again before rendering (DOMPurify); this pass means that what is stored is
 * already safe. If these rules change, bump CONTENT_HASH_VERSION in csv-product.ts so that a
 * re-import rewrites descriptions stored under the old rules.
 */

const PARSER_OPTIONS: ParserOptions = {
  xmlMode: false,
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
  recognizeSelfClosing: false,
  recognizeCDATA: false,
};

const ALLOWED_TAGS: ReadonlySet<string> = new Set(DESCRIPTION_ALLOWED_TAGS);

const ALLOWED_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(DESCRIPTION_ALLOWED_ATTRIBUTES).map(([tag, names]) => [tag, new Set(names)]),
);

const LINK_SCHEMES: ReadonlySet<string> = new Set(DESCRIPTION_LINK_SCHEMES);
const IMAGE_SCHEMES: ReadonlySet<string> = new Set(DESCRIPTION_IMAGE_SCHEMES);

/** Attributes holding a URL: kept only if absolute with an allowed scheme (images: IMAGE_SCHEMES). */
const URL_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'src', 'cite']);

/** Attributes every element of the tag gets with this value, whatever the input says. */
const FORCED_ATTRIBUTES: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map([
  [
    'a',
    new Map([
      ['target', DESCRIPTION_LINK_TARGET],
      ['rel', DESCRIPTION_LINK_REL],
    ]),
  ],
]);

/** Elements removed when they are left without this attribute. */
const REQUIRED_ATTRIBUTE: ReadonlyMap<string, string> = new Map([['img', 'src']]);

/** Attributes kept when empty, as `alt=""`; other empty attributes are dropped, except BOOLEAN_ATTRIBUTES. */
const EMPTY_VALUE_ATTRIBUTES: ReadonlySet<string> = new Set(['alt']);

/** Attributes whose presence is their value: kept when empty, written without a value. */
const BOOLEAN_ATTRIBUTES: ReadonlySet<string> = new Set(['reversed']);

/** Elements dropped together with everything inside them. */
const DROPPED_WITH_CONTENT: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'title',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
]);

/** HTML's void elements: no content and no end tag; written as `<br />`. */
const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

const P: ReadonlySet<string> = new Set(['p']);

/**
 * The open elements that htmlparser2 (and a browser) closes when one of these starts, for the
 * allowed tags (htmlparser2's openImpliesClose, restricted to DESCRIPTION_ALLOWED_TAGS). Applied
 * to the elements that are open in the output, so that an element dropped in between (a `<font>`
 * inside a `<p>`) cannot leave a `<div>` inside a `<p>` that would parse differently next time.
 */
const CLOSED_BY_START_TAG: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['li', new Set(['li'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag): [string, ReadonlySet<string>] => [tag, P]),
  ...['blockquote', 'div', 'dl', 'figcaption', 'figure', 'hr', 'ol', 'pre', 'table', 'ul'].map(
    (tag): [string, ReadonlySet<string>] => [tag, P],
  ),
]);

/** An element the parser has opened (outside dropped content) and not yet closed. */
interface Frame {
  name: string;
  /** Its start tag is in the output and its end tag is not yet. */
  open: boolean;
}

export function sanitizeDescription(html: string): string {
  return isSanitizedForm(html) ? html : sanitizeWithParser(html);
}

/** The sanitizer proper: htmlparser2 reads the description, and the output is written from its events. */
export function sanitizeWithParser(html: string): string {
  let out = '';
  /** Every element the parser has open outside dropped content, innermost last. */
  const frames: Frame[] = [];
  /** The frames open in the output, innermost last (a subsequence of `frames`). */
  const open: Frame[] = [];
  /** > 0 inside an element dropped with its content: the number of its elements still open. */
  let dropDepth = 0;

  /** Writes the end tag of the innermost element open in the output. */
  const closeInnermost = (): void => {
    const frame = open.pop()!;
    out += `</${frame.name}>`;
    frame.open = false;
  };

  parse(html, {
    onopentag(name, attribs) {
      if (dropDepth > 0 || (!ALLOWED_TAGS.has(name) && DROPPED_WITH_CONTENT.has(name))) {
        dropDepth += 1;
        return;
      }
      const attributes = ALLOWED_TAGS.has(name) ? attributesOf(name, attribs) : null;
      if (attributes === null) {
        // Removed, its content kept.
        frames.push({ name, open: false });
        return;
      }
      const closes = CLOSED_BY_START_TAG.get(name);
      while (closes && open.length > 0 && closes.has(open[open.length - 1]!.name)) closeInnermost();
      const isVoid = VOID_ELEMENTS.has(name);
      out += `<${name}${attributes}${isVoid ? ' />' : '>'}`;
      const frame = { name, open: !isVoid };
      frames.push(frame);
      if (frame.open) open.push(frame);
    },
    ontext(text) {
      if (dropDepth === 0) out += escapeText(text);
    },
    onclosetag() {
      // The parser closes its elements innermost first and each exactly once (void ones
      // right after their start tag, the ones left open at the end of the input), so the
      // innermost frame is the one closing.
      if (dropDepth > 0) {
        dropDepth -= 1;
        return;
      }
      const frame = frames.pop();
      while (frame?.open) closeInnermost();
    },
  });
  // The parser closed everything at the end; this only guards the well-formedness of the output.
  while (open.length > 0) closeInnermost();
  return out;
}

/** The three entities the sanitizer writes in text; htmlparser2 reads each back as its character. */
const WRITTEN_ENTITY = /&(?:amp|lt|gt);/y;
/** The allowed tags written as they come when they have no attributes (not `a`, which gets forced ones, nor `img`, which needs a source). */
const PLAIN_TAGS: readonly string[] = DESCRIPTION_ALLOWED_TAGS.filter(
  (tag) => !FORCED_ATTRIBUTES.has(tag) && !REQUIRED_ATTRIBUTE.has(tag),
);

/**
 * A tag name of a-z and 0-9 (not first) as a number: its characters as the digits of a base-37
 * number, least significant first (a-z are 1-26, 0-9 are 27-36, so no digit is 0 and every name
 * has its own number). Names of up to MAX_TAG_NAME characters stay below 37^10 < 2^53, so the
 * number is exact. The fast path reads a tag's name as this number while it scans, instead of
 * cutting the name out as a string and hashing it: no string per tag.
 */
const TAG_KEY_BASE = 37;
const MAX_TAG_NAME = 10;

function tagKeyDigit(code: number, first: boolean): number {
  if (code >= 0x61 && code <= 0x7a) return code - 0x60;
  if (!first && code >= 0x30 && code <= 0x39) return code - 0x30 + 27;
  return 0;
}

function tagKey(name: string): number {
  let key = 0;
  for (let at = name.length - 1; at >= 0; at -= 1)
    key = key * TAG_KEY_BASE + tagKeyDigit(name.charCodeAt(at), at === 0);
  return key;
}

/** What the fast path needs of a plain tag: whether it is void, and which open elements its start tag closes. */
interface PlainTag {
  isVoid: boolean;
  closes: ReadonlySet<number> | undefined;
}

/** PLAIN_TAGS by tagKey. */
const PLAIN_TAG_BY_KEY: ReadonlyMap<number, PlainTag> = new Map(
  PLAIN_TAGS.map((tag) => {
    if (tag.length > MAX_TAG_NAME)
      throw new Error(`The fast path reads tag names of at most ${MAX_TAG_NAME} characters`);
    const closes = CLOSED_BY_START_TAG.get(tag);
    return [
      tagKey(tag),
      { isVoid: VOID_ELEMENTS.has(tag), closes: closes && new Set([...closes].map(tagKey)) },
    ] as const;
  }),
);

/** What text may not hold as it is: the start of a tag or an entity, `>` and NUL. */
// eslint-disable-next-line no-control-regex
const SPECIAL = /[<&>\u0000]/g;
const LESS_THAN = 0x3c;
const SLASH = 0x2f;
const SPACE = 0x20;
const AMPERSAND = 0x26;
const GREATER_THAN = 0x3e;
const NUL = 0x00;

/**
 * True when `html` is already what the sanitizer would write for it, so that sanitizing it is
 * the identity (the fast path; most supplier descriptions are plain markup like
 * `<h2>…</h2><p>…</p><ul><li>…</li></ul>`). Conservative: it accepts only text without `>` and
 * NUL, whose only `&` start `&amp;`, `&lt;` or `&gt;`, and allowlisted tags without attributes,
 * void ones written `<br />`, properly nested, none of which the parser (or a browser) would
 * close implicitly (a `<div>` inside a `<p>`). Anything else, including every attribute, takes
 * the parser. sanitize.test.ts checks on generated markup that whatever it accepts the parser
 * gives back unchanged.
 */
export function isSanitizedForm(html: string): boolean {
  /** The keys (tagKey) of the elements open, innermost last. */
  const open: number[] = [];
  let at = 0;
  while (at < html.length) {
    const code = html.charCodeAt(at);
    if (code === LESS_THAN) {
      // `<name>`, `</name>` or `<name />`, read by hand: a regular expression's match arrays cost more.
      let end = at + 1;
      const closing = html.charCodeAt(end) === SLASH;
      if (closing) end += 1;
      const nameStart = end;
      let key = 0;
      let scale = 1;
      for (let digit = tagKeyDigit(html.charCodeAt(end), true); digit !== 0;) {
        // A longer name is no allowed tag (and its number would no longer be exact).
        if (end - nameStart === MAX_TAG_NAME) return false;
        key += digit * scale;
        scale *= TAG_KEY_BASE;
        end += 1;
        digit = tagKeyDigit(html.charCodeAt(end), false);
      }
      const selfClosing = html.charCodeAt(end) === SPACE && html.charCodeAt(end + 1) === SLASH;
      if (selfClosing) end += 2;
      const tag = html.charCodeAt(end) === GREATER_THAN ? PLAIN_TAG_BY_KEY.get(key) : undefined;
      if (tag === undefined) return false;
      if (closing) {
        if (selfClosing || tag.isVoid || open.pop() !== key) return false;
      } else {
        if (tag.isVoid !== selfClosing) return false;
        const innermost = open[open.length - 1];
        if (innermost !== undefined && tag.closes?.has(innermost)) return false;
        if (!tag.isVoid) open.push(key);
      }
      at = end + 1;
    } else if (code === AMPERSAND) {
      WRITTEN_ENTITY.lastIndex = at;
      if (!WRITTEN_ENTITY.test(html)) return false;
      at = WRITTEN_ENTITY.lastIndex;
    } else if (code === GREATER_THAN || code === NUL) {
      return false;
    } else {
      // Text: on to the next character that needs a look.
      // test, not exec: no match array for each run of text.
      SPECIAL.lastIndex = at;
      if (!SPECIAL.test(html)) break;
      at = SPECIAL.lastIndex - 1;
    }
  }
  return open.length === 0;
}

/**
 * Runs htmlparser2's Parser over the whole of `html`, synchronously. WritableStream is a thin
 * Node stream around a Parser: its _write hook is parser.write and its _final hook parser.end,
 * called here directly (a stream's end() would finish on a later tick).
 */
function parse(html: string, handler: Partial<Handler>): void {
  let ended = false;
  const onend = (): void => {
    ended = true;
  };
  const stream = new WritableStream({ ...handler, onend }, PARSER_OPTIONS);
  stream._write(html, 'utf8', noop);
  stream._final(noop);
  if (!ended) throw new Error('htmlparser2 did not parse the description synchronously');
}

function noop(): void {}

/**
 * The allowed attributes of an allowed element, each as ` name="value"`, in their order in the
 * input (the forced ones at their place, or appended); null if the element is to be removed.
 */
function attributesOf(tag: string, attribs: Readonly<Record<string, string>>): string | null {
  const allowed = ALLOWED_ATTRIBUTES.get(tag);
  const forced = FORCED_ATTRIBUTES.get(tag);
  const required = REQUIRED_ATTRIBUTE.get(tag);
  const written = new Set<string>();
  let out = '';
  const write = (name: string, value: string): void => {
    if (value !== '') out += ` ${name}="${escapeAttribute(value)}"`;
    else if (EMPTY_VALUE_ATTRIBUTES.has(name)) out += ` ${name}=""`;
    else if (BOOLEAN_ATTRIBUTES.has(name)) out += ` ${name}`;
    else return;
    written.add(name);
  };
  if (allowed) {
    for (const [name, given] of Object.entries(attribs)) {
      if (!allowed.has(name)) continue;
      const value = forced?.get(name) ?? given;
      if (URL_ATTRIBUTES.has(name) && !isAllowedUrl(value, tag === 'img' ? IMAGE_SCHEMES : LINK_SCHEMES)) continue;
      write(name, value);
    }
  }
  for (const [name, value] of forced ?? []) if (!written.has(name)) write(name, value);
  if (required !== undefined && !written.has(required)) return null;
  return out;
}

/**
 * True for an absolute URL whose scheme is in `schemes`, as a browser reads the attribute: its
 * entities are already decoded (by the parser; the output re-escapes `&`, so a browser decodes
 * the same value), and URL parsing ignores leading and trailing C0 controls and spaces and every
 * tab and newline (`java\tscript:` is `javascript:`). The scheme is checked a second time with
 * every control character and space removed, so no spelling of another scheme can pass.
 */
function isAllowedUrl(value: string, schemes: ReadonlySet<string>): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!schemes.has(url.protocol.slice(0, -1))) return false;
  // eslint-disable-next-line no-control-regex
  const written = /^([a-z][a-z\d+.-]*):/i.exec(value.replace(/[\u0000-\u0020\u007f]+/g, ''));
  return written !== null && schemes.has(written[1]!.toLowerCase());
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => ESCAPES[c]!);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
}
