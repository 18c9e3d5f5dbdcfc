/**
 * The checks an unsealed envelope must pass before its state is handed to
 * a handler: its time window, and the request, arguments and audience it
 * was sealed for. Each answers `undefined` or the rejection.
 *
 * @module
 * @internal
 */
import type { CryptoBackend } from "../primitives/backend.js";
import { argumentsDigest, type Envelope } from "./envelope.js";
import { describeError } from "../policy/security-checks.js";
import type { RequestBinding, RequestStateRejectionReason } from "../policy/security-types.js";

/** A refused envelope: the reason, and what the log says about it. @internal */
export interface EnvelopeRejection {
  reason: RequestStateRejectionReason;
  detail: string;
}

const fail = (reason: RequestStateRejectionReason, detail: string): EnvelopeRejection => ({ reason, detail });

/**
 * Accepts when `iat ≤ now + skew` and `now < min(exp, iat + ttl) + skew`: the
 * verifier's own ttl bounds a token too, so lowering ttl shortens tokens already issued.
 * @internal
 */
export function checkWindow(envelope: Envelope, now: number, ttl: number, skew: number): EnvelopeRejection | undefined {
  if (!(envelope.iat <= now + skew)) {
    return fail("issued_in_future", `issued at ${envelope.iat}, more than ${skew}s after now (${now})`);
  }
  const end = Math.min(envelope.exp, envelope.iat + ttl);
  if (!(now < end + skew)) return fail("expired", `expired at ${end} (+${skew}s skew), now is ${now}`);
  return undefined;
}

/** Accepts when the envelope was sealed for this method, target, arguments and audience. @internal */
export function checkBinding(
  backend: CryptoBackend,
  envelope: Envelope,
  binding: RequestBinding,
  audience: string | undefined,
  digests: Map<string, string>,
  token: string,
): EnvelopeRejection | undefined {
  if (envelope.m !== binding.method) return fail("method_mismatch", `sealed for method ${JSON.stringify(envelope.m)}`);
  if (envelope.t !== binding.target) return fail("target_mismatch", `sealed for target ${JSON.stringify(envelope.t)}`);
  let digest: string;
  try {
    digest = argumentsDigest(backend, binding.arguments, digests);
  } catch (error) {
    return fail("arguments_mismatch", `arguments cannot be digested: ${describeError(error, token)}`);
  }
  if (envelope.a !== digest) return fail("arguments_mismatch", "sealed for other arguments");
  if (envelope.aud !== audience) {
    return fail(
      "audience_mismatch",
      envelope.aud === undefined
        ? "token has no audience, one is required"
        : audience === undefined
          ? "token names an audience, none is configured"
          : "sealed for another audience",
    );
  }
  return undefined;
}
