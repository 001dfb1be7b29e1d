import type { UserProfile } from '@portal/shared/api/schemas';
import type { RequirementError } from './payment-gateway';

/** A connected account's state as the portal keeps it; never the tax ID or the date of birth. */
export interface PayoutAccountState {
  requirementsDue: string[];
  transfers: string;
  payoutsEnabled: boolean;
  /** What Stripe is still verifying (the member reads "Verifying" meanwhile). */
  pendingVerification?: string[];
  /** Why Stripe could not verify a detail (requirement, code, reason). */
  errors?: RequirementError[];
  updatedAt: string;
  /**
   * When Stripe said this, in epoch seconds (the `created` of the event that brought it, the
   * account's creation, or a retrieve): a write never replaces a newer one.
   */
  asOf: number;
}

/** The profile fields the payout account form fills in. */
export type PayoutProfile = Pick<
  UserProfile,
  'first_name' | 'last_name' | 'phone' | 'street_address_1' | 'address_unit' | 'city' | 'state' | 'zipcode'
>;

/** The member's acceptance of Stripe's terms, as the account's creation sends it (`tos_acceptance`). */
export interface AccountRequest {
  /** ISO time of the first attempt. */
  acceptedAt: string;
  ip: string;
  userAgent?: string;
}

/** The payout side of a stored user; its writes are conditional on the account the user holds. */
export interface PayoutAccountStore {
  /**
   * Stores the new payout account (stripeID, isAccountCreated = 1) with the profile the form
   * filled in, only while the user has none: false when an account was stored first.
   */
  savePayoutAccount(
    userId: string,
    stripeID: string,
    profile: PayoutProfile,
    state: PayoutAccountState,
  ): Promise<boolean>;
  /**
   * Keeps the first attempt's terms acceptance while the user has no account, and answers the kept
   * one, so every attempt sends Stripe the same parameters under the same key: a retry after Stripe
   * did not answer replays the account Stripe made. Undefined when an account is stored already.
   */
  keepAccountRequest(userId: string, request: AccountRequest): Promise<AccountRequest | undefined>;
  /** isPayoutMethodAdded = 1, while the user's account is still `stripeID`. */
  setPayoutMethodAdded(userId: string, stripeID: string): Promise<boolean>;
  /**
   * Keeps the account's state current, only while the user holds `stripeID` and the stored state
   * is older than `state.asOf` (or has none; `orSameSecond`: or as old); false otherwise.
   */
  setPayoutAccountState(
    userId: string,
    stripeID: string,
    state: PayoutAccountState,
    orSameSecond?: boolean,
  ): Promise<boolean>;
}
