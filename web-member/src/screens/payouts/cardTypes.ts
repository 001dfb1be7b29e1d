/**
 * What a card form does with a token: hands it to /api/addPayoutMethod and gets back the
 * message to show by the card field (the server's, e.g. "This card doesn't appear to be a debit
 * card."), or null when the card was added.
 */
export type SubmitToken = (token: string) => Promise<string | null>;

export interface CardFormProps {
  publishableKey: string;
  submit: SubmitToken;
}
