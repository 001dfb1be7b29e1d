import type { core } from 'zod/mini';

/**
 * The sentence of each kind of validation issue, naming the field and the limit (issue 35: "Value
 * is required" was said of a negative amount and of a 2,000-character password). Every schema of
 * the API gets these where it names no message of its own (./zod.ts configures them), so the API's
 * 400 `fields` and the apps' forms say the same:
 *
 *   missing            The password is required.
 *   too small number   The amount must be 0 or more.
 *   too big number     The amount must be 1,000 or less.
 *   too short / long   The password must be at least 8 characters. / … at most 128 characters.
 *   wrong type         The amount must be a number.
 *   bad enum           The status must be one of: paid, refunded.
 */

/** Field names said otherwise than their words. */
const LABELS: Record<string, string> = {
  email: 'e-mail address',
  zipcode: 'ZIP code',
  postal_code: 'ZIP code',
  street_address_1: 'street address',
  address_unit: 'unit',
  phone: 'phone number',
  state: 'state',
  text: 'search text',
  line1: 'street address',
  line2: 'apartment, suite or unit',
  social_profile: 'social profile link',
  tax_id: 'Social Security number or ITIN',
  dob_day: 'day of birth',
  dob_month: 'month of birth',
  dob_year: 'year of birth',
  tos_accepted: 'acceptance of the terms',
  orderNumber: 'order number',
  qty: 'quantity',
  member: 'member’s e-mail address',
  receive: 'amount to receive',
  from: 'start date',
  to: 'end date',
};

/** Words said in capitals. */
const ACRONYMS: Record<string, string> = { id: 'ID', url: 'URL', zip: 'ZIP', ssn: 'SSN', csv: 'CSV', sku: 'SKU' };

/**
 * The words of a field from its path's last name: `currentPassword` → "current password",
 * `first_name` → "first name", `amountCents` → "amount"; a list's item is named by its list.
 * No name at all (the body itself): "value".
 */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const name = [...path].reverse().find((part): part is string => typeof part === 'string');
  if (name === undefined) return 'value';
  const known = LABELS[name];
  if (known) return known;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  // "amountCents" is the amount (its sentences give cents), "street_address_1" the street address.
  while (words.length > 1 && (words[words.length - 1] === 'cents' || /^\d+$/.test(words[words.length - 1]!))) {
    words.pop();
  }
  return words.map((word) => ACRONYMS[word] ?? word).join(' ') || 'value';
}

const count = (value: number | bigint) =>
  typeof value === 'bigint'
    ? value.toLocaleString('en-US')
    : value.toLocaleString('en-US', { maximumFractionDigits: 6 });
const plural = (value: number | bigint, one: string, many: string) => `${count(value)} ${value == 1 ? one : many}`;

const TYPES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
  null: 'empty (null)',
};

const FORMATS: Record<string, string> = {
  email: 'a valid e-mail address',
  url: 'a valid web address (URL)',
  uuid: 'a valid UUID',
  datetime: 'a date and time (ISO 8601)',
  date: 'a date (YYYY-MM-DD)',
};

/** A value as a list of choices shows it. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The values a union of literals allows, when each of its branches refused only the value. */
function unionValues(issue: core.$ZodRawIssue): unknown[] | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const values: unknown[] = [];
  for (const branch of issue.errors) {
    for (const inner of branch) {
      if (inner.code !== 'invalid_value' || inner.path.length > 0) return undefined;
      values.push(...inner.values);
    }
  }
  return values.length > 0 ? values : undefined;
}

function oneOf(field: string, values: readonly unknown[]): string {
  if (values.length === 1) return `The ${field} must be ${shown(values[0])}.`;
  if (values.length > 12) return `The ${field} is not one of the values allowed.`;
  return `The ${field} must be one of: ${values.map(shown).join(', ')}.`;
}

/** The sentence of one issue. */
export function issueSentence(issue: core.$ZodRawIssue): string {
  const field = fieldLabel(issue.path ?? []);
  const The = `The ${field}`;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${The} is required.`;
      const expected = TYPES[issue.expected] ?? issue.expected;
      return `${The} must be ${expected}.`;
    }
    case 'too_small': {
      const minimum = issue.minimum;
      if (issue.origin === 'number' || issue.origin === 'bigint') {
        return issue.inclusive
          ? `${The} must be ${count(minimum)} or more.`
          : `${The} must be more than ${count(minimum)}.`;
      }
      if (issue.origin === 'string') {
        if (Number(minimum) <= 1) return `${The} is required.`;
        return `${The} must be at least ${plural(minimum, 'character', 'characters')}.`;
      }
      if (issue.origin === 'date') return `${The} must be on or after ${new Date(Number(minimum)).toISOString()}.`;
      return `${The} must have at least ${plural(minimum, 'item', 'items')}.`;
    }
    case 'too_big': {
      const maximum = issue.maximum;
      if (issue.origin === 'number' || issue.origin === 'bigint') {
        return issue.inclusive
          ? `${The} must be ${count(maximum)} or less.`
          : `${The} must be less than ${count(maximum)}.`;
      }
      if (issue.origin === 'string') return `${The} must be at most ${plural(maximum, 'character', 'characters')}.`;
      if (issue.origin === 'date') return `${The} must be on or before ${new Date(Number(maximum)).toISOString()}.`;
      return `${The} must have at most ${plural(maximum, 'item', 'items')}.`;
    }
    case 'invalid_format': {
      const format = FORMATS[issue.format];
      if (format) return `${The} must be ${format}.`;
      if (issue.format === 'starts_with') return `${The} must start with "${String(issue.prefix)}".`;
      if (issue.format === 'ends_with') return `${The} must end with "${String(issue.suffix)}".`;
      if (issue.format === 'includes') return `${The} must contain "${String(issue.includes)}".`;
      return `${The} is not in the expected form.`;
    }
    case 'not_multiple_of':
      return `${The} must be a multiple of ${count(issue.divisor)}.`;
    case 'invalid_value':
      return oneOf(field, issue.values);
    case 'invalid_union': {
      const values = unionValues(issue);
      return values ? oneOf(field, values) : `${The} is not valid.`;
    }
    case 'unrecognized_keys':
      return `Unknown ${issue.keys.length === 1 ? 'field' : 'fields'}: ${issue.keys.join(', ')}. Remove ${issue.keys.length === 1 ? 'it' : 'them'}.`;
    case 'invalid_key':
      return `${The} has a key that is not valid.`;
    case 'invalid_element':
      return `${The} has an item that is not valid.`;
    default:
      return `${The} is not valid.`;
  }
}
