import { GetCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { backoff, cancellationReasons, db, tableName } from '../dynamo-client';

/**
 * A single-use link's record, stored by the SHA-256 of its token (the token itself is only in the
 * link): the e-mail verification and password reset links. A used record is kept (marked) until its
 * TTL, so a second click is told "used", not "not valid".
 */
export interface SingleUseLinkRecord {
  tokenHash: string;
  userId: string;
  /** Epoch ms after which the link no longer works (DynamoDB's TTL deletes the item later still). */
  expiresAtMs: number;
  usedAt?: number;
}

export type LinkRefusal = { outcome: 'unknown' } | { outcome: 'used' } | { outcome: 'expired' };

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** What using a link of a kind writes besides the link itself, and what it answers. */
export interface LinkUse<R extends SingleUseLinkRecord, O> {
  /** The writes the use makes, in one transaction after the link's own (item 0): items 1, 2, … */
  writes(record: R): TransactItem[];
  /** The answer once the transaction is written. */
  done(record: R): O;
  /**
   * The answer when the transaction was cancelled with these items' conditions failed (0 is the
   * link's own); undefined decides from the link again (read again; after a conflict, a wait first).
   */
  refused(failed: readonly number[], record: R): O | undefined | Promise<O | undefined>;
}

/** A record stays this long after its link expires, so a late click is told "expired", not "not valid". */
const KEEP_AFTER_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_TRIES = 5;

/**
 * The store of one kind of single-use link: its items `key(tokenHash)` with `entity`, TTL a week
 * after the link's expiry. `name` says in an error which kind kept conflicting.
 */
export function singleUseLinks<R extends SingleUseLinkRecord>(kind: {
  name: string;
  entity: string;
  key: (tokenHash: string) => { pk: string; sk: string };
}) {
  async function get(tokenHash: string): Promise<R | undefined> {
    const result = await db().send(
      new GetCommand({ TableName: tableName(), Key: kind.key(tokenHash), ConsistentRead: true }),
    );
    if (!result.Item) return undefined;
    const { pk: _pk, sk: _sk, entity: _entity, expiresAt: _expiresAt, ...record } = result.Item;
    return record as R;
  }

  return {
    async save(record: R): Promise<void> {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...kind.key(record.tokenHash),
            entity: kind.entity,
            ...record,
            expiresAt: Math.ceil((record.expiresAtMs + KEEP_AFTER_EXPIRY_MS) / 1000),
          },
          // 32 random bytes never repeat; the condition says so rather than overwrite a record.
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    },

    get,

    /**
     * Uses the link once at `now`: in one transaction, the link marked used (only an unused one
     * that has not expired at `now`) with what `use` writes. Of two uses of one link at once,
     * exactly one is written; the other reads the link again and is told it was used.
     */
    async use<O>(tokenHash: string, now: number, use: LinkUse<R, O>): Promise<O | LinkRefusal> {
      for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
        const record = await get(tokenHash);
        if (!record) return { outcome: 'unknown' };
        if (record.usedAt !== undefined) return { outcome: 'used' };
        if (record.expiresAtMs <= now) return { outcome: 'expired' };
        try {
          await db().send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Update: {
                    TableName: tableName(),
                    Key: kind.key(tokenHash),
                    UpdateExpression: 'SET usedAt = :now',
                    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt) AND expiresAtMs > :now',
                    ExpressionAttributeValues: { ':now': now },
                  },
                },
                ...use.writes(record),
              ],
            }),
          );
          return use.done(record);
        } catch (error) {
          const reasons = cancellationReasons(error);
          if (!reasons) throw error;
          const failed = reasons.flatMap((reason, index) => (reason.Code === 'ConditionalCheckFailed' ? [index] : []));
          const answer = await use.refused(failed, record);
          if (answer !== undefined) return answer;
          // The link's condition failed (another use): read it again. A conflict: wait, then read again.
          if (!failed.includes(0)) await backoff(attempt);
        }
      }
      throw new Error(`${kind.name} kept conflicting after ${MAX_TRIES} tries`);
    },
  };
}
