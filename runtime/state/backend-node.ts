import type * as NodeBuffer from "node:buffer";
import type * as NodeCrypto from "node:crypto";
import type { AesKey, CryptoBackend } from "./backend.js";
import { pooledRandom } from "./random-pool.js";
import { sha256 as shortSha256 } from "./sha256.js";

const TAG_BYTES = 16;
/** Below this size the JavaScript SHA-256 beats a call into native code. */
const NATIVE_HASH_MIN_BYTES = 1024;

/**
 * The native backend over node:crypto (Node, Bun, Deno). It receives the
 * modules rather than importing them, so this file loads on runtimes without them.
 *
 * @param crypto - the `node:crypto` module.
 * @param buffer - the `node:buffer` module (not every runtime has a global `Buffer`).
 * @internal
 */
export function createNodeBackend(crypto: typeof NodeCrypto, { Buffer }: typeof NodeBuffer): CryptoBackend {
  const { createCipheriv, createDecipheriv, createHash, createSecretKey, hkdfSync, randomFillSync } = crypto;
  const empty = new Uint8Array(0);
  return Object.freeze({
    name: "node" as const,
    sha256: (data: Uint8Array) =>
      data.length < NATIVE_HASH_MIN_BYTES ? shortSha256(data) : createHash("sha256").update(data).digest(),
    hkdfSha256: (ikm: Uint8Array, info: Uint8Array, length: number) =>
      new Uint8Array(hkdfSync("sha256", ikm, empty, info, length)),
    randomBytes: pooledRandom((buffer) => randomFillSync(buffer)),
    importAesKey: (key: Uint8Array) => createSecretKey(key) as unknown as AesKey,
    aesGcmSeal(key: AesKey, nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, prefix: Uint8Array) {
      const cipher = createCipheriv("aes-256-gcm", key as unknown as NodeCrypto.KeyObject, nonce, {
        authTagLength: TAG_BYTES,
      });
      cipher.setAAD(aad);
      const body = cipher.update(plaintext);
      cipher.final();
      return Buffer.concat([prefix, body, cipher.getAuthTag()]);
    },
    aesGcmOpen(key: AesKey, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array) {
      if (sealed.length < TAG_BYTES) return undefined;
      const split = sealed.length - TAG_BYTES;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key as unknown as NodeCrypto.KeyObject, nonce, {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(aad);
        decipher.setAuthTag(sealed.subarray(split));
        const plaintext = decipher.update(sealed.subarray(0, split));
        decipher.final();
        return plaintext;
      } catch {
        return undefined;
      }
    },
    encodeBase64url: (bytes: Uint8Array) =>
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url"),
    decodeBase64url: (text: string) => Buffer.from(text, "base64url"),
    utf8Encode: (text: string) => Buffer.from(text, "utf8"),
  });
}
