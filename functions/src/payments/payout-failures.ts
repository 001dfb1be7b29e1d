/**
 * Stripe's payout failure codes (docs.stripe.com/api/payouts/failures) in words a member can act
 * on: what the bank said, without Stripe's jargon. A code not listed keeps Stripe's own message.
 */
const PAYOUT_FAILURE_WORDS: Record<string, string> = {
  account_closed: 'the account behind your card is closed',
  account_frozen: 'the account behind your card is frozen',
  bank_account_restricted: 'your bank limits the payouts your card can take',
  bank_ownership_changed: 'your bank changed owner and no longer takes payouts to this card',
  could_not_process: 'your bank could not process it',
  debit_not_authorized: 'your bank does not allow this payout to your card',
  declined: 'your bank declined it',
  incorrect_account_holder_address: 'the address your bank has for you does not match',
  incorrect_account_holder_name: 'the name your bank has for you does not match',
  incorrect_account_holder_tax_id: 'the tax ID your bank has for you does not match',
  invalid_account_number: 'your bank says the card number is not valid',
  invalid_currency: 'your card cannot take US dollars',
  no_account: 'your bank could not find the account behind your card',
  unsupported_card: 'your bank no longer supports payouts to this card',
};

/** Why a payout failed, in words (lower case, no final period: it follows "failed: "). */
export function payoutFailureWords(code: string | null | undefined, message: string | null | undefined): string {
  const known = code ? PAYOUT_FAILURE_WORDS[code] : undefined;
  if (known) return known;
  const text = (message ?? code ?? '').trim().replace(/\.+$/, '');
  return text ? text.charAt(0).toLowerCase() + text.slice(1) : 'Stripe gave no reason';
}
