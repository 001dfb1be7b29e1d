import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/** The shared portal's mail outbox (its data folder's `outbox/`): the local mailer writes one JSON file a mail there. */
const outbox = () => join(inject('portalDataDir'), 'outbox');

/** A mail as the local outbox mailer stores it. */
export interface StoredMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link?: { label: string; url: string };
}

/** The mails sent to an address, oldest first. */
export function mailsTo(email: string): StoredMail[] {
  if (!existsSync(outbox())) return [];
  return readdirSync(outbox())
    .sort()
    .map((name) => JSON.parse(readFileSync(join(outbox(), name), 'utf8')) as StoredMail)
    .filter((mail) => mail.to === email);
}

/** The links of the mails sent to an address whose link has this label, oldest first. */
export const linksTo = (email: string, label: string): string[] =>
  mailsTo(email)
    .filter((mail) => mail.link?.label === label)
    .map((mail) => mail.link!.url);

/** The first mail to an address whose subject matches, once it is there (20 s at the most). */
export async function waitForMail(email: string, subject: RegExp): Promise<StoredMail> {
  for (let round = 0; round < 100; round++) {
    const found = mailsTo(email).find((mail) => subject.test(mail.subject));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `No mail to ${email} matching ${subject}: ${mailsTo(email)
      .map((mail) => mail.subject)
      .join(', ')}`,
  );
}
