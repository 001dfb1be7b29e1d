import { createHash, X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';

/** A certificate for `localhost` and `127.0.0.1`, made for one run and never written to disk. */
export interface LocalCertificate {
  /** The private key, PKCS #8 PEM. */
  key: string;
  /** The self-signed certificate, PEM. */
  cert: string;
  /**
   * The base64 SHA-256 of its public key (SPKI): what Chromium's
   * `--ignore-certificate-errors-spki-list` takes, so a browser trusts this certificate and no other.
   */
  spkiSha256: string;
}

/** A new key pair and a self-signed certificate valid for two days, for the local TLS front. */
export async function localCertificate(): Promise<LocalCertificate> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 2 * 24 * 60 * 60 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const spki = new X509Certificate(pems.cert).publicKey.export({ type: 'spki', format: 'der' });
  return { key: pems.private, cert: pems.cert, spkiSha256: createHash('sha256').update(spki).digest('base64') };
}
