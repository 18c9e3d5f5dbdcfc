import { portableHashes } from "#portable-hashes";
import type { AesKey, CryptoBackend } from "./backend.js";
import { decodeCanonicalBase64url, encodeBase64url } from "./base64url.js";
import { NobleGcmKey } from "./gcm-noble.js";
import { hkdfSha256 } from "./hkdf.js";
import { type AesCoreLoader, nobleAesLoader } from "./noble-aes.js";
import { pooledRandom } from "./random-pool.js";

const utf8 = new TextEncoder();

/**
 * The portable backend, pure JavaScript, for runtimes without node:crypto
 * (browsers, edge workers): `@noble/ciphers`' AES under a GCM with key
 * schedule and GHASH table cached per key (see {@link NobleGcmKey}), and
 * `@noble/hashes`' SHA-256 and HKDF. noble's AES loads on the first key, not at
 * import.
 *
 * @param aes - where noble's AES comes from (a test can make it arrive late).
 * @internal
 */
export function createNobleBackend(aes: AesCoreLoader = nobleAesLoader): CryptoBackend {
  return Object.freeze({
    name: "noble" as const,
    sha256: portableHashes.sha256,
    hkdfSha256,
    // Web Crypto's getRandomValues is the CSPRNG on every runtime noble targets; it fills at most 65,536 bytes a call.
    randomBytes: pooledRandom((buffer) => {
      globalThis.crypto.getRandomValues(buffer);
    }),
    importAesKey: (key: Uint8Array) => new NobleGcmKey(key, aes) as unknown as AesKey,
    aesKeyPending: (key: AesKey) => (key as unknown as NobleGcmKey).pending(),
    aesGcmSealBase64url: (key: AesKey, nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, prefix: Uint8Array) =>
      encodeBase64url((key as unknown as NobleGcmKey).seal(nonce, aad, plaintext, prefix)),
    aesGcmOpen: (key: AesKey, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array) => (key as unknown as NobleGcmKey).open(nonce, aad, sealed),
    encodeBase64url,
    decodeBase64urlTransient: decodeCanonicalBase64url,
    utf8Encode: (text: string) => utf8.encode(text),
  });
}

/** The portable backend with noble's AES loaded on first use. @internal */
export const nobleBackend: CryptoBackend = /* @__PURE__ */ createNobleBackend();
