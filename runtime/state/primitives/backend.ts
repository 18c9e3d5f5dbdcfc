/**
 * The crypto primitives sealing needs, behind one small interface with two
 * implementations that produce identical bytes: node:crypto (native, fast)
 * where the runtime has it, pure JavaScript (`@noble/ciphers` AES) everywhere.
 *
 * @module
 * @internal
 */

/** Which crypto implementation to use. `"auto"` picks node:crypto when present. */
export type CryptoBackendChoice = "auto" | "node" | "noble";

/** A key prepared once for repeated AES-256-GCM use (a KeyObject on node). */
export type AesKey = { readonly __aesKey: unique symbol };

/** @internal */
export interface CryptoBackend {
  readonly name: "node" | "noble";
  sha256(data: Uint8Array): Uint8Array;
  /** HKDF-SHA256 (RFC 5869) with the salt absent, i.e. HashLen zero bytes. */
  hkdfSha256(ikm: Uint8Array, info: Uint8Array, length: number): Uint8Array;
  randomBytes(length: number): Uint8Array;
  importAesKey(key: Uint8Array): AesKey;
  /**
   * A promise to await before `key` can seal or open, while the backend's
   * cipher is still loading (the portable backend on a runtime that loads it
   * only asynchronously); `undefined` when it is ready. Absent means always ready.
   */
  aesKeyPending?(key: AesKey): Promise<void> | undefined;
  /** AES-256-GCM encryption; returns unpadded base64url of `prefix ‖ ciphertext ‖ tag(16)`. */
  aesGcmSealBase64url(key: AesKey, nonce: Uint8Array, aad: Uint8Array, plaintext: Uint8Array, prefix: Uint8Array): string;
  /** AES-256-GCM decryption of `ciphertext ‖ tag(16)`; `undefined` when authentication fails. */
  aesGcmOpen(key: AesKey, nonce: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array | undefined;
  encodeBase64url(bytes: Uint8Array): string;
  /**
   * Decodes text already known to be canonical unpadded base64url. The bytes
   * may live in a shared buffer: use them before calling the backend again.
   */
  decodeBase64urlTransient(text: string): Uint8Array;
  utf8Encode(text: string): Uint8Array;
}
