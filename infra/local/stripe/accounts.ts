import type Stripe from 'stripe';
import { invalid } from './errors';
import { stripeId, unixNow } from './ids';
import { at, mergeMetadata, optionalString, type Params } from './params';

/**
 * Connected accounts as Custom accounts are: the platform collects the requirements
 * (`controller.requirement_collection: 'application'`), Stripe has no dashboard for them.
 * Only the `transfers` capability is modelled; it turns `active` once the individual's name,
 * date of birth, address, SSN last 4 (or ID number), the terms of service acceptance and the
 * business URL are on the account. Payouts also need an external account.
 */

/** What the `transfers` capability needs of an individual in the US, by the requirement names Stripe uses. */
const TRANSFER_REQUIREMENTS: [string, (account: Stripe.Account) => boolean][] = [
  ['business_profile.url', (a) => Boolean(a.business_profile?.url)],
  ['business_type', (a) => Boolean(a.business_type)],
  ['individual.address.city', (a) => Boolean(a.individual?.address?.city)],
  ['individual.address.line1', (a) => Boolean(a.individual?.address?.line1)],
  ['individual.address.postal_code', (a) => Boolean(a.individual?.address?.postal_code)],
  ['individual.address.state', (a) => Boolean(a.individual?.address?.state)],
  ['individual.dob.day', (a) => Boolean(a.individual?.dob?.day)],
  ['individual.dob.month', (a) => Boolean(a.individual?.dob?.month)],
  ['individual.dob.year', (a) => Boolean(a.individual?.dob?.year)],
  ['individual.first_name', (a) => Boolean(a.individual?.first_name)],
  ['individual.last_name', (a) => Boolean(a.individual?.last_name)],
  [
    'individual.ssn_last_4',
    (a) => Boolean(a.individual?.ssn_last_4_provided) || Boolean(a.individual?.id_number_provided),
  ],
  ['tos_acceptance.date', (a) => Boolean(a.tos_acceptance?.date)],
  ['tos_acceptance.ip', (a) => Boolean(a.tos_acceptance?.ip)],
];

function emptyRequirements(): Stripe.Account.Requirements {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [],
    disabled_reason: null,
    errors: [],
    eventually_due: [],
    past_due: [],
    pending_verification: [],
  };
}

/** Recomputes requirements, the capability status and `payouts_enabled` from what the account holds. */
export function evaluate(account: Stripe.Account, externalAccounts: number): void {
  const due = TRANSFER_REQUIREMENTS.filter(([, met]) => !met(account)).map(([name]) => name);
  const requested = account.capabilities?.transfers !== undefined;
  const transfersActive = requested && due.length === 0;
  const currentlyDue = [...(requested ? due : []), ...(externalAccounts === 0 ? ['external_account'] : [])].sort();
  account.requirements = {
    ...emptyRequirements(),
    currently_due: currentlyDue,
    eventually_due: currentlyDue,
    past_due: currentlyDue,
    disabled_reason: currentlyDue.length ? 'requirements.past_due' : null,
  };
  account.future_requirements = emptyRequirements();
  if (requested) account.capabilities = { ...account.capabilities, transfers: transfersActive ? 'active' : 'inactive' };
  account.payouts_enabled = transfersActive && externalAccounts > 0;
  account.details_submitted = due.length === 0;
  account.charges_enabled = false;
}

function person(accountId: string, created: number): Stripe.Person {
  return {
    id: stripeId('person', 24),
    object: 'person',
    account: accountId,
    created,
    address: { city: null, country: 'US', line1: null, line2: null, postal_code: null, state: null },
    dob: { day: null, month: null, year: null },
    email: null,
    first_name: null,
    last_name: null,
    id_number_provided: false,
    metadata: {},
    phone: null,
    relationship: {
      director: false,
      executive: false,
      owner: false,
      percent_ownership: null,
      representative: true,
      title: null,
    } as Stripe.Person.Relationship,
    requirements: null,
    ssn_last_4_provided: false,
    verification: {
      additional_document: null,
      details: null,
      details_code: null,
      document: { back: null, details: null, details_code: null, front: null },
      status: 'unverified',
    },
  } as Stripe.Person;
}

function applyIndividual(account: Stripe.Account, params: Params): void {
  if (at(params, 'individual') === undefined) return;
  const individual = (account.individual ??= person(account.id, account.created ?? unixNow()));
  const text = (...path: string[]) => optionalString(params, 'individual', ...path);
  individual.first_name = text('first_name') ?? individual.first_name;
  individual.last_name = text('last_name') ?? individual.last_name;
  individual.email = text('email') ?? individual.email;
  individual.phone = text('phone') ?? individual.phone;
  const address = (individual.address ??= {
    city: null,
    country: null,
    line1: null,
    line2: null,
    postal_code: null,
    state: null,
  });
  for (const field of ['city', 'country', 'line1', 'line2', 'postal_code', 'state'] as const) {
    address[field] = text('address', field) ?? address[field];
  }
  const dob = (individual.dob ??= { day: null, month: null, year: null });
  for (const field of ['day', 'month', 'year'] as const) {
    const value = text('dob', field);
    if (value !== undefined) {
      if (!/^\d+$/.test(value)) throw invalid(`individual[dob][${field}]`, `Invalid integer: ${value}`);
      dob[field] = Number(value);
    }
  }
  const ssn = text('ssn_last_4');
  if (ssn !== undefined) {
    if (!/^\d{4}$/.test(ssn)) {
      throw invalid('individual[ssn_last_4]', 'The SSN last 4 must be 4 digits.', 'invalid_characters');
    }
    individual.ssn_last_4_provided = true;
  }
  if (text('id_number')) individual.id_number_provided = true;
}

/** Applies the create or update parameters the emulator understands; others documented by Stripe are accepted and ignored. */
export function applyAccountParams(account: Stripe.Account, params: Params): void {
  const email = optionalString(params, 'email');
  if (email !== undefined) account.email = email;
  const businessType = optionalString(params, 'business_type');
  if (businessType !== undefined) account.business_type = businessType as Stripe.Account.BusinessType;
  const url = optionalString(params, 'business_profile', 'url');
  const mcc = optionalString(params, 'business_profile', 'mcc');
  const name = optionalString(params, 'business_profile', 'name');
  if (account.business_profile) {
    if (url !== undefined) account.business_profile.url = url;
    if (mcc !== undefined) account.business_profile.mcc = mcc;
    if (name !== undefined) account.business_profile.name = name;
  }
  const tosDate = optionalString(params, 'tos_acceptance', 'date');
  const tosIp = optionalString(params, 'tos_acceptance', 'ip');
  const tosAgent = optionalString(params, 'tos_acceptance', 'user_agent');
  account.tos_acceptance ??= {};
  if (tosDate !== undefined) account.tos_acceptance.date = Number(tosDate);
  if (tosIp !== undefined) account.tos_acceptance.ip = tosIp;
  if (tosAgent !== undefined) account.tos_acceptance.user_agent = tosAgent;
  applyIndividual(account, params);
  if (at(params, 'capabilities', 'transfers', 'requested') === 'true' && !account.capabilities?.transfers) {
    account.capabilities = { ...account.capabilities, transfers: 'inactive' };
  }
  account.metadata = mergeMetadata(account.metadata ?? {}, params);
}

export function newAccount(params: Params, externalAccountsUrl: (id: string) => string): Stripe.Account {
  const type = optionalString(params, 'type');
  if (type !== undefined && type !== 'custom') {
    throw invalid(
      'type',
      'The emulator models Custom connected accounts only: use type=custom or controller properties.',
    );
  }
  const id = stripeId('acct', 16);
  const created = unixNow();
  const account: Stripe.Account = {
    id,
    object: 'account',
    business_profile: {
      mcc: null,
      minority_owned_business_designation: null,
      name: null,
      product_description: null,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: null,
    capabilities: {},
    charges_enabled: false,
    controller: {
      fees: { payer: 'application' },
      is_controller: true,
      losses: { payments: 'application' },
      requirement_collection: 'application',
      stripe_dashboard: { type: 'none' },
      type: 'application',
    },
    country: optionalString(params, 'country') ?? 'US',
    created,
    default_currency: (optionalString(params, 'default_currency') ?? 'usd').toLowerCase(),
    details_submitted: false,
    email: null,
    external_accounts: { object: 'list', data: [], has_more: false, url: externalAccountsUrl(id) },
    metadata: {},
    payouts_enabled: false,
    settings: {
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_payments: { decline_on: { avs_failure: false, cvc_failure: false }, statement_descriptor_prefix: null },
      dashboard: { display_name: null, timezone: 'Etc/UTC' },
      payments: { statement_descriptor: null },
      payouts: {
        debit_negative_balances: true,
        schedule: { delay_days: 2, interval: 'manual' },
        statement_descriptor: null,
      },
    } as Stripe.Account.Settings,
    tos_acceptance: {},
    type: 'custom',
  };
  applyAccountParams(account, params);
  return account;
}
