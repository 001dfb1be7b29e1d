import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Stripe from 'stripe';
import { inject } from 'vitest';
import { runningPortal } from '../../infra/local/portal-marker';
import { sdk } from '../../infra/local/stripe/testing';
import { payoutAccountForm } from '../fixtures/payout-account';
import { api, ensureApprovedProduct } from './browser';

/**
 * What the browser tests about money set up through the API and Stripe, before a browser opens:
 * the started portal's own Stripe emulator, a member with a verified payout account (and a debit
 * card), and fulfilled orders on that member's link.
 */

export type Session = { access_token: string; userProfile: { id: string; shareCode: string | null } };

/** The real `stripe` SDK against the started portal's emulator, with the portal's own key (its data folder). */
export function portalStripe(): Stripe {
  const dataDir = inject('portalDataDir');
  const { stripeSecretKey } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as {
    stripeSecretKey: string;
  };
  const portal = runningPortal(dataDir);
  if (!portal) throw new Error(`No portal is running on ${dataDir}.`);
  return sdk(Number(new URL(portal.stripeEmulator).port), stripeSecretKey);
}

/** A card payment to the platform that is available at once: funds for transfers and payouts. */
export function fundPlatform(amount: number): Promise<Stripe.PaymentIntent> {
  return portalStripe().paymentIntents.create({
    amount,
    currency: 'usd',
    payment_method: 'pm_card_bypassPending',
    confirm: true,
  });
}

export interface PayoutMember {
  email: string;
  password: string;
  session: Session;
  /** The member's connected account. */
  accountId: string;
}

/**
 * A new member (`e2e-<tag>-…@example.com`) with a verified payout account in the given name and, with
 * `debitCard`, a Visa debit card ending 5556 that takes instant payouts.
 */
export async function payoutMember(options: {
  tag: string;
  firstName: string;
  lastName: string;
  debitCard?: boolean;
}): Promise<PayoutMember> {
  const email = `e2e-${options.tag}-${randomUUID().slice(0, 8)}@example.com`;
  const password = `e2e-${options.tag}-password`;
  await api('signup', { email, password });
  const session = await api<Session>('login', { email, password });
  const created = await api<{ user: { stripeID: string } }>(
    'createPayoutAccount',
    {
      ...payoutAccountForm,
      social_profile: `https://social.example.com/e2e.${options.tag}`,
      first_name: options.firstName,
      last_name: options.lastName,
    },
    session.access_token,
  );
  const accountId = created.user.stripeID;
  if (options.debitCard) {
    const token = await portalStripe().tokens.create({
      card: { number: '4000056655665556', exp_month: '12', exp_year: '2034', cvc: '123', currency: 'usd' },
    });
    await api('addPayoutMethod', { id: accountId, token: token.id }, session.access_token);
  }
  return { email, password, session, accountId };
}

/**
 * `count` orders of `qty` of an approved product on the member's link, each worked by the admin
 * through ordered, shipped and fulfilled; with `toStripe`, each commission sent to the member's
 * Stripe balance. Gives the admin's access token and the orders' and commissions' ids.
 */
export async function fulfilledOrders(
  member: PayoutMember,
  options: { count: number; qty: number; toStripe?: boolean },
): Promise<{ adminToken: string; orders: { order: { id: string }; commission: { id: string } }[] }> {
  await ensureApprovedProduct();
  const adminToken = (await api<Session>('login', inject('accounts').admin)).access_token;
  const { items } = await api<{ items: { id: string }[] }>(
    'getApprovedProducts',
    { limit: 1 },
    member.session.access_token,
  );
  const orders: { order: { id: string }; commission: { id: string } }[] = [];
  for (let order = 0; order < options.count; order++) {
    const added = await api<{ order: { id: string }; commission: { id: string } }>(
      'addOrder',
      { product_id: items[0]!.id, qty: options.qty, ref: member.session.userProfile.shareCode },
      adminToken,
    );
    for (const step of ['markAsOrdered', 'markAsShipped', 'markAsFufilled']) {
      await api(step, { id: added.order.id }, adminToken);
    }
    if (options.toStripe) await api('addCommisionToStripe', { id: added.commission.id }, adminToken);
    orders.push(added);
  }
  return { adminToken, orders };
}

/** The demo member's payout account, made through the API unless the member has one already. */
export async function ensureDemoMemberPayoutAccount(): Promise<void> {
  const token = (await api<{ access_token: string }>('login', inject('accounts').member)).access_token;
  const profile = await api<{ userProfile?: { isAccountCreated?: number } }>('checkAuth', {}, token).catch(
    () => undefined,
  );
  if (profile?.userProfile?.isAccountCreated !== 1) await api('createPayoutAccount', payoutAccountForm, token);
}
