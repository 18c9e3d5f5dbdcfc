import type * as NodeBuffer from "node:buffer";
import type * as NodeCrypto from "node:crypto";
import type { AesKey, CryptoBackend } from "./backend.js";
import { pooledRandom } from "./random-pool.js";

const TAG_BYTES = 16;
/** One options object for every cipher, rather than a fresh one per token. */
const GCM_OPTIONS = Object.freeze({ authTagLength: TAG_BYTES });

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
  // crypto.hash (Node ≥ 20.12, Bun, Deno) is the one-shot digest: no Hash object per call.
  const oneShot = (crypto as { hash?: (algorithm: string, data: Uint8Array, encoding: "buffer") => Uint8Array }).hash;
  const empty = new Uint8Array(0);
  const scratch = scratchBuffer(Buffer);
  return Object.freeze({
    name: "node" as const,
    sha256: oneShot !== undefined ? (data: Uint8Array) => oneShot("sha256", data, "buffer") : (data: Uint8Array) => createHash("sha256").update(data).digest(),
    hkdfSha256: (ikm: Uint8Array, info: Uint8Array, length: number) => new Uint8Array(hkdfSync("sha256", ikm, empty, info, length)),
    randomBytes: pooledRandom((buffer) => randomFillSync(buffer)),
    importAesKey: (key: Uint8Array) => createSecretKey(key) as unknown as AesKey,
    aesGcmSealBase64url(key: AesKey, nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, prefix: Uint8Array) {
      const cipher = createCipheriv("aes-256-gcm", key as unknown as NodeCrypto.KeyObject, nonce, GCM_OPTIONS);
      cipher.setAAD(aad);
      const body = cipher.update(plaintext);
      cipher.final();
      // Assemble prefix ‖ ciphertext ‖ tag in a reused buffer: encoding it is the only use.
      const length = prefix.length + body.length + TAG_BYTES;
      const out = scratch.get(length);
      out.set(prefix);
      out.set(body, prefix.length);
      out.set(cipher.getAuthTag(), prefix.length + body.length);
      return out.toString("base64url", 0, length);
    },
    aesGcmOpen(key: AesKey, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array) {
      if (sealed.length < TAG_BYTES) return undefined;
      const split = sealed.length - TAG_BYTES;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key as unknown as NodeCrypto.KeyObject, nonce, GCM_OPTIONS);
        decipher.setAAD(aad);
        decipher.setAuthTag(sealed.subarray(split));
        const plaintext = decipher.update(sealed.subarray(0, split));
        decipher.final();
        return plaintext;
      } catch {
        return undefined;
      }
    },
    encodeBase64url: (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url"),
    decodeBase64urlTransient(text: string) {
      const out = scratch.get((text.length * 3) >>> 2);
      return out.subarray(0, out.write(text, 0, "base64url"));
    },
    utf8Encode: (text: string) => Buffer.from(text, "utf8"),
  });
}

/**
 * One growable buffer reused for bytes that live only until the next backend
 * call (token bytes being encoded or decoded), so a token does not cost a
 * fresh allocation and, in bulk, garbage-collector time. Tokens over 64 KiB
 * get a buffer of their own.
 */
function scratchBuffer(BufferClass: typeof NodeBuffer.Buffer): { get(length: number): NodeBuffer.Buffer } {
  let buffer = BufferClass.alloc(2048);
  return {
    get(length: number) {
      if (length <= buffer.length) return buffer;
      const bigger = BufferClass.alloc(length);
      if (length <= 64 * 1024) buffer = bigger;
      return bigger;
    },
  };
}
