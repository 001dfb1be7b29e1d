/**
 * Sending e-mail: the port. In AWS the SES adapter (adapters/ses-mailer.ts) sends it; locally the
 * outbox adapter (adapters/local-outbox-mailer.ts) writes it under `.local/outbox/` and prints its
 * link. composition.ts chooses from the environment.
 */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the mail is about, and what it is: the local outbox prints it in the server log. */
  link?: { label: string; url: string };
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}
