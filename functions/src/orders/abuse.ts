import type { ProductStatus } from '@portal/shared/domain/product-status';
import { SELF_PURCHASE_METADATA, SELF_PURCHASE_SESSION } from '../payments/checkout-metadata';

/**
 * The money rules' abuse section (issue 27): a member buying through their own share link, and a
 * payment that went through for a product banned or withdrawn before it was paid. Pure rules; the
 * sale recorder (record-sale.ts) applies them to the commission and the order it writes.
 */

/** Why a commission is held for an admin's review without a dispute: the admin may release or cancel it. */
export type HeldFor = 'self_purchase' | 'banned_product';

/**
 * An e-mail address as one person's mailbox: trimmed and lower-cased; the `+tag` of the local part
 * dropped (sub-addressing, RFC 5233: Gmail, Outlook, iCloud, Fastmail and Yahoo's `-` aside all
 * deliver `ann+shop@x` to `ann@x`); and for Gmail only, whose documentation says dots in the local
 * part are ignored, the dots, with `googlemail.com` as `gmail.com`. A wrong match costs a review
 * (the default setting), not money: see docs/decisions/0200.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

export type SelfPurchase = 'same-email' | 'own-session';

/** Whether the member bought through their own link: the buyer's mailbox is theirs, or their session made the checkout. */
export function selfPurchaseOf(
  memberEmail: string,
  customerEmail: string,
  metadata: Record<string, string> | undefined,
): SelfPurchase | undefined {
  if (customerEmail.trim() && mailboxOf(customerEmail) === mailboxOf(memberEmail)) return 'same-email';
  if (metadata?.[SELF_PURCHASE_METADATA] === SELF_PURCHASE_SESSION) return 'own-session';
  return undefined;
}

const HOW: Record<SelfPurchase, string> = {
  'same-email': 'same e-mail',
  'own-session': "from the member's own session",
};

/** Held for review: the reason the admin and the member read ("Held for review: …"). */
export const selfPurchaseReview = (how: SelfPurchase): string => `Bought through own link (${HOW[how]})`;
/** No commission (SELF_PURCHASE=no_commission): the reason on the cancelled commission. */
export const selfPurchaseNoCommission = (how: SelfPurchase): string =>
  `No commission: bought through own link (${HOW[how]})`;

/** The order's flag and the held commission's reason when the product was banned or withdrawn before the payment. */
export const bannedBeforePayment = (status: Extract<ProductStatus, 'banned' | 'withdrawn'>): string =>
  status === 'banned' ? 'Product was banned before payment' : 'Product was withdrawn before payment';

export const isOffSale = (status: ProductStatus | undefined): status is 'banned' | 'withdrawn' =>
  status === 'banned' || status === 'withdrawn';
