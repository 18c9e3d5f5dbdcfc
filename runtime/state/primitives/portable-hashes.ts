/**
 * The portable backend's SHA-256 and HKDF, `@noble/hashes`' audited ones:
 * the `default` target of `#portable-hashes` (browsers, workers), imported
 * statically so a bundler includes them.
 *
 * @module
 * @internal
 */
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";

/** SHA-256 and HKDF-SHA256 (salt absent: `HashLen` zero bytes, RFC 5869 §2.2) for the portable backend. @internal */
export interface PortableHashes {
  sha256(data: Uint8Array): Uint8Array;
  hkdfSha256(ikm: Uint8Array, info: Uint8Array, length: number): Uint8Array;
}

/** `@noble/hashes`, loaded with the module. @internal */
export const portableHashes: PortableHashes = Object.freeze({
  sha256: (data: Uint8Array) => sha256(data),
  hkdfSha256: (ikm: Uint8Array, info: Uint8Array, length: number) => hkdf(sha256, ikm, undefined, info, length),
});
