import { beforeAll, describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { contract, type EndpointName } from '../../shared/src/api/contract';
import { handler as signup } from '../../functions/src/handlers/signup';
import { routes } from '../../functions/src/routes';
import { ensureAccount } from '../../infra/local/accounts';
import type { ApiHandler } from '../../infra/local/api-event';
import { handler as login } from '../../functions/src/handlers/login';
import { auth, call, tokenFor, uniqueEmail, uniqueIp } from './helpers';
import {
  addedOrder,
  debitCardToken,
  payableMember,
  product,
  stripeAtEmulator,
  type PayableMember,
} from './sales-helpers';

/**
 * Every implemented route (functions/src/routes.ts) called by each kind of caller, with the
 * answer each must get. The body is always one the route refuses ({ unexpected: 1 }), so a
 * caller who gets past authentication and the role check gets the route's own 400, and no call
 * changes anything: 401 = not logged in, 403 = not an admin, 400 = reached the route.
 * Whose resource a member may name is the second table's (`ownership`, below): valid bodies that
 * name another member's payout account or commissions.
 *
 * A route added to the route table without a line here fails the first test.
 */
type Caller = 'anonymous' | 'member' | 'admin';
type Answers = Record<Caller, 400 | 401 | 403>;

const PUBLIC: Answers = { anonymous: 400, member: 400, admin: 400 };
const MEMBERS: Answers = { anonymous: 401, member: 400, admin: 400 };
const ADMINS: Answers = { anonymous: 401, member: 403, admin: 400 };

const expected: Record<string, Answers> = {
  signup: PUBLIC,
  login: PUBLIC,
  checkAuth: PUBLIC,
  logout: PUBLIC,
  products: ADMINS,
  createProductUpload: ADMINS,
  getImportJob: ADMINS,
  retryImportPictures: ADMINS,
  getCheckoutCancels: ADMINS,
  getImportIssues: ADMINS,
  getRejectedRowsCsv: ADMINS,
  approveProduct: ADMINS,
  banProduct: ADMINS,
  getUnApprovedProducts: ADMINS,
  getImportedProduct: ADMINS,
  getApprovedProducts: MEMBERS,
  getApprovedProduct: MEMBERS,
  getCatalogueProducts: ADMINS,
  withdrawProduct: ADMINS,
  returnProductToReview: ADMINS,
  getAdminSummary: ADMINS,
  searchAddress: MEMBERS,
  // A member's own payout account: another member's stripeID is a 404 (test/handlers/payouts.test.ts).
  createPayoutAccount: MEMBERS,
  addPayoutMethod: MEMBERS,
  getExternalAccounts: MEMBERS,
  // Public: the customer's checkout reads the publishable key (public by design) without a login.
  getPaymentConfig: PUBLIC,
  // Public: a link verifies without a session; `send` asks for one itself (test/handlers/verify-email.test.ts).
  verifyEmail: PUBLIC,
  // Public: the customer's checkout on a share link (test/handlers/payment-intent.test.ts).
  getPaymentIntent: PUBLIC,
  // Public, but only Stripe's signature gets past the 400 (test/handlers/stripe-webhook.test.ts).
  stripeWebhook: PUBLIC,
  stripeConnectWebhook: PUBLIC,
  // The sales loop (test/handlers/orders.test.ts, commissions-read.test.ts).
  getSharedProduct: PUBLIC,
  confirmCheckout: PUBLIC,
  addOrder: ADMINS,
  getOrders: ADMINS,
  getOrdersNotOrdered: ADMINS,
  getOrdersNotShipped: ADMINS,
  getOrdersNotFufilled: ADMINS,
  markAsOrdered: ADMINS,
  markAsShipped: ADMINS,
  markAsFufilled: ADMINS,
  getCommisions: ADMINS,
  getCommisionsToStripe: ADMINS,
  getCommisionsToBePayed: ADMINS,
  getTopEarners: ADMINS,
  // A member's own: another member's id is a 404 (test/handlers/commissions-read.test.ts).
  getCommisionsByUser: MEMBERS,
  exportCsv: ADMINS,
  // The commission's transfer and payout (test/handlers/money-movement.test.ts).
  addCommisionToStripe: ADMINS,
  payCommisionToMember: ADMINS,
  // Public: the customer's order page by its link's token (test/handlers/mails.test.ts).
  getOrderPage: PUBLIC,
  // The member's own mail preferences (test/handlers/mails.test.ts).
  saveMailPreferences: MEMBERS,
  // A member's self-service (test/handlers/self-service.test.ts); the reset calls are public.
  updateProfile: MEMBERS,
  changeEmail: MEMBERS,
  changePassword: MEMBERS,
  replacePayoutMethod: MEMBERS,
  updatePayoutAccount: MEMBERS,
  getPayoutAccount: MEMBERS,
  requestPasswordReset: PUBLIC,
  resetPassword: PUBLIC,
  checkResetLink: PUBLIC,
  // A refund through Stripe; the commission follows (test/handlers/ledger.test.ts).
  refundOrder: ADMINS,
  // Payout batches and withdrawals (test/handlers/payout-batches.test.ts).
  runPayoutBatch: ADMINS,
  getWithdrawalQuote: MEMBERS,
  withdraw: MEMBERS,
  // Reconciliation of our ledger with Stripe's (test/handlers/reconcile.test.ts).
  reconcile: ADMINS,
  // An admin's decision on a commission held at its sale (test/handlers/abuse.test.ts).
  reviewHeldCommission: ADMINS,
  getHeldCommissions: ADMINS,
  getMemberPayoutCard: ADMINS,
  getMemberDebts: ADMINS,
  getCommissionRules: ADMINS,
  previewCommissionRule: ADMINS,
  changeCommissionRule: ADMINS,
  changeMemberGroup: ADMINS,
  getGroupMembers: ADMINS,
  getRuleAudit: ADMINS,
  getOrderPaymentCard: ADMINS,
  // Members' discount codes (test/handlers/discount-codes.test.ts): the admin's, the member's own, the customer's Apply.
  createDiscountCode: ADMINS,
  disableDiscountCode: ADMINS,
  getDiscountCodes: ADMINS,
  getMyDiscountCodes: MEMBERS,
  checkDiscountCode: PUBLIC,
  // Link statistics (test/handlers/link-statistics.test.ts).
  countVisit: PUBLIC,
  getMyLinkStatistics: MEMBERS,
  getLinkStatistics: ADMINS,
} satisfies Partial<Record<EndpointName, Answers>>;

const MESSAGES: Record<401 | 403, string> = {
  401: 'Log in to continue: this call needs an access token.',
  403: 'This is for administrators only.',
};

const tokens: Record<Caller, string | undefined> = {
  anonymous: undefined,
  member: undefined,
  admin: undefined,
};

beforeAll(async () => {
  const member = async () => {
    const result = await call(signup, { body: { email: uniqueEmail('table'), password: 'long enough password' } });
    return String(result.body.access_token);
  };
  const admin = async () => {
    const email = uniqueEmail('table-admin');
    await ensureAccount(email, 'long enough password', true);
    const result = await call(login, { body: { email, password: 'long enough password' }, sourceIp: uniqueIp() });
    return String(result.body.access_token);
  };
  [tokens.member, tokens.admin] = await Promise.all([member(), admin()]);
});

const handlers = new Map<string, ApiHandler>();
async function handlerOf(module: string): Promise<ApiHandler> {
  let handler = handlers.get(module);
  if (!handler) {
    handler = ((await import(`../../functions/src/${module}`)) as { handler: ApiHandler }).handler;
    handlers.set(module, handler);
  }
  return handler;
}

describe('the authorization table', () => {
  it('has a line for every route in the route table, and none for a route that is not there', () => {
    expect(Object.keys(expected).sort()).toEqual(routes.map((route) => route.name).sort());
  });

  it("agrees with each route's role in the contract", () => {
    const byRole = { public: PUBLIC, member: MEMBERS, admin: ADMINS };
    for (const route of routes)
      expect([route.name, expected[route.name]]).toEqual([route.name, byRole[contract[route.name].role]]);
  });

  const cases = routes.flatMap((route) =>
    (['anonymous', 'member', 'admin'] as const).map((caller) => [route.name, caller, route] as const),
  );

  it.each(cases)('%s called by %s', async (name, caller, route) => {
    const token = tokens[caller];
    const result = await call(await handlerOf(route.module), {
      body: { unexpected: 1 },
      headers: token ? { authorization: `Bearer ${token}` } : {},
      path: route.path,
      sourceIp: uniqueIp(),
    });
    const answer = expected[name]![caller];
    expect(result.status).toBe(answer);
    if (answer === 401 || answer === 403) expect(result.body.message).toBe(MESSAGES[answer]);
  });
});

/**
 * A member naming another member's resource in a valid body: every member call that takes one
 * (a payout account's id, a member's id for their commissions) is refused with the same 404 an
 * unknown id gets, and what the owner has stays as it was. The same body from the owner is then
 * answered 200, so the refusal is about whose resource it is, not about the body.
 */
interface OwnershipCase {
  /** A valid body naming the owner's resource. */
  body: (owner: PayableMember) => Promise<Record<string, unknown>>;
  /** The refusal's body: the words an unknown id gets too. */
  refusal: { message: string; fields?: Record<string, string> };
}

const NO_COMMISSIONS = 'There are no commissions of this member for you to see.';
let stripe: Stripe;
const cardToken = () => debitCardToken(stripe, '5200828282828210');
const ownership: Partial<Record<EndpointName, OwnershipCase>> = {
  getExternalAccounts: {
    body: async (owner) => ({ id: owner.accountId }),
    refusal: { message: 'No such payout account.' },
  },
  addPayoutMethod: {
    body: async (owner) => ({ id: owner.accountId, token: await cardToken() }),
    refusal: { message: 'No such payout account.' },
  },
  replacePayoutMethod: {
    body: async (owner) => ({ id: owner.accountId, token: await cardToken() }),
    refusal: { message: 'No such payout account.' },
  },
  getCommisionsByUser: {
    body: async (owner) => ({ id: owner.id }),
    refusal: { message: NO_COMMISSIONS, fields: { id: NO_COMMISSIONS } },
  },
};

/** Member calls that name no member's resource: they act on the caller's own, found by their session. */
const bySession: EndpointName[] = [
  'createPayoutAccount',
  'updatePayoutAccount',
  'getPayoutAccount',
  'saveMailPreferences',
  'updateProfile',
  'changeEmail',
  'changePassword',
  'getWithdrawalQuote',
  'withdraw',
  'getMyDiscountCodes',
  'getMyLinkStatistics',
];
/** Member calls on what no member owns: the approved catalogue and the address search. */
const everyones: EndpointName[] = ['getApprovedProducts', 'getApprovedProduct', 'searchAddress'];

/** The request's own idempotency key, kept per member: a withdrawal's batch is found by member and key. */
const ownKeys = ['requestId'];

/** The top-level field names of a call's body, where its schema is an object. */
function bodyFields(name: EndpointName): string[] {
  const def = (contract[name].request as unknown as { def: { shape?: Record<string, unknown> } }).def;
  return Object.keys(def.shape ?? {});
}

describe("a member naming another member's resource", () => {
  const memberRoutes = routes.filter((route) => contract[route.name].role === 'member').map((route) => route.name);

  it('has a case for every member call that takes a resource; the others name none', () => {
    expect([...Object.keys(ownership), ...bySession, ...everyones].sort()).toEqual([...memberRoutes].sort());
    // A session call that grows an id field (`id`, `memberId`, `stripeID`…) needs an ownership case instead.
    for (const name of bySession)
      expect([
        name,
        bodyFields(name).filter((field) => /(^id|Id|ID)$/.test(field) && !ownKeys.includes(field)),
      ]).toEqual([name, []]);
  });

  let owner: PayableMember;
  let stranger: PayableMember;
  beforeAll(async () => {
    stripe = stripeAtEmulator();
    // Both have a payout account with a debit card: the stranger's refusal is not for lacking one.
    [owner, stranger] = await Promise.all([payableMember(stripe), payableMember(stripe)]);
    const admin = await tokenFor(true);
    await addedOrder(admin, owner, await product(2500));
  });

  /** What the owner has that these calls read or change: their cards at Stripe and their commissions. */
  const ownerState = async () => ({
    cards: (await stripe.accounts.listExternalAccounts(owner.accountId, { object: 'card' })).data.map((card) => [
      card.id,
      card.last4,
      card.default_for_currency,
    ]),
    commissions: (
      await call(await handlerOf('handlers/get-commissions-by-user.ts'), {
        body: { id: owner.id },
        headers: auth(owner.token),
      })
    ).body,
  });

  it.each(Object.entries(ownership))('%s is refused, and the owner is answered', async (name, { body, refusal }) => {
    const route = routes.find((candidate) => candidate.name === name)!;
    const handler = await handlerOf(route.module);
    const before = await ownerState();
    expect((before.commissions as { items: unknown[] }).items).toHaveLength(1);
    const request = await body(owner);
    const refused = await call(handler, { body: request, headers: auth(stranger.token), path: route.path });
    expect([refused.status, refused.body]).toEqual([404, refusal]);
    expect(await ownerState()).toEqual(before);
    const answered = await call(handler, { body: request, headers: auth(owner.token), path: route.path });
    expect(answered.status).toBe(200);
  });
});
