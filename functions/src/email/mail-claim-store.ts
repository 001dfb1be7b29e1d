/**
 * The claims that make each mail go out once per event (email/send-once.ts). One item per mail,
 * keyed by its kind and the id of what it is about (`MAIL#<kind>#<eventId>`); `holder` is the
 * random id of the attempt that holds the claim.
 */
export type ClaimOutcome =
  /** This attempt holds the claim: it may send. */
  | 'claimed'
  /** The mail was sent (or deliberately not sent) already. */
  | 'done'
  /** Another attempt holds a claim whose lease has not run out: it is sending now. */
  | 'busy';

export interface MailClaimStore {
  /**
   * Claims the mail: a new claim, or one whose lease ran out while it was not yet sent (the attempt
   * that held it died between the claim and the send). Conditional, so of two attempts one wins.
   */
  claim(kind: string, eventId: string, holder: string, now: number, leaseMs: number): Promise<ClaimOutcome>;
  /** The mail went out (or was not needed: `skipped` says why); conditional on still holding the claim. */
  finish(kind: string, eventId: string, holder: string, now: number, skipped?: string): Promise<void>;
  /** The send failed: the claim is given up at once, so the next attempt sends without waiting for the lease. */
  release(kind: string, eventId: string, holder: string): Promise<void>;
}
