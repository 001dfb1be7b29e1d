import {
  CARRIER_WITHOUT_NUMBER,
  NAME_THE_CARRIER,
  NUMBER_WITHOUT_CARRIER,
  CARRIERS,
  MAX_CARRIER_NAME_LENGTH,
  MAX_TRACKING_LENGTH,
  normalizeTracking,
  trackingProblem,
  type Carrier,
} from './carriers';
import { pure } from './pure';
import { Id } from './schemas';
import * as z from './zod';

/**
 * The customer's order page (/api/getOrderPage), the shipment an admin enters when marking an
 * order shipped (/api/markAsShipped), and the member's mail preferences (/api/saveMailPreferences).
 */

export { CARRIER_WITHOUT_NUMBER, NAME_THE_CARRIER, NUMBER_WITHOUT_CARRIER };
export const NAME_ONLY_FOR_OTHER = 'A carrier name is only needed when the carrier is "Other".';

/**
 * The markAsShipped body: the spec's `{ id }`, and optionally the carrier and its tracking number
 * (both or neither; "other" needs the carrier's name). A known carrier's number must have its
 * format (shared/src/domain/carriers.ts); the answer names the field.
 */
export const MarkAsShippedRequest = /* @__PURE__ */ pure(() =>
  z
    .strictObject({
      id: Id,
      carrier: z.optional(z.enum(CARRIERS)),
      carrierName: z.optional(
        z
          .string()
          .check(
            z.trim(),
            z.maxLength(MAX_CARRIER_NAME_LENGTH, `A carrier name has at most ${MAX_CARRIER_NAME_LENGTH} characters.`),
          ),
      ),
      trackingNumber: z.optional(
        z
          .string()
          .check(
            z.maxLength(MAX_TRACKING_LENGTH * 2, `A tracking number has at most ${MAX_TRACKING_LENGTH} characters.`),
          ),
      ),
    })
    .check(
      z.superRefine(
        (
          body: {
            carrier?: Carrier | undefined;
            carrierName?: string | undefined;
            trackingNumber?: string | undefined;
          },
          context,
        ) => {
          const number = body.trackingNumber?.trim() ?? '';
          if (!body.carrier) {
            if (number !== '') context.addIssue({ code: 'custom', path: ['carrier'], message: NUMBER_WITHOUT_CARRIER });
            if (body.carrierName)
              context.addIssue({ code: 'custom', path: ['carrierName'], message: NAME_ONLY_FOR_OTHER });
            return;
          }
          if (number === '') {
            context.addIssue({ code: 'custom', path: ['trackingNumber'], message: CARRIER_WITHOUT_NUMBER });
          } else {
            const problem = trackingProblem(body.carrier, number);
            if (problem) context.addIssue({ code: 'custom', path: ['trackingNumber'], message: problem });
          }
          if (body.carrier === 'other' && !body.carrierName) {
            context.addIssue({ code: 'custom', path: ['carrierName'], message: NAME_THE_CARRIER });
          }
          if (body.carrier !== 'other' && body.carrierName) {
            context.addIssue({ code: 'custom', path: ['carrierName'], message: NAME_ONLY_FOR_OTHER });
          }
        },
      ),
    ),
);
export type MarkAsShippedRequest = z.input<typeof MarkAsShippedRequest>;

/** The shipment as stored and shown: a known carrier's number normalized, another's trimmed. */
export interface Shipment {
  carrier: Carrier;
  carrierName: string | null;
  trackingNumber: string;
}

/** The shipment a valid markAsShipped body names, if any. */
export function shipmentOf(body: {
  carrier?: Carrier | undefined;
  carrierName?: string | undefined;
  trackingNumber?: string | undefined;
}): Shipment | null {
  if (!body.carrier || !body.trackingNumber) return null;
  return {
    carrier: body.carrier,
    carrierName: body.carrier === 'other' ? (body.carrierName ?? null) : null,
    trackingNumber: normalizeTracking(body.carrier, body.trackingNumber),
  };
}

/** A link's token: 32 random bytes, base64url (43 characters). */
export const ORDER_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const NO_SUCH_ORDER_LINK =
  'This order link is not valid. Open the link in the e-mail we sent you after your purchase, as it is.';

export const OrderPageRequest = /* @__PURE__ */ pure(() =>
  z.strictObject({
    token: z.string().check(z.minLength(1), z.regex(ORDER_TOKEN_PATTERN, NO_SUCH_ORDER_LINK)),
  }),
);

const Step = /* @__PURE__ */ pure(() =>
  z.object({
    step: z.enum(['ordered', 'shipped', 'fulfilled']),
    done: z.boolean(),
    /** When the step was done (ISO); null while not done, or for a step done before dates were kept. */
    at: z.nullable(z.string()),
  }),
);

/**
 * What the order's page shows the holder of its link, and nothing more: the order number, the
 * product's name, the quantity, the date it was placed, each step with its date, and the carrier
 * with the tracking number (and the carrier's tracking page, for a carrier the portal knows), and
 * whether it was refunded (a refund still pending at Stripe says so).
 * No customer address, e-mail, price, member or internal id.
 */
export const OrderPage = /* @__PURE__ */ pure(() =>
  z.strictObject({
    orderID: z.string(),
    product_name: z.string(),
    qty: z.number().check(z.int()),
    placedAt: z.string(),
    steps: z.array(Step),
    shipment: z.nullable(
      z.strictObject({
        carrier: z.string(),
        trackingNumber: z.string(),
        trackingUrl: z.nullable(z.string()),
      }),
    ),
    /**
     * Present once something was refunded: each refund's day and kind (ours, or a dispute the bank
     * decided for the customer), and whether the payment is refunded in full (the order is closed,
     * not sent). A partial refund's amount is given (dollars); a full refund's is not (it is the price).
     * `pending` while Stripe holds a refund back (it has not reached the customer's bank yet).
     */
    refund: z.optional(
      z.strictObject({
        inFull: z.boolean(),
        pending: z.boolean(),
        entries: z.array(
          z.strictObject({
            at: z.string(),
            kind: z.enum(['refund', 'dispute']),
            amount: z.nullable(z.number()),
          }),
        ),
      }),
    ),
  }),
);
export type OrderPage = z.infer<typeof OrderPage>;

/** The member's optional mails (both on unless turned off). */
export const MailPreferences = /* @__PURE__ */ pure(() =>
  z.strictObject({
    /** "You made a sale": the commission and when it becomes available. */
    saleMails: z.boolean({ error: 'Say whether you want a mail for each sale (true or false).' }),
    /** "Your payout is on its way". */
    payoutMails: z.boolean({ error: 'Say whether you want a mail for each payout (true or false).' }),
  }),
);
export type MailPreferences = z.infer<typeof MailPreferences>;

export const MailPreferencesResult = /* @__PURE__ */ pure(() => z.object({ mailPreferences: MailPreferences }));
