// A .tsx module, as every module of shared/src/ui/components (package.json's exports map './ui/components/*' to it).
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import {
  DESCRIPTION_ALLOWED_ATTRIBUTES,
  DESCRIPTION_ALLOWED_TAGS,
  DESCRIPTION_IMAGE_SCHEMES,
  DESCRIPTION_LINK_REL,
  DESCRIPTION_LINK_SCHEMES,
  DESCRIPTION_LINK_TARGET,
} from '../../domain/description-policy';
import { HOSTED_PICTURE_PATH } from '../../domain/pictures';

/**
 * The browser's half of the description policy (shared/src/domain/description-policy.ts): the
 * server already sanitized every description with the same lists, and the apps pass it through
 * DOMPurify once more before it becomes markup (SafeHtml loads this module as a chunk of its own). Only the allowlisted elements and, per element,
 * its allowlisted attributes survive; links keep only absolute http, https and mailto addresses
 * and always open in a new tab with rel="noopener noreferrer"; images keep only absolute http and
 * https sources (an image without one is removed).
 */

const LINK_PROTOCOLS: ReadonlySet<string> = new Set(DESCRIPTION_LINK_SCHEMES.map((scheme) => `${scheme}:`));
const IMAGE_PROTOCOLS: ReadonlySet<string> = new Set(DESCRIPTION_IMAGE_SCHEMES.map((scheme) => `${scheme}:`));

const ALL_ATTRIBUTES = [...new Set(Object.values(DESCRIPTION_ALLOWED_ATTRIBUTES).flat())];

const CONFIG: Config = {
  ALLOWED_TAGS: [...DESCRIPTION_ALLOWED_TAGS],
  ALLOWED_ATTR: ALL_ATTRIBUTES,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // DOMPurify checks every attribute value that is not plain text against this: DOMPurify's default
  // with only the policy's schemes (values without a scheme, such as "row" or "2", pass). The hook
  // below then keeps href and src only as absolute URLs with an allowed scheme.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  KEEP_CONTENT: true,
  WHOLE_DOCUMENT: false,
};

/** True for an absolute URL (as the browser parses it) whose scheme is in the set. */
function hasProtocol(value: string, protocols: ReadonlySet<string>): boolean {
  try {
    return protocols.has(new URL(value.trim()).protocol);
  } catch {
    return false;
  }
}

let purifier: Purifier | null = null;

/** One DOMPurify instance of our own, so its hooks never affect anyone else's. */
function getPurifier(): Purifier {
  if (purifier) return purifier;
  const instance = DOMPurify(window);
  instance.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const allowed = DESCRIPTION_ALLOWED_ATTRIBUTES[tag] ?? [];
    if (!allowed.includes(data.attrName)) {
      data.keepAttr = false;
      return;
    }
    if (tag === 'a' && data.attrName === 'href' && !hasProtocol(data.attrValue, LINK_PROTOCOLS)) data.keepAttr = false;
    // A picture is an absolute http(s) address, or our own copy (issue 28: /images/<sha256>/<width>.webp).
    if (
      tag === 'img' &&
      data.attrName === 'src' &&
      !hasProtocol(data.attrValue, IMAGE_PROTOCOLS) &&
      !HOSTED_PICTURE_PATH.test(data.attrValue)
    )
      data.keepAttr = false;
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    const tag = node.nodeName.toLowerCase();
    if (tag === 'a') {
      node.setAttribute('target', DESCRIPTION_LINK_TARGET);
      node.setAttribute('rel', DESCRIPTION_LINK_REL);
    } else if (tag === 'img' && !node.hasAttribute('src')) {
      // An image whose source was not allowed has nothing left to show (as DOMPurify removes
      // nodes itself during its walk).
      node.remove();
    }
  });
  purifier = instance;
  return instance;
}

/** A description as safe markup for innerHTML. */
export function sanitizeDescription(html: string): string {
  if (!html) return '';
  return getPurifier().sanitize(html, { ...CONFIG, RETURN_TRUSTED_TYPE: false });
}
