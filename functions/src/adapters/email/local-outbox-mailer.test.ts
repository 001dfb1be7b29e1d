import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verificationMail } from '../../email/verification';
import { installReadOnlyFileSystem, withReadOnlyFileSystem } from '../../../../infra/local/read-only-fs';
import { createLocalOutbox } from './local-outbox-mailer';

const root = mkdtempSync(join(tmpdir(), 'portal-outbox-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the local outbox', () => {
  it('writes each mail as a 0600 file in a 0700 folder and prints its link on one line', async () => {
    const dir = join(root, 'outbox');
    const lines: string[] = [];
    const outbox = createLocalOutbox(dir, (line) => lines.push(line));
    const url = 'http://127.0.0.1:3000/verify_email?token=abc';
    await outbox.send(verificationMail('member@example.com', url));
    await outbox.send(verificationMail('member@example.com', url));
    expect(lines).toEqual([
      `Verification link for member@example.com: ${url}`,
      `Verification link for member@example.com: ${url}`,
    ]);
    const files = readdirSync(dir);
    expect(files).toHaveLength(2);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of files) {
      expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(join(dir, file), 'utf8'))).toMatchObject({
        to: 'member@example.com',
        link: { url },
      });
    }
  });

  it('writes only inside its folder: a function whose one writable place is the outbox sends its mail', async () => {
    // As npm start runs a function: read-only outside /tmp and the outbox, the data folder itself included.
    installReadOnlyFileSystem();
    const dir = join(root, 'data', 'outbox');
    const outbox = createLocalOutbox(dir, () => undefined);
    await withReadOnlyFileSystem([dir], () => outbox.send(verificationMail('member@example.com', 'http://x/verify')));
    expect(readdirSync(dir).filter((name) => name.endsWith('.json'))).toHaveLength(1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.writing'))).toEqual([]);
    expect(readdirSync(join(root, 'data'))).toEqual(['outbox']);
  });
});
