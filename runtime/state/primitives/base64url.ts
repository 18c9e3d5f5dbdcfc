/**
 * Unpadded base64url (RFC 4648 §5) with strict decoding: only the one
 * canonical encoding of some byte string is accepted, so a token has exactly
 * one spelling and cannot be re-encoded into a "different" valid token.
 *
 * @module
 * @internal
 */

/** The alphabet only; a regular expression scans long tokens faster than a loop. */
const BASE64URL_TEXT = /^[A-Za-z0-9_-]*$/;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Character code → 6-bit value, or -1 outside the alphabet. */
const VALUES = /* @__PURE__ */ (() => {
  const table = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/**
 * Whether `text` is the canonical unpadded base64url encoding of some bytes:
 * alphabet `A–Z a–z 0–9 - _`, no `=`, a length that is not 1 mod 4, and zero
 * bits in the unused low bits of the last character (RFC 4648 §3.5).
 */
export function isCanonicalBase64url(text: string): boolean {
  const length = text.length;
  const tail = length % 4;
  if (tail === 1 || !BASE64URL_TEXT.test(text)) return false;
  if (tail === 0) return true;
  const last = VALUES[text.charCodeAt(length - 1)]!;
  // 2 trailing chars carry 1 byte (4 spare bits); 3 carry 2 bytes (2 spare bits).
  return (last & (tail === 2 ? 0x0f : 0x03)) === 0;
}

/** Encodes bytes as unpadded base64url (portable implementation). */
export function encodeBase64url(bytes: Uint8Array): string {
  let out = "";
  const full = bytes.length - (bytes.length % 3);
  let i = 0;
  for (; i < full; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - full;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]!;
  }
  return out;
}

/**
 * Decodes unpadded base64url, or returns `undefined` when `text` is not the
 * canonical encoding of anything (see {@link isCanonicalBase64url}).
 */
export function decodeBase64url(text: string): Uint8Array | undefined {
  if (!isCanonicalBase64url(text)) return undefined;
  return decodeCanonicalBase64url(text);
}

/** Decodes text already checked by {@link isCanonicalBase64url}. */
export function decodeCanonicalBase64url(text: string): Uint8Array {
  const length = text.length;
  const out = new Uint8Array(Math.floor((length * 3) / 4));
  let o = 0;
  let i = 0;
  const full = length - (length % 4);
  for (; i < full; i += 4) {
    const n =
      (VALUES[text.charCodeAt(i)]! << 18) | (VALUES[text.charCodeAt(i + 1)]! << 12) | (VALUES[text.charCodeAt(i + 2)]! << 6) | VALUES[text.charCodeAt(i + 3)]!;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 0xff;
    out[o++] = n & 0xff;
  }
  const rest = length - full;
  if (rest >= 2) {
    const n = (VALUES[text.charCodeAt(i)]! << 18) | (VALUES[text.charCodeAt(i + 1)]! << 12) | (rest === 3 ? VALUES[text.charCodeAt(i + 2)]! << 6 : 0);
    out[o++] = n >>> 16;
    if (rest === 3) out[o++] = (n >>> 8) & 0xff;
  }
  return out;
}
