import type { PayoutNotice, SaleNotice } from '../commissions/stripe-events';
import {
  retryUnlessSent,
  sendBatchPayoutOnItsWay,
  sendDisputeOpened,
  sendMemberPayoutFailed,
  sendPayoutFailed,
  sendPayoutOnItsWay,
  sendRefundFailed,
  settled,
  type MailDeps,
} from './mails';

/**
 * The mails of the webhooks' notices (commissions/stripe-events.ts), each once per event through
 * its claim. While another delivery holds a mail's claim the notice throws (retryUnlessSent), so
 * Stripe delivers the event again and finds the mail sent.
 */

/** The admins' "a refund failed" (once per refund) and "a dispute was opened" (once per event). */
export const sendSaleNotice = async (mails: MailDeps, notice: SaleNotice): Promise<void> =>
  retryUnlessSent(
    await settled(() =>
      notice.kind === 'refund-failed' ? sendRefundFailed(mails, notice.facts) : sendDisputeOpened(mails, notice.facts),
    ),
  );

/**
 * A payout's mails: the member's "on its way" (once per payout); for a failure the member's own
 * mail first (why, and what to do), then the admins'.
 */
export async function sendPayoutNotice(mails: MailDeps, notice: PayoutNotice): Promise<void> {
  if (notice.kind === 'batch-on-its-way') {
    return retryUnlessSent(await settled(async () => [await sendBatchPayoutOnItsWay(mails, notice.batch)]));
  }
  if (notice.kind === 'on-its-way') {
    return retryUnlessSent(await settled(async () => [await sendPayoutOnItsWay(mails, notice.commissionId)]));
  }
  const { event, batch, moved } = notice;
  retryUnlessSent(
    await settled(async () => [
      await sendMemberPayoutFailed(mails, {
        payoutId: event.payoutId,
        failureCode: event.failureCode,
        failure: event.failure,
        commissionId: event.metadata.commissionId,
        ...(batch ? { batch } : {}),
        amountCents: event.amountCents ?? null,
        moved,
      }),
    ]),
  );
  retryUnlessSent(
    await settled(() =>
      sendPayoutFailed(mails, {
        eventId: event.id,
        payoutId: event.payoutId,
        failure: event.failure,
        commissionId: event.metadata.commissionId,
        ...(batch ? { batch } : {}),
      }),
    ),
  );
}
