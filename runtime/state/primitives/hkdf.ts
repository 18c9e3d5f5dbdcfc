import { portableHashes } from "#portable-hashes";

/** SHA-256's output size (RFC 5869 `HashLen`), in bytes. */
const HASH_BYTES = 32;

/**
 * HKDF-SHA256 (RFC 5869) with the salt absent, i.e. `HashLen` zero bytes
 * (§2.2), for runtimes without node:crypto: `@noble/hashes`' audited HKDF
 * and SHA-256 (the same family as the `@noble/ciphers` AES beside it),
 * through `#portable-hashes` (`portable-hashes.ts`). Used
 * to derive keys from a secret, once per key at construction. Checked
 * against node:crypto's `hkdfSync` by a property test.
 *
 * @param ikm - the input keying material (the secret).
 * @param info - the context and application specific information.
 * @param length - output bytes, at most 255 · 32.
 * @throws {RangeError} when `length` is out of range.
 * @internal
 */
export function hkdfSha256(ikm: Uint8Array, info: Uint8Array, length: number): Uint8Array {
  if (!Number.isInteger(length) || length < 0 || length > 255 * HASH_BYTES) {
    throw new RangeError(`"length" expected an integer from 0 to ${255 * HASH_BYTES}, got ${length}`);
  }
  // noble refuses a zero length; RFC 5869 allows it (an empty OKM).
  if (length === 0) return new Uint8Array(0);
  return portableHashes.hkdfSha256(ikm, info, length);
}
