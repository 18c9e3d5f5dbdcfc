import type * as NodeCrypto from "node:crypto";
import type { AesKey, CryptoBackend } from "./backend.js";

const TAG_BYTES = 16;

/**
 * The native backend over node:crypto (Node, Bun, Deno). It receives the
 * module rather than importing it, so this file loads on runtimes without it.
 *
 * @param crypto - the `node:crypto` module.
 * @internal
 */
export function createNodeBackend(crypto: typeof NodeCrypto): CryptoBackend {
  const { createCipheriv, createDecipheriv, createHash, createSecretKey, hkdfSync, randomBytes } = crypto;
  const empty = new Uint8Array(0);
  return Object.freeze({
    name: "node" as const,
    sha256: (data: Uint8Array) => createHash("sha256").update(data).digest(),
    hkdfSha256: (ikm: Uint8Array, info: Uint8Array, length: number) =>
      new Uint8Array(hkdfSync("sha256", ikm, empty, info, length)),
    randomBytes: (length: number) => randomBytes(length),
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
