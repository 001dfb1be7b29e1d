/**
 * Who gets the administrators' mails ("a payout failed", "a dispute was opened"): ADMIN_MAIL_TO,
 * one address or several separated by commas, set by the stack from the `adminMailTo` context and
 * by `npm start` to the demo admin. Read here only. Unset or empty: those mails are not sent, and
 * the function logs that once per mail (the money events themselves are still applied).
 */
const ADDRESS = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

export function adminMailTo(source: Record<string, string | undefined> = process.env): string[] {
  const raw = source.ADMIN_MAIL_TO ?? '';
  const addresses = raw
    .split(',')
    .map((address) => address.trim().toLowerCase())
    .filter(Boolean);
  const wrong = addresses.filter((address) => !ADDRESS.test(address));
  if (wrong.length) {
    throw new Error(
      `Setting out of range: ADMIN_MAIL_TO must be e-mail addresses separated by commas (not ${wrong.join(', ')})`,
    );
  }
  return [...new Set(addresses)];
}
