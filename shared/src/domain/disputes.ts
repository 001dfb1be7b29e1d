/** Stripe's dispute reason codes in words (the admin's card and mails, the commission's reason). */
const DISPUTE_REASONS: Record<string, string> = {
  fraudulent: 'the card holder says they did not make the payment',
  product_not_received: 'the customer says the product was not received',
  product_unacceptable: 'the customer says the product was not acceptable',
  duplicate: 'the customer says the payment was a duplicate',
  subscription_canceled: 'the customer says they cancelled',
  unrecognized: 'the card holder does not recognise the payment',
  credit_not_processed: 'the customer says a refund was not processed',
  general: 'a general dispute',
};

/** A dispute's reason in words; a code this table does not know, with its underscores as spaces. */
export const disputeWords = (reason: string): string => DISPUTE_REASONS[reason] ?? reason.replaceAll('_', ' ');
