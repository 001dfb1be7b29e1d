import { dynamoImports } from './adapters/dynamo-imports';
import { dynamoProducts } from './adapters/dynamo-products';
import { dynamoAttempts } from './adapters/dynamo-attempts';
import { dynamoSessions } from './adapters/dynamo-sessions';
import { dynamoUsers } from './adapters/dynamo-users';
import { s3Files } from './adapters/s3-files';
import { amazonLocationPlaces } from './adapters/amazon-location-places';
import type { AddressSearch } from './addresses/address-search';
import { env } from './config/env';
import { createAuthenticator } from './auth/authenticate';
import { createLoginLimiter, createSignupLimiter } from './auth/rate-limit';
import { createSessions } from './auth/sessions';
import type { UserRepository } from './auth/user-store';
import { clock } from './config/clock';
import { createApiHandler } from './http/api-handler';
import type { FileStore, ImportJobRepository } from './imports/job-store';
import type { ProductRepository } from './products/product-store';

/**
 * The one place where adapters meet ports. Capabilities (auth, catalogue, imports, products)
 * declare the stores they need and never import an adapter; handlers take their stores and
 * services from here. Each export is created once per container, and only when a handler uses
 * it: the calls are marked pure so esbuild drops what a function's bundle does not reach.
 */

export const users: UserRepository = dynamoUsers;
export const products: ProductRepository = dynamoProducts;
export const importJobs: ImportJobRepository = dynamoImports;
export const files: FileStore = s3Files;

/** Every rule with a window or an expiry reads this clock; tests move `clock.now`. */
const now = () => clock.now();
export const sessions = /* @__PURE__ */ createSessions(dynamoSessions, now);
export const loginLimiter = /* @__PURE__ */ createLoginLimiter(dynamoAttempts, now);
export const signupLimiter = /* @__PURE__ */ createSignupLimiter(dynamoAttempts, now);

/** Every /api handler module is `export const handler = apiHandler(name, decide)`. */
export const apiHandler = /* @__PURE__ */ createApiHandler(
  /* @__PURE__ */ createAuthenticator(dynamoUsers, dynamoSessions),
);

/**
 * The address search: Amazon Location in AWS; the embedded one over the US ZIP database when
 * ADDRESS_SEARCH=local (set by infra/local and the handler tests). The local adapter is loaded
 * through a specifier esbuild does not follow, so its ZIP database (some 5 MB) never enters a
 * Lambda bundle; the function in AWS never takes that branch.
 */
const LOCAL_ADDRESS_SEARCH: string = './adapters/local-address-search.ts';
let chosenAddressSearch: Promise<AddressSearch> | undefined;
const chooseAddressSearch = (): Promise<AddressSearch> =>
  (chosenAddressSearch ??=
    env().ADDRESS_SEARCH === 'local'
      ? (import(/* @vite-ignore */ LOCAL_ADDRESS_SEARCH) as Promise<{ localAddressSearch: AddressSearch }>).then(
          (module) => module.localAddressSearch,
        )
      : Promise.resolve(amazonLocationPlaces));
export const addressSearch: AddressSearch = {
  suggest: async (text, limit) => (await chooseAddressSearch()).suggest(text, limit),
};
