import {
  COMMISSION_TRANSITIONS,
  LEGACY_COMMISSION_FLAGS,
  LEGACY_ORDER_FLAGS,
  ORDER_TRANSITIONS,
  transitionTo,
  type CommissionStatus,
  type OrderStatus,
} from '../domain/sales-status';

/**
 * The DynamoDB side of the status transitions (shared/src/domain/sales-status.ts): every write
 * that moves an order's or a commission's status takes its condition and its SET/REMOVE from
 * here, built from the transition table, so no write can move a status along a path the table
 * does not have. An item stored before the status (flags only) matches by its flags, and the move
 * replaces the flags with the status.
 */

export interface StatusExpression {
  /** A ConditionExpression fragment (parenthesised; AND it with more when needed). */
  condition: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

export interface StatusMove extends StatusExpression {
  /** A SET clause fragment: the new status. */
  set: string;
  /** Attributes to REMOVE: the old flags, which the status replaces. */
  remove: string[];
}

const LEGACY_NAMES = {
  order: ['isOrdered', 'isShipped', 'isFufilled'],
  commission: ['isPayed', 'isInCustomersAccount', 'orderFulfilled'],
} as const;

type Entity = keyof typeof LEGACY_NAMES;

function legacyFlags(entity: Entity, status: string): Record<string, 0 | 1> {
  return entity === 'order'
    ? (LEGACY_ORDER_FLAGS[status as OrderStatus] as Record<string, 0 | 1>)
    : ((LEGACY_COMMISSION_FLAGS[status as CommissionStatus] ?? {}) as Record<string, 0 | 1>);
}

/** `status = <status>`, or for an item stored before the status, the flags that status had. */
function statusIs(entity: Entity, status: string): StatusExpression {
  const flags = Object.entries(legacyFlags(entity, status));
  // A status that never existed as flags matches by its status only.
  if (flags.length === 0) {
    return { condition: '(#status = :statusFrom)', names: { '#status': 'status' }, values: { ':statusFrom': status } };
  }
  const legacy = flags.map(([name, value]) => `#legacy_${name} = :legacy${value}`).join(' AND ');
  return {
    condition: `(#status = :statusFrom OR (attribute_not_exists(#status) AND ${legacy}))`,
    names: { '#status': 'status', ...Object.fromEntries(flags.map(([name]) => [`#legacy_${name}`, name])) },
    values: { ':statusFrom': status, ...Object.fromEntries(flags.map(([, value]) => [`:legacy${value}`, value])) },
  };
}

function move(entity: Entity, from: string, to: string): StatusMove {
  const is = statusIs(entity, from);
  return {
    ...is,
    values: { ...is.values, ':statusTo': to },
    set: '#status = :statusTo',
    remove: [...LEGACY_NAMES[entity]],
  };
}

/** The condition that an order is in `status` (no move), e.g. to reserve something first. */
export const orderIs = (status: OrderStatus): StatusExpression => statusIs('order', status);
export const commissionIs = (status: CommissionStatus): StatusExpression => statusIs('commission', status);

/**
 * The sendable condition: in processing and past its hold (an item stored before the hold has no
 * `availableAt` and is available). `:sendableNow` is epoch ms.
 */
export function commissionSendable(now: number): StatusExpression {
  const is = statusIs('commission', 'processing');
  return {
    condition: `(${is.condition} AND (attribute_not_exists(#availableAt) OR #availableAt <= :sendableNow))`,
    names: { ...is.names, '#availableAt': 'availableAt' },
    values: { ...is.values, ':sendableNow': now },
  };
}

/** The write of an order's move `from` → `to`; throws for a move the transition table does not have. */
export function orderMove(from: OrderStatus, to: OrderStatus): StatusMove {
  if (!transitionTo(ORDER_TRANSITIONS, from, to)) throw new Error(`No order transition ${from} → ${to}`);
  return move('order', from, to);
}

/** The write of a commission's move `from` → `to`; throws for a move the transition table does not have. */
export function commissionMove(from: CommissionStatus, to: CommissionStatus): StatusMove {
  if (!transitionTo(COMMISSION_TRANSITIONS, from, to)) throw new Error(`No commission transition ${from} → ${to}`);
  return move('commission', from, to);
}

/** `SET <set>, <more> REMOVE <remove>` for a move and the writes that go with it. */
export function updateExpression(statusMove: StatusMove, set: string[] = [], remove: string[] = []): string {
  const removed = [...statusMove.remove, ...remove];
  return `SET ${[statusMove.set, ...set].join(', ')}${removed.length ? ` REMOVE ${removed.join(', ')}` : ''}`;
}
