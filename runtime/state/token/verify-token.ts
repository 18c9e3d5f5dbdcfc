/**
 * The checks a `requestState` token passes, in order, before
 * `RequestStateSecurity.verify` hands its state back: type and size first
 * (before any crypto), then unsealing, the envelope's shape, its time
 * window and binding, its principal, and last the replay store. The first
 * failure is the answer; nothing here throws for a bad token.
 *
 * @internal
 * @module
 */
import type { CryptoBackend } from "../primitives/backend.js";
import { type RequestStateCodec, UnknownKeyId } from "../primitives/codec.js";
import { parseEnvelope, principalClaimMatches } from "./envelope.js";
import { checkBinding, checkWindow } from "./envelope-checks.js";
import { InvalidRequestState } from "../primitives/errors.js";
import { describe } from "../primitives/keys.js";
import type { ReplayStore } from "../policy/replay.js";
import { describeError, utf8Length } from "../policy/security-checks.js";
import { claimOnce } from "./security-replay.js";
import type { RequestBinding, RequestStateLogger, RequestStateRejectionReason } from "../policy/security-types.js";
import { NO_USE, type RequestStateUse } from "../policy/use.js";

/** What `checkToken` answers for a token it refuses. @internal */
type Rejected = { reason: RequestStateRejectionReason; detail: string; keyId?: string };

/** A rejection of `checkToken` (a module function, so a verify allocates no closure for it). */
const fail = (reason: RequestStateRejectionReason, detail: string) => ({ reason, detail });

/** What checking a token needs of its `RequestStateSecurity`: its codec, policy and clock. @internal */
export interface TokenVerifier {
  readonly codec: RequestStateCodec;
  readonly maxStateBytes: number;
  readonly backend: CryptoBackend;
  readonly ttl: number;
  readonly clockSkew: number;
  readonly audience: string | undefined;
  readonly digests: Map<string, string>;
  readonly replay: ReplayStore | undefined;
  readonly replayLease: number;
  readonly logger: RequestStateLogger;
  readonly now: () => number;
  readonly principalFor: (context: NonNullable<RequestBinding["context"]>) => string | undefined;
}

/** What checking one token gave: its use, or why it was refused. @internal */
export type Checked = RequestStateUse | Rejected;

/**
 * Runs every check in order; returns the state, or the first failure.
 * Synchronous unless the codec unseals asynchronously or a replay store is
 * consulted: a verify through the built-in codec then costs no promise here.
 * @throws only for a fault of its own (a caller fails closed on it); a bad token is an answer
 * @internal
 */
export function checkToken(verifier: TokenVerifier, token: unknown, binding: RequestBinding): Checked | Promise<Checked> {
  if (typeof token !== "string") return fail("not_a_string", `requestState is ${describe(token)}, not a string`);
  // The size cap comes before any crypto, so oversized input costs nothing.
  if (token.length > verifier.maxStateBytes || (token.length * 3 > verifier.maxStateBytes && utf8Length(token) > verifier.maxStateBytes)) {
    return fail("too_large", `requestState is over maxStateBytes (${verifier.maxStateBytes})`);
  }
  let unsealed: unknown;
  try {
    unsealed = verifier.codec.unseal(token);
  } catch (error) {
    return unsealFailure(error, token);
  }
  if (typeof (unsealed as { then?: unknown } | null)?.then === "function") {
    return Promise.resolve(unsealed).then(
      (bytes) => checkUnsealed(verifier, token, binding, bytes),
      (error: unknown) => unsealFailure(error, token),
    );
  }
  return checkUnsealed(verifier, token, binding, unsealed);
}

function unsealFailure(error: unknown, token: string): Rejected {
  // The key id is public (every token carries it in the clear) and names the key this instance lacks.
  if (error instanceof UnknownKeyId) return { reason: "unknown_key", detail: error.detail!, keyId: error.keyId };
  if (error instanceof InvalidRequestState) return fail("unseal_failed", error.detail ?? "codec rejected the token");
  return fail("codec_error", `codec.unseal threw ${describeError(error, token)}; failing closed`);
}

/** The checks after unsealing: the envelope, its window and binding, its principal, the replay store. */
function checkUnsealed(verifier: TokenVerifier, token: string, binding: RequestBinding, bytes: unknown): Checked | Promise<Checked> {
  if (!(bytes instanceof Uint8Array)) return fail("codec_error", `codec.unseal returned ${describe(bytes)}, not a Uint8Array`);
  const envelope = parseEnvelope(bytes);
  if (typeof envelope === "string") return fail("malformed_envelope", envelope);

  const now = binding.now ?? verifier.now();
  const skew = verifier.clockSkew;
  const refused =
    checkWindow(envelope, now, verifier.ttl, skew) ??
    checkBinding(verifier.backend, envelope, binding, verifier.audience ?? binding.audience, verifier.digests, token);
  if (refused !== undefined) return refused;

  let principal: string | undefined;
  try {
    principal = binding.principal ?? (binding.context ? verifier.principalFor(binding.context) : undefined);
  } catch (error) {
    return fail("principal_unavailable", `could not determine the principal: ${describeError(error, token)}`);
  }
  if (envelope.p === undefined) {
    if (principal !== undefined) return fail("principal_missing", "request has a principal, the token is bound to none");
  } else if (principal === undefined) {
    return fail("principal_unexpected", "token is bound to a principal, the request has none");
  } else if (!principalClaimMatches(verifier.backend, envelope.p, principal)) {
    return fail("principal_mismatch", "sealed for another principal");
  }

  const replay = verifier.replay;
  if (replay === undefined) return { state: envelope.s, commit: NO_USE.commit, release: NO_USE.release };
  return claimOnce({
    store: replay,
    backend: verifier.backend,
    token,
    state: envelope.s,
    expiresAt: Math.min(envelope.exp, envelope.iat + verifier.ttl) + skew,
    issuedAt: envelope.iat,
    now,
    leaseSeconds: verifier.replayLease,
    principal,
    clock: verifier.now,
    logger: verifier.logger,
  });
}
