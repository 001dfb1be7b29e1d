import { pictureSource, type HostedPicture } from './pictures';

/**
 * The `<img>` tags of a sanitized description (catalogue/sanitize.ts writes every tag itself:
 * attribute values double-quoted with `&`, `<`, `>` and `"` escaped, so a `>` inside a tag is
 * always the tag's end, and a `<img` in text is written `&lt;img`).
 */
const IMG_TAG = /<img\b[^>]*>/g;
const SRC_ATTRIBUTE = / src="([^"]*)"/;

const UNESCAPES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };
const unescapeAttribute = (value: string) => value.replace(/&(?:amp|lt|gt|quot);/g, (entity) => UNESCAPES[entity]!);

/** The addresses of a sanitized description's pictures, in order, each once. */
export function descriptionPictureAddresses(html: string): string[] {
  const addresses = new Set<string>();
  for (const tag of html.match(IMG_TAG) ?? []) {
    const src = SRC_ATTRIBUTE.exec(tag)?.[1];
    if (src !== undefined) addresses.add(unescapeAttribute(src));
  }
  return [...addresses];
}

/**
 * The description with each `<img>` pointing to our copy of its picture (the variant an `<img src>`
 * names, pictureSource), or left out when the picture was not hosted: no customer's browser asks
 * the supplier's host for anything (a tracking pixel, a dead host).
 */
/** A src that is our copy already (a description stored rewritten, before issue 38). */
const HOSTED_PATH = /^\/images\/[0-9a-f]{64}\/\d+\.webp$/;

export function rewriteDescriptionPictures(
  html: string,
  hosted: (address: string) => HostedPicture | undefined,
): string {
  if (!html.includes('<img')) return html;
  return html.replace(IMG_TAG, (tag) => {
    const src = SRC_ATTRIBUTE.exec(tag)?.[1];
    if (src !== undefined && HOSTED_PATH.test(src)) return tag;
    const picture = src === undefined ? undefined : hosted(unescapeAttribute(src));
    if (!picture) return '';
    const path = pictureSource(picture).src;
    return tag.replace(SRC_ATTRIBUTE, () => ` src="${path}"`);
  });
}
