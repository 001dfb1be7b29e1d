import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 of a string's UTF-8 bytes as lower-case hex, synchronous and the same in Node and in
 * the browser (where Web Crypto only offers an asynchronous digest). It is @noble/hashes, an
 * audited, dependency-free implementation; the server passes node:crypto's native hash instead
 * (see `HashHex` in csv-product.ts), which gives the same digests much faster. The tests compare
 * the two and pin the ids and content hashes already stored.
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
