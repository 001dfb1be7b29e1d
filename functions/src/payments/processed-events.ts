/**
 * The provider events applied so far, so that each event is applied once: a redelivery of an
 * applied event changes nothing, and an event whose first delivery died half-way (a crash after it
 * was claimed) is applied by a redelivery once its claim has expired.
 */
export interface ProcessedEvents {
  /**
   * Applies the event `eventId` once. `'processed'` when this call applied it, `'duplicate'` when
   * an earlier delivery did. While another delivery holds it (in progress, until `remainingMs()`
   * from now: the invocation's deadline) it is a 409, so the provider delivers it again later;
   * when `apply` fails the claim is released, so the provider's retry applies it.
   */
  once(eventId: string, apply: () => Promise<void>, remainingMs: () => number): Promise<'processed' | 'duplicate'>;
}
