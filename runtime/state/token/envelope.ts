import type { CryptoBackend } from "../primitives/backend.js";
import { decodeBase64url } from "../primitives/base64url.js";
import { canonicalJson } from "../primitives/canonical-json.js";
import { encodeAfter, wipe } from "../primitives/scratch.js";

/**
 * The sealed plaintext, field for field as the reference SDK writes it.
 * Times are seconds since the epoch and may be fractional.
 *
 * @internal
 */
export interface Envelope {
  v: 1;
  iat: number;
  exp: number;
  /** The JSON-RPC method of the original request. */
  m: string;
  /** The tool or prompt name, or the resource URI. */
  t: string;
  /** {@link argumentsDigest} of the request's arguments. */
  a: string;
  /** The handler's plaintext state. */
  s: string;
  /** The audience claim, when an audience is set. */
  aud?: string;
  /** The principal claim ({@link principalClaim}), when a principal is bound. */
  p?: string;
}

const SALT_BYTES = 8;
const PRINCIPAL_DIGEST_BYTES = 16;
const PRINCIPAL_LABEL = new TextEncoder().encode("mcp/request-state/principal:");
const ARGUMENT_DIGEST_BYTES = 16;
const DIGEST_CACHE_ENTRIES = 512;
/** Canonical JSON longer than this is not worth remembering. */
const DIGEST_CACHE_MAX_JSON = 1024;

/**
 * `base64url(SHA-256(canonical JSON of arguments, or {} when absent)[0..16])`.
 *
 * @throws {TypeError} when the arguments are not JSON values.
 * @internal
 */
export function argumentsDigest(backend: CryptoBackend, args: unknown, cache?: Map<string, string>): string {
  const json = canonicalJson(args ?? {});
  if (json.length > DIGEST_CACHE_MAX_JSON) cache = undefined;
  const known = cache?.get(json);
  if (known !== undefined) return known;
  const bytes = encodeAfter(0, json);
  const digest = backend.encodeBase64url(backend.sha256(bytes).subarray(0, ARGUMENT_DIGEST_BYTES));
  wipe(bytes);
  if (cache) {
    // Round 1 mints and round 2 verifies the same arguments: a small cache saves a hash each time.
    if (cache.size >= DIGEST_CACHE_ENTRIES) cache.clear();
    cache.set(json, digest);
  }
  return digest;
}

/**
 * `base64url(salt(8) ‖ SHA-256("mcp/request-state/principal:" ‖ salt ‖ UTF-8(principal))[0..16])`.
 * The salt keeps equal principals from producing equal claims across tokens.
 *
 * @internal
 */
export function principalClaim(backend: CryptoBackend, principal: string, salt: Uint8Array): string {
  return backend.encodeBase64url(principalClaimBytes(backend, principal, salt));
}

function principalClaimBytes(backend: CryptoBackend, principal: string, salt: Uint8Array): Uint8Array {
  const input = encodeAfter(PRINCIPAL_LABEL.length + SALT_BYTES, principal);
  input.set(PRINCIPAL_LABEL);
  input.set(salt, PRINCIPAL_LABEL.length);
  const out = new Uint8Array(SALT_BYTES + PRINCIPAL_DIGEST_BYTES);
  out.set(salt);
  out.set(backend.sha256(input).subarray(0, PRINCIPAL_DIGEST_BYTES), SALT_BYTES);
  wipe(input);
  return out;
}

/** A new principal claim under a fresh random salt. @internal */
export function newPrincipalClaim(backend: CryptoBackend, principal: string, random: (length: number) => Uint8Array): string {
  return principalClaim(backend, principal, random(SALT_BYTES));
}

/**
 * Whether `claim` was made for `principal`, compared in constant time so the
 * comparison leaks nothing about how much of the digest matched.
 *
 * @internal
 */
export function principalClaimMatches(backend: CryptoBackend, claim: string, principal: string): boolean {
  const bytes = decodeBase64url(claim);
  if (!bytes || bytes.length !== SALT_BYTES + PRINCIPAL_DIGEST_BYTES) return false;
  const expected = principalClaimBytes(backend, principal, bytes.subarray(0, SALT_BYTES));
  let difference = 0;
  for (let i = SALT_BYTES; i < expected.length; i++) difference |= expected[i]! ^ bytes[i]!;
  return difference === 0;
}

/**
 * Writes the envelope as compact JSON in the reference field order
 * `v, iat, exp, m, t, a, s, aud, p`. Integral times are written without
 * `.0` (the reference writes `1767225600.0`); both parse the same.
 *
 * @internal
 */
export function serializeEnvelope(envelope: Envelope): string {
  let json =
    // iat/exp are finite numbers (mint checks the clock) and `a` is base64url: neither needs escaping.
    `{"v":1,"iat":${envelope.iat},"exp":${envelope.exp}` +
    `,"m":${JSON.stringify(envelope.m)},"t":${JSON.stringify(envelope.t)},"a":"${envelope.a}"` +
    `,"s":${JSON.stringify(envelope.s)}`;
  if (envelope.aud !== undefined) json += `,"aud":${JSON.stringify(envelope.aud)}`;
  if (envelope.p !== undefined) json += `,"p":${JSON.stringify(envelope.p)}`;
  return json + "}";
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads an envelope from unsealed bytes, or says what is wrong with them.
 * Unknown members are ignored (the seal already vouches for them); `aud` and
 * `p` set to `null` count as absent.
 *
 * @internal
 */
export function parseEnvelope(bytes: Uint8Array): Envelope | string {
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(bytes));
  } catch {
    return "envelope is not UTF-8 JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "envelope is not a JSON object";
  const record = value as Record<string, unknown>;
  if (record.v !== 1) return "envelope version is not 1";
  const { iat, exp, m, t, a, s } = record;
  if (typeof iat !== "number" || typeof exp !== "number") return "envelope iat/exp are not numbers";
  if (typeof m !== "string" || typeof t !== "string" || typeof a !== "string" || typeof s !== "string") {
    return "envelope m/t/a/s are not strings";
  }
  const aud = record.aud ?? undefined;
  const p = record.p ?? undefined;
  if ((aud !== undefined && typeof aud !== "string") || (p !== undefined && typeof p !== "string")) {
    return "envelope aud/p are not strings";
  }
  // The parsed object is fresh and ours: use it as the envelope rather than copy it.
  if (record.aud === null) record.aud = undefined;
  if (record.p === null) record.p = undefined;
  return record as unknown as Envelope;
}
