import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { conflict } from '../../errors';
import type { ProcessedEvents } from '../../payments/processed-events';
import { db, tableName } from '../dynamo-client';

/**
 * Powertools idempotency on the single table: one item per Stripe event, `pk` `STRIPE_EVENT`,
 * `sk` `stripe-event#<md5 of the event id>`, with `status` INPROGRESS (and `in_progress_expiration`,
 * epoch ms, the invocation's deadline) while it is applied, then COMPLETED; `expiresAt` (the table's
 * TTL attribute, epoch s) removes it after 30 days. A claim whose invocation died before it
 * finished (no COMPLETED, no release) is taken over by the first delivery after that deadline.
 *
 * The package is loaded on the first event (the webhook functions only), as the Stripe SDK is.
 */
const STATIC_PK = 'STRIPE_EVENT';
const KEY_PREFIX = 'stripe-event';
/** Stripe retries an undelivered event for up to 3 days; an applied event is remembered 30. */
export const PROCESSED_EVENT_TTL_SECONDS = 30 * 24 * 3600;

type Idempotency = typeof import('@aws-lambda-powertools/idempotency');
type Persistence = import('@aws-lambda-powertools/idempotency/dynamodb').DynamoDBPersistenceLayer;
let loaded: Promise<[Idempotency, Persistence]> | undefined;
const load = (): Promise<[Idempotency, Persistence]> =>
  (loaded ??= Promise.all([
    import('@aws-lambda-powertools/idempotency'),
    import('@aws-lambda-powertools/idempotency/dynamodb'),
  ]).then(([idempotency, { DynamoDBPersistenceLayer }]) => [
    idempotency,
    new DynamoDBPersistenceLayer({
      tableName: tableName(),
      keyAttr: 'pk',
      sortKeyAttr: 'sk',
      staticPkValue: STATIC_PK,
      expiryAttr: 'expiresAt',
      // The functions' own client (its endpoint, region and retries). The document client shares
      // its low-level client's configuration and middleware, and sends the low-level commands
      // Powertools sends as that client would.
      awsSdkV3Client: db() as unknown as DynamoDBClient,
    }),
  ]));
loaded?.catch(() => (loaded = undefined));

export const dynamoProcessedEvents: ProcessedEvents = {
  async once(eventId, apply, remainingMs) {
    const [{ IdempotencyConfig, IdempotencyAlreadyInProgressError, makeIdempotent }, persistenceStore] = await load();
    const config = new IdempotencyConfig({
      expiresAfterSeconds: PROCESSED_EVENT_TTL_SECONDS,
      // A stored COMPLETED answer is a redelivery of an applied event.
      responseHook: () => 'duplicate',
    });
    // Called as a handler (payload, context): Powertools takes the invocation's remaining time for
    // the claim's in-progress expiry from the context, and hashes the payload (the event id).
    const applyOnce = makeIdempotent(
      async (_id: string, _context: { getRemainingTimeInMillis: () => number }) => {
        await apply();
        return 'processed' as const;
      },
      { persistenceStore, config, keyPrefix: KEY_PREFIX },
    );
    try {
      return (await applyOnce(eventId, { getRemainingTimeInMillis: remainingMs })) as 'processed' | 'duplicate';
    } catch (error) {
      if (error instanceof IdempotencyAlreadyInProgressError) {
        throw conflict('This event is being applied by another delivery right now; Stripe will deliver it again.');
      }
      throw error;
    }
  },
};
