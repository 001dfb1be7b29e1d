/**
 * The card part of the checkout, whichever form takes the card (our emulator form or Stripe
 * Elements): the checkout asks it to check what was typed, then to pay a payment intent.
 */
export interface BillingDetails {
  name: string;
  email: string;
  address: {
    line1: string;
    line2?: string | undefined;
    city: string;
    state: string;
    postal_code: string;
    country: 'US';
  };
}

/** The payment succeeded (the intent's id), or the words to show by the card field. */
export type PayOutcome = { ok: true; paymentIntentId: string } | { ok: false; message: string };

export interface Payer {
  /** Shows what is missing or wrong by the card fields; whether the card can be tried. */
  validate: () => boolean;
  pay: (clientSecret: string, billing: BillingDetails) => Promise<PayOutcome>;
}

export interface PaymentFieldsProps {
  publishableKey: string;
  /** The checkout keeps the current payer; null while the card form is not ready. */
  register: (payer: Payer | null) => void;
  /** A card refusal from the last attempt ("Your card was declined."), shown by the card field. */
  error: string | null;
  disabled?: boolean;
}

/** The payment intent's id from its client secret (`pi_…_secret_…`). */
export const intentIdOf = (clientSecret: string): string => clientSecret.split('_secret_')[0] ?? clientSecret;
