import sanitizeHtml from 'sanitize-html';
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
 * The apps sanitize again before rendering (DOMPurify); this pass means that what is stored is
 * already safe. If these rules change, bump CONTENT_HASH_VERSION in csv-product.ts so that a
 * re-import rewrites descriptions stored under the old rules.
 */

const LINK_PROTOCOLS: ReadonlySet<string> = new Set(DESCRIPTION_LINK_SCHEMES.map((scheme) => `${scheme}:`));
const IMAGE_PROTOCOLS: ReadonlySet<string> = new Set(DESCRIPTION_IMAGE_SCHEMES.map((scheme) => `${scheme}:`));

/** Elements dropped together with everything inside them. */
const DROPPED_WITH_CONTENT = [
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
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...DESCRIPTION_ALLOWED_TAGS],
  allowedAttributes: Object.fromEntries(
    Object.entries(DESCRIPTION_ALLOWED_ATTRIBUTES).map(([tag, attributes]) => [tag, [...attributes]]),
  ),
  allowedSchemes: [...DESCRIPTION_LINK_SCHEMES],
  allowedSchemesByTag: { img: [...DESCRIPTION_IMAGE_SCHEMES] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  parseStyleAttributes: false,
  transformTags: { a: transformLink, img: transformImage },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

function transformLink(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const kept = withoutUnsafeUrl(attribs, 'href', LINK_PROTOCOLS);
  return { tagName, attribs: { ...kept, target: DESCRIPTION_LINK_TARGET, rel: DESCRIPTION_LINK_REL } };
}

function transformImage(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  return { tagName, attribs: withoutUnsafeUrl(attribs, 'src', IMAGE_PROTOCOLS) };
}

/** The attributes in their order, minus `name` unless it holds an absolute URL with an allowed scheme. */
function withoutUnsafeUrl(
  attribs: sanitizeHtml.Attributes,
  name: string,
  protocols: ReadonlySet<string>,
): sanitizeHtml.Attributes {
  const value = attribs[name];
  if (value === undefined || hasProtocol(value, protocols)) return attribs;
  return Object.fromEntries(Object.entries(attribs).filter(([key]) => key !== name));
}

/** True for an absolute URL (as a browser would parse it) whose scheme is in the set. */
function hasProtocol(value: string, protocols: ReadonlySet<string>): boolean {
  try {
    return protocols.has(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
}
