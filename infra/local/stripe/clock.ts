/**
 * The emulator's clock: real time plus an offset a test can move forward. Everything the
 * emulator dates (objects' `created`, funds' `available_on`, verifications, payout times,
 * idempotency keys' expiry) reads it; moving it runs whatever became due.
 */
export interface EmulatorClock {
  /** Milliseconds since the epoch, as the emulator sees them. */
  now(): number;
  /** Moves the clock forward `ms` and runs everything that became due (funds available, verifications, payouts, key expiry). */
  advance(ms: number): Promise<void>;
}

export class Clock implements EmulatorClock {
  private offsetMs = 0;
  /** Runs the due work; set by the emulator once it exists. */
  onAdvance: () => Promise<void> = () => Promise.resolve();

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Seconds since the epoch, as every Stripe timestamp. */
  unix(): number {
    return Math.floor(this.now() / 1000);
  }

  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('clock.advance takes a number of milliseconds, 0 or more');
    this.offsetMs += ms;
    await this.onAdvance();
  }
}
