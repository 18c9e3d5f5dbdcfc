import { sha256 } from "./sha256.js";

/** SHA-256's block size (RFC 2104 `B`) and output size (RFC 5869 `HashLen`), in bytes. */
const BLOCK_BYTES = 64;
const HASH_BYTES = 32;

/**
 * HMAC-SHA256 (RFC 2104) over the module's one-shot SHA-256. Used only to
 * derive keys from a secret, once per key at construction, so it favours
 * plainness over speed. Checked against node:crypto by a property test.
 *
 * @internal
 */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  // RFC 2104 §2: a key longer than the block is hashed first; a shorter one is zero-padded.
  const block = new Uint8Array(BLOCK_BYTES);
  block.set(key.length > BLOCK_BYTES ? sha256(key) : key);
  const inner = new Uint8Array(BLOCK_BYTES + message.length);
  for (let i = 0; i < BLOCK_BYTES; i++) inner[i] = block[i]! ^ 0x36;
  inner.set(message, BLOCK_BYTES);
  const innerDigest = sha256(inner);
  const outer = new Uint8Array(BLOCK_BYTES + HASH_BYTES);
  for (let i = 0; i < BLOCK_BYTES; i++) outer[i] = block[i]! ^ 0x5c;
  outer.set(innerDigest, BLOCK_BYTES);
  const mac = sha256(outer);
  block.fill(0);
  inner.fill(0);
  outer.fill(0);
  innerDigest.fill(0);
  return mac;
}

/**
 * HKDF-SHA256 (RFC 5869) with the salt absent, i.e. `HashLen` zero bytes (§2.2).
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
  const prk = hmacSha256(new Uint8Array(HASH_BYTES), ikm); // §2.2 extract
  // §2.3 expand: T(i) = HMAC(PRK, T(i-1) ‖ info ‖ i), OKM = first `length` bytes of T(1) ‖ T(2) ‖ …
  const okm = new Uint8Array(length);
  let previous: Uint8Array = new Uint8Array(0);
  for (let i = 1, written = 0; written < length; i++) {
    const input = new Uint8Array(previous.length + info.length + 1);
    input.set(previous);
    input.set(info, previous.length);
    input[input.length - 1] = i;
    previous.fill(0);
    previous = hmacSha256(prk, input);
    input.fill(0);
    okm.set(previous.subarray(0, Math.min(HASH_BYTES, length - written)), written);
    written += HASH_BYTES;
  }
  previous.fill(0);
  prk.fill(0);
  return okm;
}
