import { randomBytes } from 'node:crypto';
import { MailerUnavailable, type Mailer, type OutgoingMail } from './mailer';
import type { MailClaimStore } from './mail-claim-store';

/**
 * How long a claim keeps other attempts from sending the same mail: longer than any function runs
 * (29 s at most) plus a slow send, so a live attempt is never doubled; short enough that a retry
 * after a crash sends the mail within minutes.
 */
export const MAIL_LEASE_MS = 2 * 60 * 1000;

export interface SendOnceDeps {
  claims: MailClaimStore;
  mailer: Mailer;
  now: () => number;
  /** A line in the function's log (a mail left unsent because the mailer is not available). */
  log?: (message: string, details: Record<string, unknown>) => Promise<void>;
}

/** `unavailable`: the mailer cannot be had (MailerUnavailable); the claim is given up and the mail not sent. */
export type SendOutcome = 'sent' | 'done-before' | 'busy' | 'skipped' | 'unavailable';

/**
 * Sends the mail about one event once, however many times the event is reported (a webhook
 * redelivered, a call retried, the browser and the webhook both recording one checkout):
 *
 * 1. **claim**: a conditional write of `MAIL#<kind>#<eventId>` with a lease (MAIL_LEASE_MS). An
 *    attempt that finds the mail done does nothing; one that finds a live claim answers `busy`
 *    (the caller decides: a webhook fails so Stripe delivers it again, a person's call carries on);
 * 2. **build** the mail (only now: building may create an order page link);
 * 3. **send**, then **mark it sent**.
 *
 * A crash between the claim and the send leaves a claim whose lease runs out: the next report of
 * the event (Stripe's redelivery, the admin's retry) takes it over and sends the mail. A send that
 * fails gives the claim up at once and throws, so the caller's retry sends it. The one case that
 * can send twice is a crash after the mailer accepted the mail and before it was marked sent (SES
 * takes no idempotency key); the lease keeps that to an attempt that died in that instant.
 * When the mailer itself cannot be had (no sender configured), the claim is given up, the mail is
 * logged as not sent and the outcome is `unavailable`: the event's webhook still succeeds.
 *
 * `build` may answer null (no address, or the person turned this mail off): the claim is marked
 * done with the reason, and the mail is never sent for that event.
 */
export async function sendOnce(
  deps: SendOnceDeps,
  kind: string,
  eventId: string,
  build: () => Promise<OutgoingMail | { skip: string }>,
): Promise<SendOutcome> {
  const holder = randomBytes(12).toString('hex');
  const claimed = await deps.claims.claim(kind, eventId, holder, deps.now(), MAIL_LEASE_MS);
  if (claimed === 'done') return 'done-before';
  if (claimed === 'busy') return 'busy';
  let mail: OutgoingMail | { skip: string };
  try {
    mail = await build();
    if ('skip' in mail) {
      await deps.claims.finish(kind, eventId, holder, deps.now(), mail.skip);
      return 'skipped';
    }
    await deps.mailer.send(mail);
  } catch (error) {
    await deps.claims.release(kind, eventId, holder).catch(() => undefined);
    if (error instanceof MailerUnavailable) {
      await deps.log?.('A mail was not sent: the mailer is not available', { kind, eventId, reason: error.message });
      return 'unavailable';
    }
    throw error;
  }
  await deps.claims.finish(kind, eventId, holder, deps.now());
  return 'sent';
}
