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

/**
 * The mailer itself cannot be had (no sender configured, or its module cannot be loaded): nothing a
 * retry of the same event mends soon. A mail of an event (email/send-once.ts) is then left unsent
 * and logged, rather than failing the event's webhook until Stripe gives up on the endpoint.
 */
export class MailerUnavailable extends Error {
  constructor(cause: unknown) {
    super(`The mailer is not available: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'MailerUnavailable';
  }
}
