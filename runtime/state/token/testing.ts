import type { CryptoBackend, CryptoBackendChoice } from "../primitives/backend.js";
import { AesGcmCodec } from "../primitives/codec.js";
import { argumentsDigest, principalClaim } from "./envelope.js";
import { deriveKey, type RequestStateSecret, secretBytes } from "../primitives/keys.js";
import { RANDOM_SOURCE } from "./security.js";
import type { RequestStateSecurityOptions } from "../policy/security-types.js";
import { selectBackend } from "../primitives/select-backend.js";
import { canonicalJson } from "../primitives/canonical-json.js";

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Test-only hooks: known-answer vectors need fixed nonces and salts, which the
 * public API never accepts. Not part of the supported API; do not use in
 * production code.
 *
 * @internal
 */
export const __TESTS = /* @__PURE__ */ Object.freeze({
  /** Resolves a backend by name. */
  backend: (choice: CryptoBackendChoice): CryptoBackend => selectBackend(choice),
  /** The derived AES key and key id of a secret, as hex. */
  deriveKey(secret: RequestStateSecret, choice: CryptoBackendChoice): { keyHex: string; kidHex: string } {
    const { keyBytes, kid } = deriveKey(selectBackend(choice), secretBytes([secret])[0]!);
    return { keyHex: hexOf(keyBytes), kidHex: hexOf(kid) };
  },
  /** Seals `payload` under `secret` with the given nonce (a known-answer vector's inputs). */
  sealWithNonce(secret: RequestStateSecret, nonce: Uint8Array, payload: Uint8Array, choice: CryptoBackendChoice): string {
    const token = new AesGcmCodec(selectBackend(choice), secretBytes([secret]), () => Uint8Array.from(nonce)).seal(payload);
    if (typeof token !== "string") throw new Error("sealWithNonce needs a cipher loaded synchronously (require(esm) on this runtime)");
    return token;
  },
  /** The principal claim for a given salt. */
  principalClaim: (principal: string, salt: Uint8Array, choice: CryptoBackendChoice): string => principalClaim(selectBackend(choice), principal, salt),
  /** The arguments digest. */
  argumentsDigest: (args: unknown, choice: CryptoBackendChoice): string => argumentsDigest(selectBackend(choice), args),
  /** The canonical JSON the arguments digest hashes. */
  canonicalJson,
  /** Options that make a `RequestStateSecurity` draw nonces and salts from `random`. */
  withRandom: (options: RequestStateSecurityOptions, random: (length: number) => Uint8Array): RequestStateSecurityOptions =>
    ({ ...options, [RANDOM_SOURCE]: random }) as RequestStateSecurityOptions,
});
