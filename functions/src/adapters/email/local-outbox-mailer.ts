import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { localAwsCheck } from '../../config/local-aws-check';
import type { Mailer } from '../../email/mailer';

/**
 * Mail on this machine (npm start, the handler and browser tests): each message is a JSON file in
 * the outbox folder (MAIL_OUTBOX_DIR, `.local/outbox/` under npm start), the folder 0700 and the
 * files 0600 like every local data file, and its link is printed in the server log on one line.
 * A message appears whole or not at all: it is written under a hidden `.…writing` name in the folder
 * and then renamed to its `.json` name, so a reader of the `.json` files (the tests waiting for a
 * mail) never reads half a file. Only the folder is written: it is the one place a function may
 * write besides /tmp (infra/local/read-only-fs.ts), wherever the data folder is.
 *
 * Loaded by composition.ts through a specifier esbuild does not follow: never in a Lambda bundle.
 */
export function createLocalOutbox(dir: string, log: (line: string) => void = (line) => console.log(line)): Mailer {
  return {
    async send(mail) {
      // SES would check the function's role for ses:SendEmail on the sender's identity first.
      await localAwsCheck('SESv2Client', 'SendEmailCommand', {});
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      const sentAt = new Date();
      const file = join(dir, `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.json`);
      const writing = join(dir, `.${basename(file)}.writing`);
      await writeFile(writing, JSON.stringify({ sentAt: sentAt.toISOString(), ...mail }, null, 2), { mode: 0o600 });
      await chmod(writing, 0o600);
      await rename(writing, file);
      log(mail.link ? `${mail.link.label} for ${mail.to}: ${mail.link.url}` : `Mail for ${mail.to}: ${file}`);
    },
  };
}

/** The composition module's entry: the outbox named by MAIL_OUTBOX_DIR (MAIL_OUTBOX_QUIET=1, as in the tests: no log line). */
export const localOutbox = (dir: string): Mailer =>
  createLocalOutbox(dir, process.env.MAIL_OUTBOX_QUIET === '1' ? () => undefined : undefined);
