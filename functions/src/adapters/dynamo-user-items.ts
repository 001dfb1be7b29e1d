import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import type { UserRecord } from '../auth/user-store';
import { db, tableName } from './dynamo-client';

/**
 * The user item as more than the users adapter reads it: its link generation (the mailed links'
 * stores) and the member lookup by e-mail (the order and commission searches). Decision 0401: a
 * common adapter helper, so no capability's folder reads the auth adapters'.
 */

/**
 * The user's link generation (decision 0240): a change of the password or the e-mail address sets
 * this in its own write (with `:zero` and `:one`), and every mailed link's use is conditional on
 * `sameLinkGeneration` of the generation the link recorded.
 */
export const NEXT_LINK_GENERATION = 'linkGeneration = if_not_exists(linkGeneration, :zero) + :one';

/** The condition that the user's link generation is still `generation` (absent counts as 0). */
export function sameLinkGeneration(generation: number | undefined): {
  condition: string;
  values: Record<string, number>;
} {
  const value = generation ?? 0;
  return {
    condition:
      value === 0
        ? '(attribute_not_exists(linkGeneration) OR linkGeneration = :linkGeneration)'
        : 'linkGeneration = :linkGeneration',
    values: { ':linkGeneration': value },
  };
}

export function fromItem(item: Record<string, unknown>): UserRecord {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest as unknown as UserRecord;
}

/** The user by id, read consistently (the users adapter's `get`, and the mailed links' stores). */
export async function userById(userId: string): Promise<UserRecord | undefined> {
  const result = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.user(userId), ConsistentRead: true }),
  );
  return result.Item ? fromItem(result.Item) : undefined;
}

const getItem = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** The member (a user) with this normalized e-mail, by its e-mail claim (the order and commission searches). */
export async function memberByEmail(normalizedEmail: string): Promise<{ id: string; email: string } | undefined> {
  const claim = await getItem(keys.email(normalizedEmail));
  const userId = claim?.userId;
  if (typeof userId !== 'string') return undefined;
  const user = await getItem(keys.user(userId));
  return user ? { id: userId, email: String(user.email) } : undefined;
}
