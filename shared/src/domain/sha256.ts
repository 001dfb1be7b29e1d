import { hash } from 'node:crypto';

/**
 * SHA-256 of a string's UTF-8 bytes as lower-case hex: node:crypto's one-shot `hash`, which spares
 * the Hash object createHash makes for each digest. Product ids and content hashes are made on the
 * server only (the import, the local seeds, the benches); no app computes one, so no portable
 * implementation rides along in a bundle. The tests pin the FIPS vectors and the ids and content
 * hashes already stored.
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
