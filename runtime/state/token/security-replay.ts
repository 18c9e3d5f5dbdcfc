/**
 * The one-time-use step of `RequestStateSecurity.verifyOnce`: claim a
 * verified token from the replay store for a lease, and the settle-once
 * handle that commits or releases it.
 *
 * @module
 * @internal
 */
import type { CryptoBackend } from "../primitives/backend.js";
import type { ReplayStore } from "../policy/replay.js";
import { describeError } from "../policy/security-checks.js";
import type { RequestStateLogger, RequestStateRejectionReason } from "../policy/security-types.js";
import type { RequestStateUse } from "../policy/use.js";

const REPLAY_ID_BYTES = 16;

/** What a claim needs to know about the token and the verifier. @internal */
export interface ReplayClaim {
  readonly store: ReplayStore;
  readonly backend: CryptoBackend;
  readonly token: string;
  readonly state: string;
  /** When the token stops being accepted (skew included), in seconds. */
  readonly expiresAt: number;
  /** When the token was issued (`iat`), in seconds. */
  readonly issuedAt: number;
  readonly now: number;
  readonly leaseSeconds: number;
  readonly principal: string | undefined;
  readonly clock: () => number;
  readonly logger: RequestStateLogger;
}

/** Claims the token for a lease; the use to settle, or the rejection. @internal */
export async function claimOnce(claim: ReplayClaim): Promise<RequestStateUse | { reason: RequestStateRejectionReason; detail: string }> {
  const { backend, store, token, now, expiresAt } = claim;
  const id = backend.encodeBase64url(backend.sha256(backend.utf8Encode(token)).subarray(0, REPLAY_ID_BYTES));
  const owner =
    claim.principal === undefined
      ? undefined
      : backend.encodeBase64url(backend.sha256(backend.utf8Encode(`mcp/request-state/replay-owner:${claim.principal}`)).subarray(0, REPLAY_ID_BYTES));
  let claimed: unknown;
  try {
    claimed = await store.claim(id, expiresAt, now, { until: Math.min(now + claim.leaseSeconds, expiresAt), owner });
  } catch (error) {
    return { reason: "replay_store_error", detail: `replay store failed: ${describeError(error, token)}; failing closed` };
  }
  if (claimed === "quota_exceeded") {
    return { reason: "replay_quota_exceeded", detail: "this principal holds as many live one-time tokens as the replay store allows (maxEntriesPerOwner)" };
  }
  if (claimed !== true) return { reason: "replayed", detail: "token was already used, or another request holds it" };
  let since: number | undefined;
  try {
    since = store.rememberedSince?.();
  } catch (error) {
    return { reason: "replay_store_error", detail: `replay store failed to say since when it remembers: ${describeError(error, token)}; failing closed` };
  }
  if (since !== undefined && !(claim.issuedAt >= since)) {
    // The claim is left to lapse: the token is refused either way.
    return {
      reason: "replay_store_reset",
      detail: `issued at ${claim.issuedAt}, before the replay store's memory began (${since}): it restarted empty, so a spent token would look new`,
    };
  }
  return replayUse(claim.state, store, id, expiresAt, claim.clock, claim.logger);
}

/** The settle-once handle of a token a replay store holds. */
function replayUse(state: string, store: ReplayStore, id: string, expiresAt: number, clock: () => number, logger: RequestStateLogger): RequestStateUse {
  let settled = false;
  const settle = async (how: "commit" | "release"): Promise<void> => {
    if (settled) return;
    settled = true;
    try {
      if (how === "commit") await store.commit?.(id, expiresAt, clock());
      else await store.release?.(id, clock());
    } catch (error) {
      // A commit that fails leaves the lease to lapse: the token may be presented again after it, never before.
      try {
        logger.warn(`replay store could not ${how} a token: ${describeError(error, "")}`, {
          reason: "replay_store_error",
          method: "",
          target: "",
          detail: `${how} failed`,
        });
      } catch {
        // best effort
      }
    }
  };
  return { state, commit: () => settle("commit"), release: () => settle("release") };
}
