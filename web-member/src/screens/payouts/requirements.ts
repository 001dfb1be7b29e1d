import type { UserProfile } from '@portal/shared/api/schemas';
import { errorSentence, requirementSentence } from '@portal/shared/domain/verification-words';

export { errorSentence, requirementSentence };

type PayoutAccountState = NonNullable<UserProfile['payoutAccount']>;

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
