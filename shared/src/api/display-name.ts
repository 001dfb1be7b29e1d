/**
 * The rules of a display name, the name customers read as "Recommended by …" (issue 35). A name is
 * normalised first (NFKC: a full-width "＠" becomes "@", compatibility letters their plain forms,
 * odd spaces a space) and every rule runs on that form, which is the one stored: a name can't pass
 * a rule in one spelling and be shown in another.
 *
 * Refused: control characters (Unicode Cc), line and paragraph separators, the direction controls
 * (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C: a right-to-left override turns "Maya"
 * into a name that reads otherwise) and every other invisible format character (Cf), except the
 * zero-width joiner and non-joiner, which emoji sequences and several scripts need to be written.
 */

export const DISPLAY_NAME_MAX = 40;
export const DISPLAY_NAME_NO_EMAIL = "A display name can't be an e-mail address: customers see it.";
export const DISPLAY_NAME_CONTROL = "The display name can't contain control or direction characters.";

/** The direction controls by name (all of them are Cf; listed so that a reader sees they are covered). */
const DIRECTION = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** Control, separator and format characters, the two joiners aside. */
const INVISIBLE = /[\p{Cc}\p{Zl}\p{Zp}\p{Cf}]/u;
const JOINERS = /[\u200C\u200D]/gu;

/** The stored form of a display name: NFKC, without surrounding white space. */
export function normaliseDisplayName(value: string): string {
  return value.normalize('NFKC').trim();
}

/** Why a (normalised) display name is refused, or undefined when it is fine. */
export function displayNameProblem(normalised: string): string | undefined {
  if (DIRECTION.test(normalised) || INVISIBLE.test(normalised.replace(JOINERS, ''))) return DISPLAY_NAME_CONTROL;
  if (normalised.includes('@')) return DISPLAY_NAME_NO_EMAIL;
  return undefined;
}
