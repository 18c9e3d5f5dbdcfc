import { selectBackend } from "./select-backend.js";

/**
 * SHA-256 (FIPS 180-4) of `data` on the runtime's crypto backend: node:crypto
 * where the runtime has it, `@noble/hashes` everywhere else. For digests
 * outside a security object (question digests, task owners), which have no
 * backend of their own to ask.
 *
 * @module
 * @internal
 */
export function sha256(data: Uint8Array): Uint8Array {
  return selectBackend().sha256(data);
}
