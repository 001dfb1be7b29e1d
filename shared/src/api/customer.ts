import { pure } from './pure';
import * as z from './zod';
import { Email } from './schemas';

/** The buyer of a sale and where it ships: the checkout form, the admin's manual order, the order. */

const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

/** Where the supplier ships the order: a US address. */
export const ShippingAddress = /* @__PURE__ */ pure(() =>
  z.strictObject({
    line1: text(200),
    line2: z.optional(z.string().check(z.trim(), z.maxLength(100))),
    city: text(100).check(z.refine((value: string) => value.length >= 2, 'City must be at least 2 characters')),
    state: z
      .pipe(
        z.string().check(z.trim()),
        z.transform((value: string) => value.toUpperCase()),
      )
      .check(z.refine((value: string) => /^[A-Z]{2}$/.test(value), 'Choose a US state (2-letter code)')),
    postal_code: z.string().check(
      z.trim(),
      z.refine((value: string) => /^\d{5}(-\d{4})?$/.test(value), 'Enter a 5-digit ZIP code (or ZIP+4)'),
    ),
  }),
);
export type ShippingAddress = z.infer<typeof ShippingAddress>;

/** The buyer, as the checkout form and the admin's manual order give them. */
export const Customer = /* @__PURE__ */ pure(() =>
  z.strictObject({
    name: text(200),
    email: Email,
    address: ShippingAddress,
  }),
);
export type Customer = z.infer<typeof Customer>;
