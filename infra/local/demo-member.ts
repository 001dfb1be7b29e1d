import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@portal/shared/db/table';
import Stripe from 'stripe';
import { db, isConditionFailed, tableName } from '../../functions/src/adapters/dynamo-client';
import { dynamoUsers } from '../../functions/src/adapters/auth/dynamo-users';
import { connectionOptions } from '../../functions/src/adapters/payments/stripe-gateway';
import { payments, payouts } from '../../functions/src/composition';
import type { UserRecord } from '../../functions/src/auth/user-store';
import { DomainError } from '../../functions/src/errors';
import { addPayoutMethod, createPayoutAccount, type PayoutAccountForm } from '../../functions/src/payments/payouts';

/**
 * The demo member starts payable: on a fresh `npm start`, once, member@example.com gets a
 * connected account on the Stripe emulator and a Visa debit card, through the very payments logic
 * and Stripe adapter the createPayoutAccount and addPayoutMethod handlers use, and a verified
 * e-mail. A new sign-up still walks the whole onboarding.
 *
 * Once: the marker item `DEMO#member` records the account it seeded. A later start finds it,
 * checks that the emulator still holds that account (one retrieve) and changes nothing. When the
 * emulator's state was wiped (`.local/stripe/` removed) but the table was not, the stored stripeID
 * names an account that no longer exists: the member's payout fields are cleared (conditionally,
 * on that stripeID) and the account and card are seeded again, so the demo stays payable rather
 * than pointing at nothing. Each step is also safe to repeat: account creation carries the
 * adapter's idempotency key and is skipped when the member has one, the card is added only when
 * the account has none.
 *
 * Only with the emulator: with the developer's own STRIPE_SECRET_KEY (api.stripe.com) nothing is
 * seeded, since that would create real test-mode objects in their Stripe account.
 */

const DEMO_MEMBER_MARKER = { pk: 'DEMO#member', sk: 'DEMO' };

/** Stripe's test Visa debit card, accepted as a payout card. */
export const DEMO_DEBIT_CARD = '4000056655665556';

/** Plausible demo details: a real Springfield, IL address; Stripe's test SSN. */
export const DEMO_PAYOUT_FORM: PayoutAccountForm = {
  social_profile: 'https://social.example.com/demo-member',
  first_name: 'Dana',
  last_name: 'Demo',
  phone: '2175550142',
  street_address_1: '700 E Adams St',
  address_unit: 'Suite 2',
  city: 'Springfield',
  state: 'IL',
  zipcode: '62701',
  // Stripe's test values that verify at once (docs.stripe.com/connect/testing): the demo member
  // can be paid from the start, at the emulator or with a real test key.
  dob_day: 1,
  dob_month: 1,
  dob_year: 1902,
  tax_id: '222222222',
};

/** The name customers see on the demo member's shop links ("Recommended by Dana from Springfield"). */
export const DEMO_DISPLAY_NAME = 'Dana from Springfield';

export type DemoMemberOutcome =
  | { seeded: true; accountId: string; reseeded: boolean }
  | { seeded: false; reason: 'present' | 'own-stripe-key' | 'no-member'; accountId?: string };

export interface SeedDemoMemberOptions {
  email: string;
  /** STRIPE_API_URL: the emulator. Undefined means the developer's own key at api.stripe.com. */
  stripeApiUrl: string | undefined;
  stripeSecretKey: string;
}

/**
 * Gives a member a connected account (once: skipped when they hold one) and the test debit card
 * (only when the account has none), as the createPayoutAccount and addPayoutMethod handlers do.
 * The demo sales' members (demo-sales.ts) are made payable by it too.
 */
export async function makePayable(
  member: UserRecord,
  form: PayoutAccountForm,
  options: { stripeApiUrl: string; stripeSecretKey: string },
): Promise<string> {
  const user = await createPayoutAccount(payouts, member, form, {
    ip: '127.0.0.1',
    userAgent: 'reseller-portal demo seed',
  });
  const accountId = user.stripeID!;
  if ((await payments.listCards(accountId)).length === 0) {
    const stripe = new Stripe(options.stripeSecretKey, { ...connectionOptions(options.stripeApiUrl) });
    // As the emulator's card form does in the browser: a token from the card's details.
    const token = await stripe.tokens.create({
      card: {
        number: DEMO_DEBIT_CARD,
        exp_month: '12',
        exp_year: String(new Date().getFullYear() + 5),
        cvc: '123',
        currency: 'usd',
      },
    });
    await addPayoutMethod(payouts, user, { id: accountId, token: token.id });
  } else if (!user.isPayoutMethodAdded) {
    await payouts.accounts.setPayoutMethodAdded(user.id, accountId);
  }
  return accountId;
}

/** Seeds the demo member's payout account, card and verified e-mail, once. */
export async function seedDemoMember(options: SeedDemoMemberOptions): Promise<DemoMemberOutcome> {
  if (!options.stripeApiUrl) return { seeded: false, reason: 'own-stripe-key' };
  let user = await dynamoUsers.findByEmail(options.email);
  if (!user) return { seeded: false, reason: 'no-member' };

  const marker = await db().send(
    new GetCommand({ TableName: tableName(), Key: DEMO_MEMBER_MARKER, ConsistentRead: true }),
  );
  let reseeded = false;
  if (user.stripeID) {
    if (await accountExists(user.stripeID)) {
      if (marker.Item) return { seeded: false, reason: 'present', accountId: user.stripeID };
    } else {
      // The emulator lost the account (its state was wiped, the table was not): start the payout side again.
      await forgetPayoutAccount(user.id, user.stripeID);
      user = (await dynamoUsers.get(user.id))!;
      reseeded = true;
    }
  }

  const accountId = await makePayable(user, DEMO_PAYOUT_FORM, { ...options, stripeApiUrl: options.stripeApiUrl });
  await markEmailVerified(user.id);
  await nameForCustomers(user.id);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...DEMO_MEMBER_MARKER,
        entity: 'DemoSeed',
        userId: user.id,
        accountId,
        seededAt: new Date().toISOString(),
      },
    }),
  );
  return { seeded: true, accountId, reseeded };
}

async function accountExists(accountId: string): Promise<boolean> {
  try {
    await payments.retrieveAccount(accountId);
    return true;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not-found') return false;
    throw error;
  }
}

/** Clears the payout fields, only while the user still holds the lost account. */
async function forgetPayoutAccount(userId: string, lostAccountId: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression:
          'SET stripeID = :null, isAccountCreated = :zero, isPayoutMethodAdded = :zero REMOVE payoutAccount',
        ConditionExpression: 'stripeID = :lost',
        ExpressionAttributeValues: { ':null': null, ':zero': 0, ':lost': lostAccountId },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

/** The display name of the shop page, unless the member chose one already. */
async function nameForCustomers(userId: string): Promise<void> {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(userId),
        UpdateExpression: 'SET display_name = :name',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(display_name) OR display_name = :empty)',
        ExpressionAttributeValues: { ':name': DEMO_DISPLAY_NAME, ':empty': '' },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailed(error)) throw error;
    });
}

/** The user record's own flag (UserProfile.isEmailVerified), as following the e-mail's link sets it. */
async function markEmailVerified(userId: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.user(userId),
      UpdateExpression: 'SET isEmailVerified = :true',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}
