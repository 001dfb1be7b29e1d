import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** This test file's mail outbox folder (MAIL_OUTBOX_DIR, setup.ts): the local mailer writes one JSON file a mail there. */
export const outbox = () => process.env.MAIL_OUTBOX_DIR!;

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
