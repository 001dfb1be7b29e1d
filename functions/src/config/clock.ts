/**
 * The time (epoch milliseconds) that every window, delay and expiry of the auth rules reads. The
 * composition module hands `() => clock.now()` to them; tests replace `clock.now` to move time
 * instead of sleeping.
 *
 * `elapsed` (a monotonic time in ms, for durations) and `sleep` are what an answer held to a
 * fixed floor reads and waits with (email/password-reset.ts); tests replace them to see the wait
 * asked for without waiting it.
 */
export const clock = {
  now: (): number => Date.now(),
  elapsed: (): number => performance.now(),
  sleep: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};
