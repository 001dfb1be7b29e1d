import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { Exchange } from './index';
import type { loadStripeOpenApi } from './openapi';

export { StripeFaults, type Fault, type FaultRule, type FaultedRequest } from './faults';
export type { EmulatorClock } from './clock';
export { InstantPayoutsControl } from './instant-payouts';
export { TEST_CARDS, type TestCard } from './cards';

/**
 * An SDK client pointed at the emulator, as the adapter will make one (no retries unless asked),
 * with the key it accepts (`emulator.secretKey`, or the data folder's) or, to see it refused, another.
 */
export function sdk(port: number, key: string | undefined, maxNetworkRetries = 0): Stripe {
  if (!key) throw new Error('Give the Stripe emulator’s key (emulator.secretKey, or STRIPE_SECRET_KEY).');
  return new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries });
}

export interface Delivery {
  payload: string;
  signature: string;
}

/**
 * A webhook endpoint for the tests: records every delivery; `failFirst` deliveries, and every
 * event `refuse(type)` says so of, are answered 500 to exercise the retries (`attemptsOf(type)`
 * counts the posts of a type); `next(type)` resolves with the first delivery of that event type.
 */
export async function webhookReceiver(options: { failFirst?: number; refuse?: (type: string) => boolean } = {}) {
  const deliveries: Delivery[] = [];
  let failuresLeft = options.failFirst ?? 0;
  let attempts = 0;
  const attemptsByType = new Map<string, number>();
  const waiting: { type: string; resolve: (delivery: Delivery) => void }[] = [];
  const typeOf = (delivery: Delivery) => (JSON.parse(delivery.payload) as { type: string }).type;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      attempts++;
      const delivery = {
        payload: Buffer.concat(chunks).toString('utf8'),
        signature: String(request.headers['stripe-signature']),
      };
      const type = typeOf(delivery);
      attemptsByType.set(type, (attemptsByType.get(type) ?? 0) + 1);
      if (failuresLeft > 0 || options.refuse?.(type)) {
        failuresLeft = Math.max(0, failuresLeft - 1);
        response.writeHead(500).end();
        return;
      }
      deliveries.push(delivery);
      for (const waiter of waiting.filter((candidate) => candidate.type === typeOf(delivery))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(delivery);
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    deliveries,
    attempts: () => attempts,
    attemptsOf: (type: string) => attemptsByType.get(type) ?? 0,
    next: (type: string): Promise<Delivery> => {
      const delivered = deliveries.find((delivery) => typeOf(delivery) === type);
      if (delivered) return Promise.resolve(delivered);
      return new Promise((resolve) => waiting.push({ type, resolve }));
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The details that make the `transfers` capability active for an individual in the US at once:
 * Stripe's immediate-verification test date of birth, 1902-01-01 (docs.stripe.com/connect/testing).
 * With 1901-01-01 the check takes the emulator's verification delay; any other date fails it.
 */
export const completeIndividual = {
  business_type: 'individual',
  business_profile: { url: 'https://seller.example.com', mcc: '5734' },
  individual: {
    first_name: 'Jenny',
    last_name: 'Rosen',
    email: 'jenny@example.com',
    dob: { day: 1, month: 1, year: 1902 },
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
    ssn_last_4: '0000',
  },
  tos_acceptance: { date: 1_700_000_000, ip: '127.0.0.1' },
} satisfies Stripe.AccountUpdateParams;

/** A Custom-equivalent connected account, by controller properties, asking for `transfers`. */
export const customAccount = {
  country: 'US',
  email: 'jenny@example.com',
  controller: {
    fees: { payer: 'application' },
    losses: { payments: 'application' },
    requirement_collection: 'application',
    stripe_dashboard: { type: 'none' },
  },
  capabilities: { transfers: { requested: true } },
} satisfies Stripe.AccountCreateParams;

/** The Stripe error a call ends in; a call that succeeds fails the test. */
export async function caught(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error;
    throw error;
  }
  throw new Error('The call succeeded');
}

/** An exchange the emulator refused for a parameter Stripe's document does not list (its answer is Stripe's error). */
export const refusedAsUnknown = (exchange: Exchange): boolean =>
  (exchange.body as { error?: { code?: string } }).error?.code === 'parameter_unknown';

/** Each way the exchanges (those not refused as unknown) differ from Stripe's OpenAPI document, in words. */
export function openApiProblems(
  openApi: ReturnType<typeof loadStripeOpenApi>,
  exchanges: readonly Exchange[],
): string[] {
  return exchanges
    .filter((exchange) => !refusedAsUnknown(exchange))
    .flatMap((exchange) =>
      openApi.check(exchange).map((problem) => `${exchange.method} ${exchange.path} (${exchange.status}): ${problem}`),
    );
}
