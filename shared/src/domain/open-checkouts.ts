/**
 * What a ban or a withdrawal did to the product's checkouts not yet paid (the answer's
 * `openCheckouts`), as the admin's notice says it; empty when there were none.
 */
export function openCheckoutsWords(
  open: { cancelled: number; notCancelled: number; more: boolean } | undefined,
): string {
  if (!open) return '';
  const parts: string[] = [];
  if (open.cancelled > 0) {
    parts.push(
      open.cancelled === 1
        ? 'Its one unpaid checkout was cancelled at Stripe.'
        : `Its ${open.cancelled} unpaid checkouts were cancelled at Stripe.`,
    );
  }
  if (open.notCancelled > 0 || open.more) {
    parts.push(
      'Some unpaid checkouts could not be cancelled now: if one is paid, its order is flagged and its commission held for review.',
    );
  }
  return parts.join(' ');
}
