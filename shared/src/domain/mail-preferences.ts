/**
 * The member's optional mails when they have not chosen: both on. Apart from the schemas
 * (shared/src/api/order-page.ts), so the member app's first screen carries no zod for it.
 */
export const DEFAULT_MAIL_PREFERENCES = { saleMails: true, payoutMails: true } as const;
