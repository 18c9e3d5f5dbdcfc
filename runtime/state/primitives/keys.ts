import type { AesKey, CryptoBackend } from "./backend.js";

/** A secret from which a sealing key is derived: raw bytes, or a string taken as its UTF-8 bytes. */
export type RequestStateSecret = Uint8Array | string;

/** The shortest secret accepted, in bytes. */
export const MIN_SECRET_BYTES = 32;

/** How to make a good secret; every key error ends with it. */
export const KEY_GENERATION_HINT =
  "Generate one with: npx mcp-roundtrip keygen (or node -e \"console.log('base64url:' + require('crypto').randomBytes(32).toString('base64url'))\")";

/** Prefixes of an encoded key entry (see `decodeKeyEntry`): a string key starting with one was meant to be decoded. */
const ENTRY_PREFIX = /^(base64url|base64|hex):/i;

const KEY_INFO = new TextEncoder().encode("mcp/request-state/v1/aes-256-gcm");
const KID_LABEL = new TextEncoder().encode("mcp/request-state/v1/kid:");
const TOKEN_PREFIX_BYTES = new TextEncoder().encode("v1.");

/** One key of the ring, derived once. @internal */
export interface DerivedKey {
  /** The 4-byte key id as a big-endian integer, for lookup. */
  readonly id: number;
  /** The 4-byte key id. */
  readonly kid: Uint8Array;
  /** `"v1." ‖ kid`, the GCM associated data. */
  readonly aad: Uint8Array;
  /** The backend's prepared AES key. */
  readonly aesKey: AesKey;
}

/**
 * Turns a secret into a key: HKDF-SHA256 (salt absent, info
 * `"mcp/request-state/v1/aes-256-gcm"`, 32 bytes), key id
 * `SHA-256("mcp/request-state/v1/kid:" ‖ key)[0..4]`.
 *
 * @internal
 */
export function deriveKey(backend: CryptoBackend, secret: Uint8Array): DerivedKey & { readonly keyBytes: Uint8Array } {
  const keyBytes = backend.hkdfSha256(secret, KEY_INFO, 32);
  const labelled = new Uint8Array(KID_LABEL.length + keyBytes.length);
  labelled.set(KID_LABEL);
  labelled.set(keyBytes, KID_LABEL.length);
  const kid = Uint8Array.from(backend.sha256(labelled).subarray(0, 4));
  const aad = new Uint8Array(TOKEN_PREFIX_BYTES.length + 4);
  aad.set(TOKEN_PREFIX_BYTES);
  aad.set(kid, TOKEN_PREFIX_BYTES.length);
  return { id: readKeyId(kid, 0), kid, aad, aesKey: backend.importAesKey(keyBytes), keyBytes };
}

/** Reads a 4-byte big-endian key id. @internal */
export function readKeyId(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) | (bytes[offset + 1]! << 16) | (bytes[offset + 2]! << 8) | bytes[offset + 3]!) >>> 0;
}

/**
 * Checks a key ring and returns each secret's bytes.
 *
 * @throws {TypeError} when `keys` is not an array or a key is neither a Uint8Array nor a string.
 * @throws {RangeError} when the ring is empty or a key is shorter than 32 bytes.
 * @internal
 */
export function secretBytes(keys: unknown): Uint8Array[] {
  if (!Array.isArray(keys)) {
    throw new TypeError(`RequestStateSecurity: "keys" expected an array of secrets (Uint8Array or string), got ${describe(keys)}. ${KEY_GENERATION_HINT}`);
  }
  if (keys.length === 0) {
    throw new RangeError(`RequestStateSecurity: "keys" is empty; give at least one secret of ${MIN_SECRET_BYTES}+ bytes. ${KEY_GENERATION_HINT}`);
  }
  const utf8 = new TextEncoder();
  return keys.map((key: unknown, index) => {
    let bytes: Uint8Array;
    if (typeof key === "string") {
      if (ENTRY_PREFIX.test(key)) {
        // Taken as UTF-8 it would be a different key from the one every decoding service derives.
        throw new TypeError(
          `RequestStateSecurity: keys[${index}] is an encoded key entry (it starts with "${key.slice(0, key.indexOf(":") + 1)}"), ` +
            "and a string key is taken as raw UTF-8; decode it first with decodeKeyEntry(entry), or load the ring with " +
            "RequestStateSecurity.fromEnv() / fromFile()",
        );
      }
      bytes = utf8.encode(key);
    } else if (key instanceof Uint8Array) bytes = key;
    else {
      throw new TypeError(`RequestStateSecurity: keys[${index}] expected Uint8Array or string, got ${describe(key)}. ${KEY_GENERATION_HINT}`);
    }
    if (bytes.length < MIN_SECRET_BYTES) {
      const unit = typeof key === "string" ? "bytes of UTF-8 text" : "bytes";
      throw new RangeError(`RequestStateSecurity: keys[${index}] expected at least ${MIN_SECRET_BYTES} bytes, got ${bytes.length} ${unit}. ${KEY_GENERATION_HINT}`);
    }
    return bytes;
  });
}

/** Names a value's type for an error message without printing the value (it may be a secret). */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof ArrayBuffer) return "an ArrayBuffer (wrap it in new Uint8Array(...))";
  if (typeof value === "object") return `an object (${value.constructor?.name ?? "no prototype"})`;
  return `a ${typeof value}`;
}
