import { join } from 'node:path';
import { inject } from 'vitest';
import { mailsIn, type StoredMail } from '../handlers/outbox';

/** The shared portal's mail outbox (its data folder's `outbox/`): the local mailer writes one JSON file a mail there. */
const outbox = () => join(inject('portalDataDir'), 'outbox');

export type { StoredMail } from '../handlers/outbox';

/** The mails sent to an address, oldest first. */
export const mailsTo = (email: string): StoredMail[] => mailsIn(outbox(), email);

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
