import { gcm } from "@noble/ciphers/aes.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { randomBytes } from "@noble/hashes/utils.js";
import type { AesKey, CryptoBackend } from "./backend.js";
import { decodeCanonicalBase64url, encodeBase64url } from "./base64url.js";

const utf8 = new TextEncoder();

/**
 * The portable backend: `@noble/ciphers` and `@noble/hashes`, pure
 * JavaScript, for runtimes without node:crypto (browsers, edge workers).
 *
 * @internal
 */
export const nobleBackend: CryptoBackend = Object.freeze({
  name: "noble" as const,
  sha256: (data: Uint8Array) => sha256(data),
  hkdfSha256: (ikm: Uint8Array, info: Uint8Array, length: number) => hkdf(sha256, ikm, undefined, info, length),
  randomBytes: (length: number) => randomBytes(length),
  importAesKey: (key: Uint8Array) => Uint8Array.from(key) as unknown as AesKey,
  aesGcmSeal(key: AesKey, nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, prefix: Uint8Array) {
    const sealed = gcm(key as unknown as Uint8Array, nonce, aad).encrypt(plaintext);
    const out = new Uint8Array(prefix.length + sealed.length);
    out.set(prefix);
    out.set(sealed, prefix.length);
    return out;
  },
  aesGcmOpen(key: AesKey, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array) {
    try {
      return gcm(key as unknown as Uint8Array, nonce, aad).decrypt(sealed);
    } catch {
      return undefined;
    }
  },
  encodeBase64url,
  decodeBase64url: decodeCanonicalBase64url,
  utf8Encode: (text: string) => utf8.encode(text),
});
