/** The provider events already acted on, so a redelivered event changes nothing. */
export interface ProcessedEvents {
  /** Records the event; false when it was recorded before (a redelivery). Kept until `expiresAt` (epoch s). */
  claim(eventId: string, expiresAt: number): Promise<boolean>;
  /** Forgets a claimed event whose processing failed, so the provider's retry processes it. */
  release(eventId: string): Promise<void>;
}
