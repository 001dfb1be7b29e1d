/**
 * Stripe's verification of a member's payout account in the member's words: the payout account
 * screen and the member's "Stripe could not verify your details" mail say the same sentences.
 */

/**
 * Stripe's requirement names (`requirements.currently_due`, `requirements.errors[].requirement`)
 * as a member reads them. A name not listed falls back to its last part in words.
 */
const REQUIREMENT: [prefix: string, sentence: string][] = [
  ['external_account', 'Add a debit card to be paid to.'],
  ['individual.verification.document', 'Stripe needs a photo of your ID document to confirm who you are.'],
  ['individual.verification.additional_document', 'Stripe needs a document that shows your address.'],
  ['individual.id_number', 'Stripe needs your full Social Security number.'],
  ['individual.ssn_last_4', 'Stripe needs the last four digits of your Social Security number.'],
  ['individual.dob', 'Stripe needs your date of birth.'],
  ['individual.first_name', 'Stripe needs your first name.'],
  ['individual.last_name', 'Stripe needs your last name.'],
  ['individual.address', 'Stripe needs your home address.'],
  ['individual.phone', 'Stripe needs your phone number.'],
  ['individual.email', 'Stripe needs your e-mail address.'],
  ['business_profile.url', 'Stripe needs the link to your public social profile.'],
  ['business_profile.mcc', 'Stripe needs to know what you sell.'],
  ['tos_acceptance', "Accept Stripe's Terms of Service."],
];

/** Stripe's verification error codes (`requirements.errors[].code`) in words. */
const ERROR_CODE: Record<string, string> = {
  verification_failed_keyed_identity:
    'Stripe could not confirm who you are from your name, date of birth and Social Security number. Check them for typing errors.',
  verification_failed_address_match: 'Stripe could not confirm your address. Check it for typing errors.',
  verification_failed_id_number_match: 'Your Social Security number does not match your name and date of birth.',
  verification_failed_name_match: 'Your name does not match the one on record for your Social Security number.',
  verification_failed_tax_id_match: 'Your Social Security number does not match your name.',
  verification_document_expired: 'The ID document you sent has expired. Send a current one.',
  verification_document_failed_greyscale: 'The ID document must be a color photo.',
  verification_document_not_readable: 'Stripe could not read the ID document. Send a clearer photo.',
  verification_document_name_mismatch: 'The name on your ID document does not match the name you gave.',
  verification_document_dob_mismatch: 'The date of birth on your ID document does not match the one you gave.',
  verification_failed_other: 'Stripe could not verify your details. Contact us so we can sort it out.',
};

/** A requirement's name (`individual.dob.day`) as a sentence. */
export function requirementSentence(requirement: string): string {
  const match = REQUIREMENT.find(([prefix]) => requirement === prefix || requirement.startsWith(`${prefix}.`));
  if (match) return match[1];
  const last = requirement.split('.').at(-1) ?? requirement;
  return `Stripe needs your ${last.replace(/_/g, ' ')}.`;
}

/** A verification error (its code, else its requirement) as a sentence. */
export function errorSentence(error: { requirement: string; code: string }): string {
  return ERROR_CODE[error.code] ?? requirementSentence(error.requirement);
}
