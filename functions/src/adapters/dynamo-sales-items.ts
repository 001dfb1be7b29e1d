import { commissionStatusOf, orderStatusOf } from '@portal/shared/domain/sales-status';
import type { CommissionRecord, OrderRecord } from '../orders/sales-store';

/**
 * Order and commission items as the stores answer them: without the table's keys, with the status
 * (read from the flags of an item stored before the status). Apart, so that the money movement's
 * functions bundle this and not the recording.
 */

export const strip = <T>(item: Record<string, unknown>): T => {
  const {
    pk: _pk,
    sk: _sk,
    entity: _entity,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    gsi3pk: _e,
    gsi3sk: _f,
    gsi4pk: _g,
    gsi4sk: _h,
    ...rest
  } = item;
  return rest as T;
};

/** The spec's flags of before, dropped from what a read answers: the status says it all. */
const LEGACY_FLAGS = ['isOrdered', 'isShipped', 'isFufilled', 'isPayed', 'isInCustomersAccount', 'orderFulfilled'];
const withoutFlags = (item: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(item).filter(([name]) => !LEGACY_FLAGS.includes(name)));

/** An order item as the store answers it, its status read from its flags when stored before the status. */
export const toOrderRecord = (item: Record<string, unknown>): OrderRecord => ({
  ...strip<OrderRecord>(withoutFlags(item)),
  status: orderStatusOf(item),
});

/** A commission item as the store answers it, its status read from its flags when stored before the status. */
export const toCommissionRecord = <T extends CommissionRecord = CommissionRecord>(item: Record<string, unknown>): T =>
  ({ ...strip<T>(withoutFlags(item)), status: commissionStatusOf(item) }) as T;
