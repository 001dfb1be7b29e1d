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

/** The mails in the outbox folder `dir` sent to an address, oldest first (the browser tests' portal has its own folder). */
export function mailsIn(dir: string, email: string): StoredMail[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as StoredMail)
    .filter((mail) => mail.to === email);
}

/** The mails sent to an address, oldest first. */
export const mailsTo = (email: string): StoredMail[] => mailsIn(outbox(), email);
