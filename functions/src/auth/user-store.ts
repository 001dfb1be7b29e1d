import type { UserProfile } from '@portal/shared/api/schemas';
import type { MailPreferences } from '@portal/shared/api/order-page';
import { DEFAULT_MAIL_PREFERENCES } from '@portal/shared/domain/mail-preferences';
import { newShareCode } from '@portal/shared/domain/crockford';

/** A stored user: the profile the apps see, plus what only the server may read. */
export interface UserRecord extends UserProfile {
  passwordHash: string;
  createdAt: string;
  /**
   * Sessions started under another generation are ended: a password change moves it on (keeping the
   * changing session's family), a password reset moves it on (keeping none). Absent: 0.
   */
  sessionGeneration?: number;
  /**
   * The generation of the account's mailed links (reset, verification, e-mail change): each link
   * records it when sent and works only while it is unchanged. Every change of the password or the
   * e-mail address moves it on in the change's own write, so every link sent before stops working.
   * Absent: 0.
   */
  linkGeneration?: number;
  /** What Stripe last said of the payout account (payments/payout-store.ts writes it). */
  payoutAccount?: {
    requirementsDue: string[];
    transfers: string;
    payoutsEnabled: boolean;
    /** What Stripe is still verifying; absent on states stored before it was kept. */
    pendingVerification?: string[];
    /** Why Stripe could not verify a detail; absent on states stored before it was kept. */
    errors?: { requirement: string; code: string; reason: string }[];
    updatedAt: string;
    /** When Stripe said it (epoch seconds); absent on states stored before it was kept. */
    asOf?: number;
  };
  /** The member's optional mails; absent: both on (DEFAULT_MAIL_PREFERENCES). */
  mailPreferences?: MailPreferences;
}

export interface UserRepository {
  /**
   * Creates the user and claims its e-mail and its share code in one transaction; false when the
   * e-mail is taken. On the rare share code collision the user gets a new code (set on `user`) and
   * the transaction is tried again.
   */
  create(user: UserRecord): Promise<boolean>;
  /**
   * The user with a share code: theirs, or (for a user stored before codes existed) a new one,
   * claimed and set in one conditional transaction, so two concurrent calls give one code.
   */
  ensureShareCode(user: UserRecord): Promise<UserRecord>;
  get(userId: string): Promise<UserRecord | undefined>;
  findByEmail(normalizedEmail: string): Promise<UserRecord | undefined>;
  setAdmin(userId: string, isAdmin: boolean): Promise<void>;
  /** Keeps the member's choice of optional mails (conditional on the user existing). */
  setMailPreferences(userId: string, preferences: MailPreferences): Promise<void>;
  /** Saves the profile's own fields; undefined when the user is gone. */
  updateProfile(userId: string, profile: ProfileFields): Promise<UserRecord | undefined>;
  /**
   * Sets a new password hash and moves the session generation on, in one transaction conditional
   * on the hash read (`expectedHash`): of two changes at once, one wins (false for the other).
   * `keepFamilyId` (the changing session) is moved to the new generation with it; every other
   * session of the user ends at once. The link generation moves on too: every mailed link ends.
   */
  setPassword(userId: string, expectedHash: string, newHash: string, keepFamilyId?: string): Promise<boolean>;
}

/** What a member edits on My Profile (the e-mail address changes through a verified link). */
export interface ProfileFields {
  first_name: string;
  last_name: string;
  display_name: string;
  phone: string;
  street_address_1: string;
  address_unit: string;
  city: string;
  state: string;
  zipcode: string;
}

/** The member's optional mails as chosen, each one on unless turned off. */
export const mailPreferencesOf = (user: Pick<UserRecord, 'mailPreferences'>): MailPreferences => ({
  ...DEFAULT_MAIL_PREFERENCES,
  ...user.mailPreferences,
});

export function toProfile(user: UserRecord): UserProfile {
  // Listed field by field so that nothing stored for the server (the password hash) can leak.
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone,
    street_address_1: user.street_address_1,
    address_unit: user.address_unit,
    city: user.city,
    state: user.state,
    zipcode: user.zipcode,
    isEmailVerified: user.isEmailVerified,
    isAccountCreated: user.isAccountCreated,
    isPayoutMethodAdded: user.isPayoutMethodAdded,
    stripeID: user.stripeID,
    isAdmin: user.isAdmin,
    shareCode: user.shareCode ?? null,
    mailPreferences: mailPreferencesOf(user),
    display_name: user.display_name ?? '',
    ...(user.payoutAccount
      ? {
          payoutAccount: {
            transfers: user.payoutAccount.transfers,
            payoutsEnabled: user.payoutAccount.payoutsEnabled,
            requirementsDue: user.payoutAccount.requirementsDue,
            pendingVerification: user.payoutAccount.pendingVerification ?? [],
            errors: user.payoutAccount.errors ?? [],
          },
        }
      : {}),
  };
}

export function newUserRecord(id: string, email: string, passwordHash: string, now: Date): UserRecord {
  return {
    id,
    email,
    passwordHash,
    first_name: '',
    last_name: '',
    phone: '',
    street_address_1: '',
    address_unit: '',
    city: '',
    state: '',
    zipcode: '',
    isEmailVerified: false,
    isAccountCreated: 0,
    isPayoutMethodAdded: 0,
    stripeID: null,
    isAdmin: false,
    // Made with the user, stable for life (claimed as SHARE#<code> in the user's transaction).
    shareCode: newShareCode(),
    createdAt: now.toISOString(),
  };
}
