import type { UserProfile } from '@portal/shared/api/schemas';

type PayoutAccountState = NonNullable<UserProfile['payoutAccount']>;

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

export function requirementSentence(requirement: string): string {
  const match = REQUIREMENT.find(([prefix]) => requirement === prefix || requirement.startsWith(`${prefix}.`));
  if (match) return match[1];
  const last = requirement.split('.').at(-1) ?? requirement;
  return `Stripe needs your ${last.replace(/_/g, ' ')}.`;
}

export function errorSentence(error: { requirement: string; code: string }): string {
  return ERROR_CODE[error.code] ?? requirementSentence(error.requirement);
}

/** The groups of details a member can correct on the payout account screen, sent whole to Stripe. */
export type CorrectionGroup = 'name' | 'dob' | 'address' | 'tax_id';

/** Which groups each error code asks to correct (Stripe's keyed identity is the name, date of birth and SSN). */
const GROUPS_OF_CODE: Record<string, CorrectionGroup[]> = {
  verification_failed_keyed_identity: ['name', 'dob', 'tax_id'],
  verification_failed_address_match: ['address'],
  verification_failed_id_number_match: ['name', 'dob', 'tax_id'],
  verification_failed_name_match: ['name', 'tax_id'],
  verification_failed_tax_id_match: ['name', 'tax_id'],
  verification_document_name_mismatch: ['name'],
  verification_document_dob_mismatch: ['dob'],
};

/** Which group a requirement's name falls in (`individual.dob.day` → dob), if a typed detail fixes it. */
function groupOfRequirement(requirement: string): CorrectionGroup | undefined {
  if (requirement.startsWith('individual.first_name') || requirement.startsWith('individual.last_name')) return 'name';
  if (requirement.startsWith('individual.dob')) return 'dob';
  if (requirement.startsWith('individual.address')) return 'address';
  if (requirement.startsWith('individual.id_number') || requirement.startsWith('individual.ssn_last_4'))
    return 'tax_id';
  return undefined;
}

const GROUP_ORDER: CorrectionGroup[] = ['name', 'dob', 'address', 'tax_id'];

/** The groups to correct, from `requirements.errors` (their codes) and what is due or past due. */
export function correctionGroups(state: PayoutAccountState): CorrectionGroup[] {
  const groups = new Set<CorrectionGroup>();
  for (const error of state.errors ?? []) {
    for (const group of GROUPS_OF_CODE[error.code] ?? []) groups.add(group);
    const own = groupOfRequirement(error.requirement);
    if (own) groups.add(own);
  }
  for (const requirement of state.requirementsDue) {
    const group = groupOfRequirement(requirement);
    if (group) groups.add(group);
  }
  return GROUP_ORDER.filter((group) => groups.has(group));
}

export type PayoutAccountView =
  { kind: 'verifying' } | { kind: 'needs'; sentences: string[]; groups: CorrectionGroup[] } | { kind: 'ready' };

/**
 * What the payout account screen says of the account: "Verifying" while Stripe checks it
 * (`transfers` pending), every error and requirement in words with the details to correct
 * ("Needs attention"), or ready.
 */
export function payoutAccountView(state: PayoutAccountState | undefined, cardAdded: boolean): PayoutAccountView {
  if (!state) return { kind: 'ready' };
  const sentences = [
    ...(state.errors ?? []).map(errorSentence),
    ...state.requirementsDue
      // The card is added on its own page: once it is, Stripe's list may lag behind.
      .filter((name) => !(cardAdded && name === 'external_account'))
      .filter((name) => !(state.errors ?? []).some((error) => error.requirement === name))
      .map(requirementSentence),
  ];
  const unique = sentences.filter((sentence, index) => sentences.indexOf(sentence) === index);
  // A card alone is not "Stripe could not verify your details": the Payout Methods page asks for it
  // (with its own badge), and the account reads "verified, add a debit card".
  const onlyTheCard =
    !(state.errors ?? []).length && state.requirementsDue.every((name) => name === 'external_account');
  if (unique.length && !onlyTheCard) return { kind: 'needs', sentences: unique, groups: correctionGroups(state) };
  if (state.transfers === 'pending' || (state.pendingVerification ?? []).length > 0) return { kind: 'verifying' };
  return { kind: 'ready' };
}
