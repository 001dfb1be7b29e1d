import { beforeAll, describe, expect, it } from 'vitest';
import { contract, type EndpointName } from '../../shared/src/api/contract';
import { handler as signup } from '../../functions/src/handlers/signup';
import { routes } from '../../functions/src/routes';
import { ensureAccount } from '../../infra/local/accounts';
import type { ApiHandler } from '../../infra/local/api-event';
import { handler as login } from '../../functions/src/handlers/login';
import { call, uniqueEmail, uniqueIp } from './helpers';

/**
 * Every implemented route (functions/src/routes.ts) called by each kind of caller, with the
 * answer each must get. The body is always one the route refuses ({ unexpected: 1 }), so a
 * caller who gets past authentication and the role check gets the route's own 400, and no call
 * changes anything: 401 = not logged in, 403 = not an admin, 400 = reached the route.
 *
 * A route added to the route table without a line here fails the first test.
 */
type Caller = 'anonymous' | 'member' | 'anotherMember' | 'admin';
type Answers = Record<Caller, 400 | 401 | 403>;

const PUBLIC: Answers = { anonymous: 400, member: 400, anotherMember: 400, admin: 400 };
const MEMBERS: Answers = { anonymous: 401, member: 400, anotherMember: 400, admin: 400 };
const ADMINS: Answers = { anonymous: 401, member: 403, anotherMember: 403, admin: 400 };

/**
 * No implemented route reads one member's own data yet, so another member gets what a member
 * gets; a route that does (getCommisionsByUser) must say here what another member is answered.
 */
const expected: Record<string, Answers> = {
  signup: PUBLIC,
  login: PUBLIC,
  checkAuth: PUBLIC,
  logout: PUBLIC,
  products: ADMINS,
  createProductUpload: ADMINS,
  getImportJob: ADMINS,
  retryImportPictures: ADMINS,
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
  getOrderPaymentCard: ADMINS,
} satisfies Partial<Record<EndpointName, Answers>>;

const MESSAGES: Record<401 | 403, string> = {
  401: 'Log in to continue: this call needs an access token.',
  403: 'This is for administrators only.',
};

const tokens: Record<Caller, string | undefined> = {
  anonymous: undefined,
  member: undefined,
  anotherMember: undefined,
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
  [tokens.member, tokens.anotherMember, tokens.admin] = await Promise.all([member(), member(), admin()]);
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
    (['anonymous', 'member', 'anotherMember', 'admin'] as const).map((caller) => [route.name, caller, route] as const),
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
