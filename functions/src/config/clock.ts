/**
 * The time (epoch milliseconds) that every window, delay and expiry of the auth rules reads. The
 * composition module hands `() => clock.now()` to them; tests replace `clock.now` to move time
 * instead of sleeping.
 */
export const clock = {
  now: (): number => Date.now(),
};
