import { disputeWords } from '@portal/shared/domain/disputes';
import { formatMoney } from '@portal/shared/domain/format';
import type { OutgoingMail } from './mailer';

/**
 * Every mail the portal sends about orders and money, in one module: each template takes the
 * facts (never a stored item) and answers the plain text and the HTML of the same message.
 * Every value put into the HTML goes through `escapeHtml`, attribute values included, so a
 * customer's name, a product name or a carrier name typed by an admin cannot add markup; links
 * are ours (SITE_URL) or a carrier's, and an address that is not http(s) is never made a link.
 * The plain text carries values as they are (a mail client shows it as text).
 */

const PORTAL = 'Reseller Portal';

/** Text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A day as a mail says it, in UTC (the portal's dates are UTC): 'December 10, 2026'. */
export function mailDate(iso: string | number): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return date.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
}

/** An http(s) address, or null: nothing else becomes a link. */
function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

type Line = string | { label: string; value: string };
interface Body {
  greeting: string;
  paragraphs: string[];
  facts?: { label: string; value: string }[];
  /** The mail's one button, and the address written out under it. */
  action?: { label: string; url: string };
  /** Extra links (a carrier's tracking page). */
  links?: { label: string; url: string }[];
  footer: string;
}

function render(to: string, subject: string, body: Body, link?: { label: string; url: string }): OutgoingMail {
  const action = body.action && safeUrl(body.action.url) ? { ...body.action, url: safeUrl(body.action.url)! } : null;
  const links = (body.links ?? []).flatMap((entry) => {
    const url = safeUrl(entry.url);
    return url ? [{ label: entry.label, url }] : [];
  });
  const text: Line[] = [body.greeting, '', ...body.paragraphs.flatMap((p) => [p, ''])];
  for (const fact of body.facts ?? []) text.push(`${fact.label}: ${fact.value}`);
  if (body.facts?.length) text.push('');
  if (action) text.push(`${action.label}:`, action.url, '');
  for (const entry of links) text.push(`${entry.label}: ${entry.url}`);
  if (links.length) text.push('');
  text.push(body.footer, '', `— ${PORTAL}`);

  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;line-height:1.5;margin:0;padding:16px">',
    '<div style="max-width:560px;margin:0 auto">',
    `<p>${escapeHtml(body.greeting)}</p>`,
    ...body.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(body.facts?.length
      ? [
          '<table role="presentation" style="border-collapse:collapse;margin:8px 0 16px">',
          ...body.facts.map(
            (fact) =>
              `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;color:#52606d;font-weight:normal">${escapeHtml(fact.label)}</th><td style="padding:4px 0">${escapeHtml(fact.value)}</td></tr>`,
          ),
          '</table>',
        ]
      : []),
    ...(action
      ? [
          `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`,
          `<p style="color:#52606d;font-size:14px">Or copy this address into your browser: ${escapeHtml(action.url)}</p>`,
        ]
      : []),
    ...links.map((entry) => `<p><a href="${escapeHtml(entry.url)}">${escapeHtml(entry.label)}</a></p>`),
    `<p style="color:#52606d;font-size:14px">${escapeHtml(body.footer)}</p>`,
    `<p style="color:#52606d;font-size:14px">— ${PORTAL}</p>`,
    '</div></body></html>',
  ].join('\n');
  const printed = link ?? (action ? { label: action.label, url: action.url } : undefined);
  return { to, subject, text: text.join('\n'), html, ...(printed ? { link: printed } : {}) };
}

const hello = (name: string | null | undefined) => (name?.trim() ? `Hello ${name.trim()},` : 'Hello,');

export interface ReceiptFacts {
  to: string;
  customerName: string;
  orderID: string;
  productName: string;
  qty: number;
  totalCents: number;
  placedAt: string;
  /** The order's page (a link with its own token). */
  orderUrl: string;
}

/** The customer's receipt: the order number and the link to follow the order. */
export function receiptMail(facts: ReceiptFacts): OutgoingMail {
  return render(
    facts.to,
    `Your order ${facts.orderID}: thank you`,
    {
      greeting: hello(facts.customerName),
      paragraphs: [
        'Thank you for your order. We have received your payment and will let you know when it ships.',
        'Keep this mail: the link below shows where your order is, at any time, without an account.',
      ],
      facts: [
        { label: 'Order number', value: facts.orderID },
        { label: 'Ordered on', value: mailDate(facts.placedAt) },
        { label: 'Product', value: facts.productName },
        { label: 'Quantity', value: String(facts.qty) },
        { label: 'Total paid', value: formatMoney(facts.totalCents) },
      ],
      action: { label: 'Follow your order', url: facts.orderUrl },
      footer:
        'Anyone with this link can see the steps of this order and its tracking number, and nothing else. Quote your order number if you write to us.',
    },
    { label: `Order page link (receipt ${facts.orderID})`, url: facts.orderUrl },
  );
}

export interface ShippedFacts {
  to: string;
  customerName: string;
  orderID: string;
  productName: string;
  /** The carrier's name as the customer reads it (USPS, UPS, FedEx, DHL, or the admin's words). */
  carrier: string | null;
  trackingNumber: string | null;
  /** The carrier's tracking page, for a carrier the portal knows. */
  trackingUrl: string | null;
  orderUrl: string;
}

/** The customer's shipping mail: the carrier and tracking number, with the carrier's page where known. */
export function shippedMail(facts: ShippedFacts): OutgoingMail {
  const tracked = facts.carrier && facts.trackingNumber;
  return render(
    facts.to,
    `Your order ${facts.orderID} has shipped`,
    {
      greeting: hello(facts.customerName),
      paragraphs: [
        `Your order ${facts.orderID} (${facts.productName}) is on its way.`,
        tracked
          ? facts.trackingUrl
            ? `${facts.carrier} carries it: follow the parcel on ${facts.carrier}'s site with the tracking number below.`
            : `${facts.carrier} carries it: look the tracking number below up on the carrier's site.`
          : 'This parcel was sent without a tracking number, so there is no carrier page to follow it on. Your order page below shows when it is delivered.',
      ],
      facts: tracked
        ? [
            { label: 'Carrier', value: facts.carrier! },
            { label: 'Tracking number', value: facts.trackingNumber! },
          ]
        : [],
      action: { label: 'Follow your order', url: facts.orderUrl },
      links: facts.trackingUrl ? [{ label: `Track the parcel at ${facts.carrier}`, url: facts.trackingUrl }] : [],
      footer: 'Anyone with this link can see the steps of this order and its tracking number, and nothing else.',
    },
    { label: `Order page link (shipped ${facts.orderID})`, url: facts.orderUrl },
  );
}

export interface SaleFacts {
  to: string;
  orderID: string;
  productName: string;
  qty: number;
  commissionCents: number;
  /** When the commission becomes available (fulfilment + the hold), once the order is fulfilled. */
  availableAt: string | null;
  holdDays: number;
  /** My Account, where the member turns this mail off. */
  settingsUrl: string;
}

/** The member's "you made a sale", with the commission and when it becomes available. */
export function saleMail(facts: SaleFacts): OutgoingMail {
  const when = facts.availableAt
    ? `It becomes available on ${mailDate(facts.availableAt)}.`
    : facts.holdDays === 0
      ? 'It becomes available as soon as the order is delivered.'
      : `It becomes available ${facts.holdDays} day${facts.holdDays === 1 ? '' : 's'} after the order is delivered.`;
  return render(facts.to, `You made a sale: ${formatMoney(facts.commissionCents)} commission`, {
    greeting: 'Hello,',
    paragraphs: [
      `Someone bought through your share link. You earn ${formatMoney(facts.commissionCents)} on this sale.`,
      when,
    ],
    facts: [
      { label: 'Order number', value: facts.orderID },
      { label: 'Product', value: facts.productName },
      { label: 'Quantity', value: String(facts.qty) },
      { label: 'Your commission', value: formatMoney(facts.commissionCents) },
    ],
    action: { label: 'See your commissions', url: facts.settingsUrl },
    footer: 'You get this mail for each sale. Turn it off on My Account, under "E-mails".',
  });
}

export interface PayoutSentFacts {
  to: string;
  /** What reaches the card. */
  amountCents: number;
  /** The one order it pays (a commission's own payout), or null for a batch's. */
  orderID: string | null;
  /** How many commissions it pays (a batch's payout), when more than one. */
  commissionCount?: number;
  /** Stripe's `arrival_date` (epoch ms), when known. */
  arrivalDate?: number | null;
  /** `instant` or `standard`, when known. */
  method?: string | null;
  settingsUrl: string;
}

/** The member's "your payout is on its way": the amount and when the bank should show it. */
export function payoutSentMail(facts: PayoutSentFacts): OutgoingMail {
  const arrival = facts.arrivalDate
    ? `It should reach your card by ${mailDate(facts.arrivalDate)}.`
    : 'Your bank usually shows it within 30 minutes for an instant payout, or within a few business days otherwise.';
  const many = facts.commissionCount && facts.commissionCount > 1 ? facts.commissionCount : 0;
  return render(facts.to, `Your payout of ${formatMoney(facts.amountCents)} is on its way`, {
    greeting: 'Hello,',
    paragraphs: [
      `We have paid ${formatMoney(facts.amountCents)}${many ? ` for ${many} commissions` : ''} out to your debit card. ${arrival}`,
    ],
    facts: [
      { label: 'Amount', value: formatMoney(facts.amountCents) },
      ...(facts.arrivalDate ? [{ label: 'Expected by', value: mailDate(facts.arrivalDate) }] : []),
      ...(facts.method ? [{ label: 'Payout', value: facts.method === 'instant' ? 'Instant' : 'Standard' }] : []),
      ...(facts.orderID ? [{ label: 'For order', value: facts.orderID }] : []),
      ...(many ? [{ label: 'Commissions', value: String(many) }] : []),
    ],
    action: { label: 'See your commissions', url: facts.settingsUrl },
    footer: 'You get this mail for each payout. Turn it off on My Account, under "E-mails".',
  });
}

export interface PayoutFailedFacts {
  to: string;
  memberEmail: string;
  amountCents: number | null;
  failure: string;
  payoutId: string;
  orderID: string | null;
  adminUrl: string;
}

/** The admins' "a payout failed": who, how much, Stripe's reason, and where to pay it again. */
export function payoutFailedMail(facts: PayoutFailedFacts): OutgoingMail {
  return render(
    facts.to,
    `A payout failed${facts.amountCents !== null ? `: ${formatMoney(facts.amountCents)}` : ''} to ${facts.memberEmail}`,
    {
      greeting: 'Hello,',
      paragraphs: [
        `Stripe could not pay a commission out to ${facts.memberEmail}'s debit card. The commission is back in the member's Stripe balance, to be paid again once the cause is fixed.`,
      ],
      facts: [
        { label: 'Member', value: facts.memberEmail },
        ...(facts.amountCents !== null ? [{ label: 'Amount', value: formatMoney(facts.amountCents) }] : []),
        { label: "Stripe's reason", value: facts.failure },
        ...(facts.orderID ? [{ label: 'Order', value: facts.orderID }] : []),
        { label: 'Payout', value: facts.payoutId },
      ],
      action: { label: 'Open the commissions to pay', url: facts.adminUrl },
      footer: 'You get this mail because you are an administrator of the portal.',
    },
  );
}

/** A refund that failed at Stripe after the portal applied it (`refund.failed`). */
export interface RefundFailedFacts {
  refundId: string;
  orderID: string;
  amountCents: number;
  /** Why, in words (refunds.ts refundFailureWords). */
  failure: string;
  /** The order's refunded total after it, and what was paid. */
  refundedCents: number;
  totalCents: number;
  /** What happened to the commission, in words. */
  commission: string;
  /** The admin's work list the order is back in (it left it when the refund made it refunded in full), by its title. */
  backInList?: string | null;
}

/** The admins' "a refund failed": the customer did not get the money back; what it means and what to do. */
export function refundFailedMail(to: string, facts: RefundFailedFacts, adminUrl: string): OutgoingMail {
  return render(to, `A refund failed: ${formatMoney(facts.amountCents)} on order ${facts.orderID}`, {
    greeting: 'Hello,',
    paragraphs: [
      `Stripe could not refund ${formatMoney(facts.amountCents)} of order ${facts.orderID}: ${facts.failure}. The customer did not get this money back, and the order no longer counts it as refunded (${formatMoney(facts.refundedCents)} of ${formatMoney(facts.totalCents)} refunded now).`,
      facts.commission,
      ...(facts.backInList
        ? [
            `The order is back in “${facts.backInList}” and counted there again: it is to be worked as before unless you refund it again.`,
          ]
        : []),
      "What to do: contact the customer and agree how to return the money (if the platform's Stripe balance was too low, add funds to it first), then refund the order again from its card.",
    ],
    facts: [
      { label: 'Order', value: facts.orderID },
      { label: 'Amount', value: formatMoney(facts.amountCents) },
      { label: 'Refund', value: facts.refundId },
    ],
    action: { label: 'Open the orders', url: adminUrl },
    footer: 'You get this mail because you are an administrator of the portal.',
  });
}

export interface RefundFacts {
  to: string;
  customerName: string;
  orderID: string;
  productName: string;
  /** This refund. */
  amountCents: number;
  /** When it was applied (ISO). */
  at: string;
  /** A refund made by us, or a dispute the customer's bank decided for them. */
  kind: 'refund' | 'dispute';
  /** Refunded of the order in all, this one included, and what was paid. */
  refundedCents: number;
  totalCents: number;
  orderUrl: string;
}

/** The customer's "your refund": what went back to the card, when, and what it means for the order. */
export function refundMail(facts: RefundFacts): OutgoingMail {
  const full = facts.refundedCents >= facts.totalCents;
  const amount = formatMoney(facts.amountCents);
  const what =
    facts.kind === 'dispute'
      ? `Your bank decided the dispute of your payment for order ${facts.orderID} (${facts.productName}) in your favour: ${amount} was returned to you through your bank on ${mailDate(facts.at)}.`
      : `We refunded ${amount} of your payment for order ${facts.orderID} (${facts.productName}) to the card you paid with, on ${mailDate(facts.at)}. Banks usually show a refund within 5 to 10 business days.`;
  const order = full
    ? 'Your payment is refunded in full, so this order is closed: we will not send it. If it reached you already, write to us before sending it back.'
    : `${formatMoney(facts.refundedCents)} of the ${formatMoney(facts.totalCents)} you paid is refunded so far. The rest of your order stands.`;
  return render(
    facts.to,
    full ? `Your order ${facts.orderID} is refunded` : `A refund of ${amount} on your order ${facts.orderID}`,
    {
      greeting: hello(facts.customerName),
      paragraphs: [what, order],
      facts: [
        { label: 'Order number', value: facts.orderID },
        { label: facts.kind === 'dispute' ? 'Returned' : 'Refunded', value: amount },
        { label: 'On', value: mailDate(facts.at) },
        { label: 'Refunded in all', value: `${formatMoney(facts.refundedCents)} of ${formatMoney(facts.totalCents)}` },
      ],
      action: { label: 'See your order', url: facts.orderUrl },
      footer: 'Anyone with this link can see the steps of this order and its tracking number, and nothing else.',
    },
    { label: `Order page link (refund ${facts.orderID})`, url: facts.orderUrl },
  );
}

export interface CommissionRefundedFacts {
  to: string;
  orderID: string;
  productName: string;
  /** The refund's (or lost dispute's) amount. */
  refundCents: number;
  kind: 'refund' | 'dispute';
  /** Whether the order is now refunded in full. */
  inFull: boolean;
  /** The commission's status after the refund. */
  status: string;
  /** The commission at the sale, and now. */
  originalCents: number;
  nowCents: number;
  /** Where the member's commissions are listed. */
  commissionsUrl: string;
}

/**
 * The member's "a sale you made was refunded": what the customer got back and what it does to
 * the commission, in the one case that applies (cancelled before it was sent, taken back from the
 * Stripe balance, taken from the next payouts once paid, or reduced), and that nothing is asked of them.
 */
export function commissionRefundedMail(facts: CommissionRefundedFacts): OutgoingMail {
  const refund = formatMoney(facts.refundCents);
  const original = formatMoney(facts.originalCents);
  const what =
    facts.kind === 'dispute'
      ? `The customer's bank took back ${refund} of their payment for order ${facts.orderID} (${facts.productName}) after a dispute${facts.inFull ? ': the whole payment' : ''}.`
      : `We refunded ${refund} of the customer's payment for order ${facts.orderID} (${facts.productName})${facts.inFull ? ': the whole payment' : ''}.`;
  const difference = formatMoney(facts.originalCents - facts.nowCents);
  const meaning =
    facts.status === 'cancelled'
      ? `Your commission of ${original} for it is cancelled. It had not been paid to you, so nothing is taken from you.`
      : facts.status === 'reversed'
        ? `Your commission of ${original} for it is cancelled. It had been sent to your Stripe balance but not paid out yet, so it was taken back from there.`
        : facts.status === 'clawed_back'
          ? `Your commission of ${original} for it had already been paid to you, so ${original} comes off your next payouts. My Account shows what you still owe.`
          : facts.status === 'paid'
            ? `Your commission for it is now ${formatMoney(facts.nowCents)} (it was ${original}). The ${difference} difference had already been paid to you, so it comes off your next payouts. My Account shows what you still owe.`
            : `Your commission for it is now ${formatMoney(facts.nowCents)} (it was ${original}).`;
  return render(
    facts.to,
    `A sale you made was ${facts.kind === 'dispute' ? 'disputed' : 'refunded'}: order ${facts.orderID}`,
    {
      greeting: 'Hello,',
      paragraphs: [what, meaning, 'There is nothing you need to do.'],
      facts: [
        { label: 'Order', value: facts.orderID },
        { label: facts.kind === 'dispute' ? 'Taken back by the bank' : 'Refunded', value: refund },
        { label: 'Your commission', value: `${formatMoney(facts.nowCents)} (was ${original})` },
      ],
      action: { label: 'See your commissions', url: facts.commissionsUrl },
      footer: 'You get this mail when a sale you made is refunded, because it changes what you are paid.',
    },
  );
}

export interface VerificationFailedFacts {
  to: string;
  /** What Stripe could not verify, each in the member's words (shared/src/domain/verification-words.ts). */
  sentences: string[];
  /** The payout account screen, where the details are corrected. */
  accountUrl: string;
}

/** The member's "Stripe could not verify your details": what, and where to correct it. */
export function verificationFailedMail(facts: VerificationFailedFacts): OutgoingMail {
  return render(facts.to, 'Stripe could not verify your payout details', {
    greeting: 'Hello,',
    paragraphs: [
      'Stripe, who pays out your commissions, could not verify the details of your payout account, so your commissions cannot be paid to you until they are corrected. Your commissions are kept meanwhile.',
      ...facts.sentences,
      'Correct them on My Account (Payout Account): Stripe checks them again as soon as you save.',
    ],
    action: { label: 'Correct your details', url: facts.accountUrl },
    footer: 'You get this mail when Stripe needs something from you before it can pay you.',
  });
}

export interface MemberPayoutFailedFacts {
  to: string;
  amountCents: number;
  /** Why, in words (payments/payout-failures.ts): follows "failed: ". */
  reason: string;
  /** My Account, where the banner and the card's replacement are. */
  accountUrl: string;
  /** The instant fee the member paid for the payout, given back with the money (decision 0340). */
  feeBackCents?: number;
}

/**
 * The member's "your payout failed": the amount, why, that the money waits in their balance again,
 * and what to do (replace the card). Sent once per failed payout, whatever their mail settings say:
 * it asks them to act.
 */
export function memberPayoutFailedMail(facts: MemberPayoutFailedFacts): OutgoingMail {
  const amount = formatMoney(facts.amountCents);
  return render(facts.to, `Your payout of ${amount} failed`, {
    greeting: 'Hello,',
    paragraphs: [
      [
        `Your payout of ${amount} failed: ${facts.reason}.`,
        facts.feeBackCents
          ? `The money is back in your balance with the ${formatMoney(facts.feeBackCents)} instant fee you paid, ${formatMoney(facts.amountCents + facts.feeBackCents)} in all, waiting to be paid.`
          : 'The money is back in your balance, waiting to be paid.',
      ].join(' '),
      [
        'Replace your card on My Account (Payout Methods) with a debit card that takes payouts.',
        'Then withdraw it, or it goes with the next daily payout.',
      ].join(' '),
    ],
    facts: [
      { label: 'Amount', value: amount },
      { label: 'Why', value: facts.reason },
    ],
    action: { label: 'Replace your card on My Account', url: facts.accountUrl },
    footer: 'You get this mail when a payout to your card fails, so that you can fix it.',
  });
}

/** A dispute's facts as the webhook knows them (Stripe's `charge.dispute.created`). */
export interface DisputeFacts {
  /** The event's id: the mail is sent once per dispute event. */
  eventId: string;
  disputeId: string;
  chargeId: string;
  amountCents: number;
  /** Stripe's reason code, e.g. `fraudulent`, `product_not_received`. */
  reason: string;
  /** When the evidence is due (epoch seconds), if Stripe says. */
  evidenceDueBy: number | null;
  /** The order of the charge, when the portal knows it. */
  orderID: string | null;
}

/** The admins' "a dispute was opened": the order it is on, and a link to that order's card. */
export function disputeOpenedMail(to: string, facts: DisputeFacts, adminUrl: string): OutgoingMail {
  return render(
    to,
    `A dispute was opened: ${formatMoney(facts.amountCents)}${facts.orderID ? ` on order ${facts.orderID}` : ''}`,
    {
      greeting: 'Hello,',
      paragraphs: [
        `A customer's bank disputes a payment of ${formatMoney(facts.amountCents)}${facts.orderID ? ` for order ${facts.orderID}` : ''}: ${disputeWords(facts.reason)}. The money is held until the dispute is decided; answer it in Stripe's dashboard with your evidence${facts.evidenceDueBy ? ` by ${mailDate(facts.evidenceDueBy * 1000)}` : ''}.`,
      ],
      facts: [
        { label: 'Amount', value: formatMoney(facts.amountCents) },
        { label: 'Reason', value: disputeWords(facts.reason) },
        ...(facts.orderID ? [{ label: 'Order', value: facts.orderID }] : []),
        { label: 'Dispute', value: facts.disputeId },
        { label: 'Charge', value: facts.chargeId },
      ],
      action: { label: facts.orderID ? `Open order ${facts.orderID}` : 'Open the orders', url: adminUrl },
      footer: 'You get this mail because you are an administrator of the portal.',
    },
  );
}

/**
 * To the owner of an address a member asked to make their own (a change of e-mail address, issue
 * 35): the address is this account's, so nothing changed. The asking member's answer is the same as
 * for a free address, so this mail is the only place that says the address is registered, and it
 * reaches only the mailbox's owner. It names neither the asking account nor its address.
 */
export function addressInUseMail(to: string, loginUrl: string): OutgoingMail {
  return render(to, 'Someone tried to use your e-mail address on the Reseller Portal', {
    greeting: 'Hello,',
    paragraphs: [
      "Someone logged in to a Reseller Portal account asked to make this address that account's e-mail address. This address is already the login of your account, so nothing was changed: your account, its password and its address are as they were.",
      'If it was you, from another account: an address can belong to one account only. Change the address of this account first if you want to use it elsewhere.',
      'If it was not you, you do not need to do anything.',
    ],
    action: { label: 'Log in to your account', url: loginUrl },
    footer: 'You get this mail because this address is the login of a Reseller Portal account.',
  });
}
