import type { RequestContext } from "../../protocol/context.js";
import type { CryptoBackend } from "../primitives/backend.js";
import { AesGcmCodec, type RequestStateCodec } from "../primitives/codec.js";
import { DEFAULT_KEYS_ENV, keyRingFromEnv, keyRingFromFile } from "../primitives/key-sources.js";
import { argumentsDigest, type Envelope, newPrincipalClaim, serializeEnvelope } from "./envelope.js";
import { InvalidRequestState, RequestStateUnavailable } from "../primitives/errors.js";
import { describe, KEY_GENERATION_HINT, secretBytes } from "../primitives/keys.js";
import { principalOf } from "../policy/principal.js";
import type { ReplayStore } from "../policy/replay.js";
import { NO_USE, type RequestStateUse } from "../policy/use.js";
import { assertBinding, assertCodec, describeError, utf8Length } from "../policy/security-checks.js";
import type {
  MintInput,
  RequestBinding,
  RequestStateKeySource,
  RequestStateLogger,
  RequestStateRejection,
  RequestStateSecurityOptions,
} from "../policy/security-types.js";
import { selectBackend } from "../primitives/select-backend.js";
import { type Checked, checkToken, type TokenVerifier } from "./verify-token.js";
import { isThenable } from "../../protocol/guards.js";
import { logRejection, logRing, resolvePolicy } from "../policy/security-policy.js";

/** Year 5138 in seconds; a larger clock reading is almost surely milliseconds. */
const MAX_PLAUSIBLE_SECONDS = 1e11;

/** @internal Lets `__TESTS` inject a deterministic random source. */
export const RANDOM_SOURCE: unique symbol = Symbol("mcp-roundtrip/request-state/random");
/**
 * {@link RequestStateSecurity.mint} answered at once when the codec seals at once (the built-in one does):
 * the request-state boundary's way in, so a round that mints costs its request no turn through a promise.
 * @internal
 */
export const MINT_NOW: unique symbol = Symbol("mcp-roundtrip/request-state/mint-now");
/** {@link RequestStateSecurity.verifyOnce} answered at once when nothing had to be waited for (no replay store, a synchronous codec). @internal */
export const VERIFY_ONCE_NOW: unique symbol = Symbol("mcp-roundtrip/request-state/verify-once-now");

/** Marks the ephemeral ring, whose key id is nobody's business (it never leaves the process). */
const EPHEMERAL: unique symbol = Symbol("mcp-roundtrip/request-state/ephemeral");

/**
 * Seals `requestState` into an encrypted, authenticated token bound to one
 * request, one principal and a time window, and verifies it when the client
 * echoes it back. Every failure is the same {@link InvalidRequestState}; the
 * real reason goes to the logger.
 *
 * Keys: `keys[0]` mints, every key verifies (found by key id), so rotation
 * is three deployments: `[OLD, NEW]` → `[NEW, OLD]` → (one ttl later) `[NEW]`.
 *
 * @example
 * ```ts
 * const security = new RequestStateSecurity({ keys: [process.env.STATE_KEY!] }, { audience: "deployer" });
 * const token = await security.mint({ method: "tools/call", target: "provision", arguments: args, state: "step-2" });
 * const state = await security.verify(token, { method: "tools/call", target: "provision", arguments: args });
 * ```
 */
export class RequestStateSecurity {
  /** The codec that turns envelopes into tokens: the built-in AES-256-GCM one, or yours. */
  readonly codec: RequestStateCodec;
  /** Seconds a sealed round stays valid. */
  readonly ttl: number;
  /** The audience every token carries and must carry, when set. */
  readonly audience: string | undefined;
  /** The largest incoming token accepted, in UTF-8 bytes. */
  readonly maxStateBytes: number;
  /** Which crypto implementation is in use. */
  readonly crypto: "node" | "noble";
  /** Clock skew tolerated both ways between the instance that minted a token and the one verifying it, in seconds. */
  readonly clockSkew: number;
  /**
   * The key ids of the ring (8 hex digits each, see `keyIdOf` in `mcp-roundtrip/state`), the
   * minting key first; empty with a custom codec. Compare them with the
   * start-up log and `npx mcp-roundtrip kid` to confirm a rotation phase landed.
   */
  readonly keyIds: readonly string[];

  readonly #backend: CryptoBackend;
  readonly #random: (length: number) => Uint8Array;
  readonly #bindPrincipal: ((context: RequestContext) => string | undefined | null) | undefined;
  readonly #replay: ReplayStore | undefined;
  readonly #replayLease: number;
  readonly #logger: RequestStateLogger;
  readonly #now: () => number;
  readonly #digests = new Map<string, string>();
  /** What checking a token needs of this object, gathered once. */
  readonly #verifier: TokenVerifier;

  /**
   * @param source - `{ keys }` (secrets of 32+ bytes, `Uint8Array` or UTF-8 string; the first mints)
   *   or `{ codec }`. Policy options may also be given here, as one object.
   * @param options - policy: `ttl`, `audience`, `bindPrincipal`, `maxStateBytes`, `replay`, `logger`, `now`, `crypto`.
   * @throws {TypeError} when neither or both of `keys`/`codec` are given, or an option has the wrong type.
   * @throws {RangeError} for a key shorter than 32 bytes, an empty or duplicated key ring, or an out-of-range option.
   */
  constructor(source: RequestStateKeySource & RequestStateSecurityOptions, options: RequestStateSecurityOptions = {}) {
    if (typeof source !== "object" || source === null) {
      throw new TypeError(`RequestStateSecurity expected { keys } or { codec }, got ${describe(source)}. ${KEY_GENERATION_HINT}`);
    }
    const settings: RequestStateSecurityOptions & { [RANDOM_SOURCE]?: (length: number) => Uint8Array; [EPHEMERAL]?: true } = {
      ...source,
      ...options,
    };
    const hasKeys = source.keys !== undefined;
    const hasCodec = source.codec !== undefined;
    if (hasKeys === hasCodec) {
      throw new TypeError(`RequestStateSecurity expected exactly one of "keys" or "codec", got ${hasKeys ? "both" : "neither"}. ${KEY_GENERATION_HINT}`);
    }
    this.#backend = selectBackend(settings.crypto);
    this.crypto = this.#backend.name;
    this.#random = settings[RANDOM_SOURCE] ?? this.#backend.randomBytes;
    if (hasKeys) {
      this.codec = new AesGcmCodec(this.#backend, secretBytes(source.keys), this.#random);
    } else {
      assertCodec(source.codec);
      this.codec = source.codec!;
    }
    const policy = resolvePolicy(settings);
    this.ttl = policy.ttl;
    this.maxStateBytes = policy.maxStateBytes;
    this.audience = policy.audience;
    this.#bindPrincipal = policy.bindPrincipal;
    this.#replay = policy.replay;
    this.#replayLease = policy.replayLease;
    this.clockSkew = policy.clockSkew;
    this.#logger = policy.logger;
    this.#now = policy.now;
    this.keyIds = this.codec instanceof AesGcmCodec ? this.codec.keyIds : Object.freeze([]);
    this.#verifier = {
      codec: this.codec,
      maxStateBytes: this.maxStateBytes,
      backend: this.#backend,
      ttl: this.ttl,
      clockSkew: this.clockSkew,
      audience: this.audience,
      digests: this.#digests,
      replay: this.#replay,
      replayLease: this.#replayLease,
      logger: this.#logger,
      now: this.#now,
      principalFor: (context) => this.principalFor(context),
    };
    if (settings[EPHEMERAL] !== true) logRing(this.#logger, this.keyIds, this.audience, this.ttl);
  }

  /**
   * A security object whose key ring comes from an environment variable:
   * entries separated by commas or newlines, each prefixed with its encoding
   * (`base64url:`, `base64:` or `hex:`), the first one minting. Generate a
   * key with `npx mcp-roundtrip keygen`.
   *
   * @param name - the variable (default `MCP_REQUEST_STATE_KEYS`).
   * @param options - the same policy options as the constructor.
   * @throws {RangeError} when the variable is unset or empty, or a key is shorter than 32 bytes.
   * @throws {TypeError} when an entry has no encoding prefix or its text is invalid (the key is never shown).
   * @example
   * ```ts
   * // MCP_REQUEST_STATE_KEYS=base64url:NEW…,base64url:OLD…
   * const security = RequestStateSecurity.fromEnv(undefined, { audience: "deployer" });
   * ```
   */
  static fromEnv(name: string = DEFAULT_KEYS_ENV, options: RequestStateSecurityOptions = {}): RequestStateSecurity {
    return new RequestStateSecurity({ keys: keyRingFromEnv(name) }, options);
  }

  /**
   * Like {@link RequestStateSecurity.fromEnv}, from a file (one entry per
   * line or comma-separated; blank lines and `#` comments are skipped), such
   * as a mounted secret.
   *
   * @param path - the key file.
   * @param options - the same policy options as the constructor.
   * @throws {Error} when the file cannot be read; otherwise as {@link RequestStateSecurity.fromEnv}.
   * @example
   * ```ts
   * const security = await RequestStateSecurity.fromFile("/run/secrets/mcp-state-keys", { audience: "deployer" });
   * ```
   */
  static async fromFile(path: string, options: RequestStateSecurityOptions = {}): Promise<RequestStateSecurity> {
    return new RequestStateSecurity({ keys: await keyRingFromFile(path) }, options);
  }

  /**
   * A security object under a fresh random 32-byte key that lives and dies
   * with this process: right for stdio or a single HTTP worker, wrong behind a
   * load balancer or across restarts (use `keys` there). No audience needed.
   *
   * @param options - the same policy options as the constructor.
   * @example
   * ```ts
   * const security = RequestStateSecurity.ephemeral({ ttl: 300 });
   * ```
   */
  static ephemeral(options: RequestStateSecurityOptions = {}): RequestStateSecurity {
    const backend = selectBackend(options.crypto);
    return new RequestStateSecurity({ keys: [backend.randomBytes(32)] }, { ...options, [EPHEMERAL]: true } as RequestStateSecurityOptions);
  }

  /**
   * The principal of a request context: `bindPrincipal(context)` when that
   * option is set, else {@link principalOf}(`context.authInfo`) when the
   * transport authenticated the caller, else none.
   *
   * @throws {TypeError} when `bindPrincipal` returns something other than a string, `undefined` or `null`.
   */
  principalFor(context: RequestContext | undefined): string | undefined {
    if (this.#bindPrincipal) {
      if (!context) return undefined;
      const principal = this.#bindPrincipal(context);
      if (principal === undefined || principal === null) return undefined;
      if (typeof principal !== "string") {
        throw new TypeError(`bindPrincipal expected to return a string or undefined, got ${describe(principal)}`);
      }
      return principal;
    }
    return context?.authInfo ? principalOf(context.authInfo) : undefined;
  }

  /**
   * Seals a handler's plaintext state into a token bound to this request.
   *
   * @returns the token to send as `requestState`.
   * @throws {TypeError} when `method`, `target` or `state` is not a string, or `arguments` is not JSON.
   * @throws {RangeError} when the token would exceed `maxStateBytes` (it would be rejected on return).
   */
  async mint(input: MintInput): Promise<string> {
    return this[MINT_NOW](input);
  }

  /** {@link RequestStateSecurity.mint}, a token rather than a promise when the codec seals synchronously; throws where mint rejects. @internal */
  [MINT_NOW](input: MintInput): string | Promise<string> {
    assertBinding(input, "mint");
    if (typeof input.state !== "string") {
      throw new TypeError(`mint expected "state" to be a string, got ${describe(input.state)}`);
    }
    const now = input.now ?? this.#now();
    if (!Number.isFinite(now) || now > MAX_PLAUSIBLE_SECONDS) {
      throw new RangeError(`the clock must give seconds since the epoch, got ${now} (milliseconds? divide by 1000)`);
    }
    const envelope: Envelope = {
      v: 1,
      iat: now,
      exp: now + this.ttl,
      m: input.method,
      t: input.target,
      a: argumentsDigest(this.#backend, input.arguments, this.#digests),
      s: input.state,
    };
    const audience = this.audience ?? input.audience;
    if (audience !== undefined) envelope.aud = audience;
    const principal = input.principal ?? (input.context ? this.principalFor(input.context) : undefined);
    if (principal !== undefined) envelope.p = newPrincipalClaim(this.#backend, principal, this.#random);
    const json = serializeEnvelope(envelope);
    const sealed = this.codec instanceof AesGcmCodec ? this.codec.sealText(json) : this.codec.seal(this.#backend.utf8Encode(json));
    // Only a codec that answers with a promise is waited for (the built-in one answers synchronously).
    return typeof sealed === "string" ? this.#sized(sealed) : Promise.resolve(sealed).then((token) => this.#sized(token));
  }

  /** A sealed token, checked to be one and to fit `maxStateBytes`. */
  #sized(token: unknown): string {
    if (typeof token !== "string") throw new TypeError(`codec.seal expected to return a string, got ${describe(token)}`);
    const size = token.length * 3 > this.maxStateBytes ? utf8Length(token) : token.length;
    if (size > this.maxStateBytes) {
      throw new RangeError(`sealed requestState is ${size} bytes, over maxStateBytes (${this.maxStateBytes}); keep less in state or raise maxStateBytes`);
    }
    return token;
  }

  /**
   * Checks a token the client echoed and returns the plaintext state sealed
   * in it. With a `replay` store the token is spent at once; a server that
   * wants a failed handler to leave the token usable for a retry uses
   * {@link RequestStateSecurity.verifyOnce} (the request-state boundary does).
   *
   * @param token - the incoming `requestState`, as received (any type).
   * @param binding - the incoming request: `method`, `target`, `arguments`, and `principal` or `context`.
   * @returns the handler's plaintext state.
   * @throws {InvalidRequestState} for every failure (forged, tampered, expired, another request,
   *   another principal or audience, unknown key, replayed); the reason goes to the logger.
   * @throws {TypeError} when `method` or `target` is not a string (a programming error, not a rejection).
   */
  async verify(token: unknown, binding: RequestBinding): Promise<string> {
    const checked = this[VERIFY_ONCE_NOW](token, binding);
    // Awaited only when something was waited for; without a replay store there is nothing to commit either.
    const use = isThenable<RequestStateUse>(checked) ? await checked : checked;
    if (use.commit !== NO_USE.commit) await use.commit();
    return use.state;
  }

  /**
   * Like {@link RequestStateSecurity.verify}, but with a `replay` store the
   * token is only held for the request (for `replayLeaseSeconds`): call
   * `commit()` once the request produced a result, or `release()` when it
   * failed before producing one, so a retry with the same token is accepted.
   * A hold nobody settles lapses on its own. Without a store both are no-ops.
   *
   * @throws {InvalidRequestState} as `verify` does; a token another request holds counts as replayed.
   */
  async verifyOnce(token: unknown, binding: RequestBinding): Promise<RequestStateUse> {
    return this[VERIFY_ONCE_NOW](token, binding);
  }

  /**
   * {@link RequestStateSecurity.verifyOnce}, the use itself rather than a promise when nothing had to be
   * waited for; throws where verifyOnce rejects. Fails closed: a throw of the checks is one more rejection.
   * @internal
   */
  [VERIFY_ONCE_NOW](token: unknown, binding: RequestBinding): RequestStateUse | Promise<RequestStateUse> {
    assertBinding(binding, "verify");
    let checked: Checked | Promise<Checked>;
    try {
      checked = checkToken(this.#verifier, token, binding);
    } catch (error) {
      return this.#settled(failedClosed(error, token), binding);
    }
    if (!isThenable<Checked>(checked)) return this.#settled(checked, binding);
    return checked.then(
      (outcome) => this.#settled(outcome, binding),
      (error: unknown) => this.#settled(failedClosed(error, token), binding),
    );
  }

  /** A checked token's use, or its rejection: logged with the real reason, thrown as the fixed one. */
  #settled(outcome: Checked, binding: RequestBinding): RequestStateUse {
    if (!("reason" in outcome)) return outcome;
    const details: RequestStateRejection = { ...outcome, method: binding.method, target: binding.target };
    logRejection(this.#logger, details);
    // The token itself checked out; only the store could not say whether it was spent. Refused all the same
    // (nothing unchecked gets through), but as retryable, so the client sends the same round again.
    if (details.reason === "replay_store_error") throw new RequestStateUnavailable(details.detail);
    throw new InvalidRequestState(`${details.reason}: ${details.detail}`, { reason: details.reason });
  }
}

/** The rejection of a check that threw (a broken clock, say): never an escape hatch. */
function failedClosed(error: unknown, token: unknown): Checked {
  return { reason: "internal_error", detail: `verification threw ${describeError(error, typeof token === "string" ? token : "")}; failing closed` };
}
