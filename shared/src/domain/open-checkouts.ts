/** The cancelling of a banned or withdrawn product's unpaid checkouts (the API's CheckoutCancels). */
export interface CheckoutCancelCounts {
  total: number;
  cancelled: number;
  paid: number;
  notCancelled: number;
  done: boolean;
}

const n = (value: number) => value.toLocaleString('en-US');

/**
 * What a ban or a withdrawal does to the product's checkouts not yet paid, as the admin's notice
 * says it while they are cancelled ("Cancelling 1,000 open checkouts… 400 cancelled") and once
 * they are; empty when there were none.
 */
export function openCheckoutsWords(open: CheckoutCancelCounts | undefined): string {
  if (!open || open.total === 0) return '';
  const total = `${n(open.total)} open checkout${open.total === 1 ? '' : 's'}`;
  if (!open.done) {
    return `Cancelling ${total} at Stripe… ${n(open.cancelled)} cancelled so far.`;
  }
  const parts = [`${total}: ${n(open.cancelled)} cancelled at Stripe.`];
  if (open.paid > 0) {
    parts.push(
      open.paid === 1
        ? '1 was paid before it could be cancelled: its order is flagged and its commission held for review.'
        : `${n(open.paid)} were paid before they could be cancelled: their orders are flagged and their commissions held for review.`,
    );
  }
  if (open.notCancelled > 0) {
    parts.push(
      `${n(open.notCancelled)} could not be cancelled at Stripe: if one is paid, its order is flagged and its commission held for review.`,
    );
  }
  // Paid through the sale, or expired, between the ban's count and their turn.
  const ended = open.total - open.cancelled - open.paid - open.notCancelled;
  if (ended > 0) {
    parts.push(
      `${n(ended)} ended by ${ended === 1 ? 'itself' : 'themselves'} meanwhile: a paid one's order is flagged.`,
    );
  }
  return parts.join(' ');
}
