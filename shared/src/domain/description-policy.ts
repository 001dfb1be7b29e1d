/**
 * What a product's html_description may contain. The server sanitizes every imported
 * description to this allowlist (functions/src/lib/catalogue/sanitize.ts, on htmlparser2),
 * and the apps can hand the same lists to DOMPurify before rendering, so both sides agree.
 *
 * Deliberately absent: script, style, iframe, object, embed, form and input elements, SVG and
 * MathML, every event-handler attribute, `style`, `class` and `id` attributes (no CSS tricks, no
 * DOM clobbering), and every URL scheme other than the ones listed below.
 */

export const DESCRIPTION_ALLOWED_TAGS = [
  // text formatting
  'p',
  'br',
  'hr',
  'span',
  'div',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'strike',
  'del',
  'ins',
  'sub',
  'sup',
  'small',
  'mark',
  'blockquote',
  'pre',
  'code',
  // headings
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  // lists
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  // tables
  'table',
  'caption',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  // links and images
  'a',
  'img',
  'figure',
  'figcaption',
] as const;

export const DESCRIPTION_ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'target', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  ol: ['start', 'type', 'reversed'],
  li: ['value'],
  th: ['colspan', 'rowspan', 'scope', 'abbr'],
  td: ['colspan', 'rowspan'],
  col: ['span'],
  colgroup: ['span'],
};

/** Link targets: web pages and e-mail addresses. */
export const DESCRIPTION_LINK_SCHEMES = ['http', 'https', 'mailto'] as const;

/** Image sources: web addresses only (no data:, no relative paths). */
export const DESCRIPTION_IMAGE_SCHEMES = ['http', 'https'] as const;

/** Every link in a description opens in a new tab without handing the portal's window over. */
export const DESCRIPTION_LINK_TARGET = '_blank';
export const DESCRIPTION_LINK_REL = 'noopener noreferrer';
