import type Stripe from 'stripe';
import { invalid } from './errors';
import { stripeId } from './ids';
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
  // The industry: the MCC, or a description of the product from which Stripe picks one.
  ['business_profile.mcc', (a) => Boolean(a.business_profile?.mcc) || Boolean(a.business_profile?.product_description)],
  ['business_profile.url', (a) => Boolean(a.business_profile?.url) || Boolean(a.business_profile?.product_description)],
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

/**
 * Stripe's identity check of an individual, from the moment every requirement is given: the
 * `transfers` capability is `pending` (the fields in `requirements.pending_verification`) until
 * `dueAt` on the emulator clock, then `active`, or `inactive` with `requirements.errors`.
 */
export interface Verification {
  status: 'pending' | 'verified' | 'failed';
  /** Milliseconds on the emulator clock when the check finishes. */
  dueAt: number;
  outcome: 'verified' | 'failed';
  errors: Stripe.Account.Requirements.Error[];
  /** What Stripe is checking (`requirements.pending_verification` meanwhile). */
  fields: string[];
}

/** How an ID number given for the individual verifies (the number itself is never kept). */
export type IdNumberOutcome = 'verifies' | 'immediate' | 'mismatch';

const IDENTITY_NOT_VERIFIED =
  'The identity information you entered cannot be verified. Please correct any errors or upload a document that matches the identity fields (e.g., name and date of birth) that you entered.';
const ADDRESS_NOT_VERIFIED =
  'The address you entered could not be verified. Please correct any errors or upload a document that matches the address you entered.';
const OFAC_ALERT = 'The individual matches a sanctions list and cannot be verified. Contact Stripe support.';

/**
 * The outcome of Stripe's test mode check, by the test values of docs.stripe.com/connect/testing
 * ("Identity verification"): date of birth 1901-01-01 verifies, 1902-01-01 verifies at once,
 * 1900-01-01 raises an OFAC alert and any other date fails; ID number 000000000 verifies,
 * 222222222 verifies at once, 111111111 fails (identity mismatch); address line 1
 * `address_full_match` verifies, `address_no_match` and `address_line1_no_match` fail.
 */
export function verificationOutcome(
  account: Stripe.Account,
  idNumber: IdNumberOutcome | undefined,
): { outcome: 'verified' | 'failed'; immediate: boolean; errors: Stripe.Account.Requirements.Error[] } {
  const dob = account.individual?.dob;
  const date = dob ? `${dob.year}-${String(dob.month).padStart(2, '0')}-${String(dob.day).padStart(2, '0')}` : '';
  const errors: Stripe.Account.Requirements.Error[] = [];
  if (date === '1900-01-01') {
    errors.push({
      code: 'verification_failed_other',
      reason: OFAC_ALERT,
      requirement: 'individual.verification.document',
    });
  } else if ((date !== '1901-01-01' && date !== '1902-01-01') || idNumber === 'mismatch') {
    errors.push({
      code: 'verification_failed_keyed_identity',
      reason: IDENTITY_NOT_VERIFIED,
      requirement: 'individual.verification.document',
    });
  }
  const line1 = account.individual?.address?.line1;
  if (line1 === 'address_no_match' || line1 === 'address_line1_no_match') {
    errors.push({
      code: 'verification_failed_address_match',
      reason: ADDRESS_NOT_VERIFIED,
      requirement: 'individual.address.line1',
    });
  }
  const immediate = date === '1902-01-01' || idNumber === 'immediate';
  return { outcome: errors.length ? 'failed' : 'verified', immediate, errors };
}

/** The identity fields Stripe checks, as `requirements.pending_verification` names them. */
export function fieldsToVerify(account: Stripe.Account): string[] {
  const fields = [
    'individual.address.line1',
    'individual.dob.day',
    'individual.dob.month',
    'individual.dob.year',
    'individual.first_name',
    'individual.last_name',
  ];
  if (account.individual?.id_number_provided) fields.push('individual.id_number');
  else fields.push('individual.ssn_last_4');
  return fields.sort();
}

/** What the account still lacks for `transfers` (external account aside). */
export function missingRequirements(account: Stripe.Account): string[] {
  return TRANSFER_REQUIREMENTS.filter(([, met]) => !met(account)).map(([name]) => name);
}

/** Recomputes requirements, the capability status and `payouts_enabled` from what the account holds and its check. */
export function evaluate(account: Stripe.Account, externalAccounts: number, verification?: Verification): void {
  const due = missingRequirements(account);
  const requested = account.capabilities?.transfers !== undefined;
  const checking = requested && due.length === 0 ? verification : undefined;
  const failed = checking?.status === 'failed' ? checking.errors : [];
  const transfersActive = checking?.status === 'verified';
  const currentlyDue = [
    ...(requested ? due : []),
    ...failed.map((error) => error.requirement),
    ...(externalAccounts === 0 ? ['external_account'] : []),
  ]
    .filter((name, index, all) => all.indexOf(name) === index)
    .sort();
  account.requirements = {
    ...emptyRequirements(),
    currently_due: currentlyDue,
    eventually_due: currentlyDue,
    past_due: currentlyDue,
    errors: failed,
    pending_verification: checking?.status === 'pending' ? checking.fields : [],
    disabled_reason: currentlyDue.length
      ? 'requirements.past_due'
      : checking?.status === 'pending'
        ? 'requirements.pending_verification'
        : null,
  };
  account.future_requirements = emptyRequirements();
  if (requested) {
    account.capabilities = {
      ...account.capabilities,
      transfers: transfersActive ? 'active' : checking?.status === 'pending' ? 'pending' : 'inactive',
    };
  }
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

/** Applies `individual[...]`; answers how a given ID number verifies (the number is not kept). */
function applyIndividual(account: Stripe.Account, params: Params, now: number): IdNumberOutcome | undefined {
  if (at(params, 'individual') === undefined) return undefined;
  const individual = (account.individual ??= person(account.id, account.created ?? now));
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
  const idNumber = text('id_number');
  if (!idNumber) return undefined;
  if (!/^\d{9}$/.test(idNumber.replace(/-/g, ''))) {
    throw invalid('individual[id_number]', 'The ID number must be 9 digits (the SSN or ITIN).', 'invalid_characters');
  }
  individual.id_number_provided = true;
  individual.ssn_last_4_provided = true;
  const digits = idNumber.replace(/-/g, '');
  return digits === '222222222' ? 'immediate' : digits === '111111111' ? 'mismatch' : 'verifies';
}

/**
 * Applies the create or update parameters the emulator understands; others documented by Stripe
 * are accepted and ignored. Answers how a given ID number verifies, if one was given.
 */
export function applyAccountParams(account: Stripe.Account, params: Params, now: number): IdNumberOutcome | undefined {
  const email = optionalString(params, 'email');
  if (email !== undefined) account.email = email;
  const businessType = optionalString(params, 'business_type');
  if (businessType !== undefined) account.business_type = businessType as Stripe.Account.BusinessType;
  const url = optionalString(params, 'business_profile', 'url');
  const mcc = optionalString(params, 'business_profile', 'mcc');
  const name = optionalString(params, 'business_profile', 'name');
  const productDescription = optionalString(params, 'business_profile', 'product_description');
  if (account.business_profile) {
    if (url !== undefined) account.business_profile.url = url;
    if (mcc !== undefined) account.business_profile.mcc = mcc;
    if (name !== undefined) account.business_profile.name = name;
    if (productDescription !== undefined) account.business_profile.product_description = productDescription;
  }
  applySchedule(account, params);
  const tosDate = optionalString(params, 'tos_acceptance', 'date');
  const tosIp = optionalString(params, 'tos_acceptance', 'ip');
  const tosAgent = optionalString(params, 'tos_acceptance', 'user_agent');
  account.tos_acceptance ??= {};
  if (tosDate !== undefined) account.tos_acceptance.date = Number(tosDate);
  if (tosIp !== undefined) account.tos_acceptance.ip = tosIp;
  if (tosAgent !== undefined) account.tos_acceptance.user_agent = tosAgent;
  const idNumber = applyIndividual(account, params, now);
  if (at(params, 'capabilities', 'transfers', 'requested') === 'true' && !account.capabilities?.transfers) {
    account.capabilities = { ...account.capabilities, transfers: 'inactive' };
  }
  account.metadata = mergeMetadata(account.metadata ?? {}, params);
  return idNumber;
}

/**
 * Stripe's default payout schedule for a new US account: daily, funds paid out two days after
 * they are captured (docs.stripe.com/payouts, "Payout schedule"; decision 0042).
 */
export const DEFAULT_PAYOUT_SCHEDULE = { delay_days: 2, interval: 'daily' } as const;

const INTERVALS = ['daily', 'manual', 'monthly', 'weekly'] as const;

/** `settings[payouts][schedule][interval|delay_days|weekly_anchor|monthly_anchor]`. */
function applySchedule(account: Stripe.Account, params: Params): void {
  const schedule = account.settings?.payouts?.schedule;
  if (!schedule) return;
  const interval = optionalString(params, 'settings', 'payouts', 'schedule', 'interval');
  if (interval !== undefined) {
    if (!(INTERVALS as readonly string[]).includes(interval)) {
      throw invalid(
        'settings[payouts][schedule][interval]',
        `Invalid settings[payouts][schedule][interval]: must be one of ${INTERVALS.join(', ')}`,
      );
    }
    schedule.interval = interval;
  }
  const delay = optionalString(params, 'settings', 'payouts', 'schedule', 'delay_days');
  if (delay !== undefined) {
    if (delay === 'minimum') schedule.delay_days = DEFAULT_PAYOUT_SCHEDULE.delay_days;
    else if (/^\d+$/.test(delay) && Number(delay) >= 2 && Number(delay) <= 365) schedule.delay_days = Number(delay);
    else {
      throw invalid(
        'settings[payouts][schedule][delay_days]',
        'The delay_days must be `minimum` or a number of days from 2 (the minimum for US accounts) to 365.',
      );
    }
  }
  const weekly = optionalString(params, 'settings', 'payouts', 'schedule', 'weekly_anchor');
  if (weekly !== undefined) schedule.weekly_anchor = weekly;
  const monthly = optionalString(params, 'settings', 'payouts', 'schedule', 'monthly_anchor');
  if (monthly !== undefined) schedule.monthly_anchor = Number(monthly);
}

export function newAccount(
  params: Params,
  externalAccountsUrl: (id: string) => string,
  now: number,
): { account: Stripe.Account; idNumber: IdNumberOutcome | undefined } {
  const type = optionalString(params, 'type');
  if (type !== undefined && type !== 'custom') {
    throw invalid(
      'type',
      'The emulator models Custom connected accounts only: use type=custom or controller properties.',
    );
  }
  const id = stripeId('acct', 16);
  const created = now;
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
        schedule: { ...DEFAULT_PAYOUT_SCHEDULE },
        statement_descriptor: null,
      },
    } as Stripe.Account.Settings,
    tos_acceptance: {},
    type: 'custom',
  };
  const idNumber = applyAccountParams(account, params, now);
  return { account, idNumber };
}
