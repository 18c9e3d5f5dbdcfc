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

/**
 * Waits between the tries of a commit that failed (the store unreachable for
 * a moment: Redis restarting, a Cluster failing over), about a minute in
 * all. The result has gone out, so the token must end up spent: until the
 * commit lands only its lease holds it, and a lease that lapses first would
 * let the token be presented again.
 */
const COMMIT_RETRY_MS = [100, 250, 500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** The settle-once handle of a token a replay store holds. */
function replayUse(state: string, store: ReplayStore, id: string, expiresAt: number, clock: () => number, logger: RequestStateLogger): RequestStateUse {
  let settled = false;
  const warn = (how: string, error: unknown, detail: string) => {
    try {
      logger.warn(`replay store could not ${how} a token: ${describeError(error, "")}`, { reason: "replay_store_error", method: "", target: "", detail });
    } catch {
      // best effort
    }
  };
  // Tried again in the background (the request's answer is not held for it), until it lands or the tries run out.
  const commitLater = (attempt: number): void => {
    const timer = setTimeout(() => {
      Promise.resolve()
        .then(() => store.commit?.(id, expiresAt, clock()))
        .catch((error: unknown) => {
          if (attempt + 1 < COMMIT_RETRY_MS.length) commitLater(attempt + 1);
          else warn("commit", error, `commit failed ${COMMIT_RETRY_MS.length + 1} times; the token is held only until its lease lapses`);
        });
    }, COMMIT_RETRY_MS[attempt]);
    (timer as { unref?: () => void }).unref?.();
  };
  const settle = async (how: "commit" | "release"): Promise<void> => {
    if (settled) return;
    settled = true;
    try {
      if (how === "commit") await store.commit?.(id, expiresAt, clock());
      else await store.release?.(id, clock());
    } catch (error) {
      // A release that fails leaves the lease to lapse: the token may be presented again after it, never before.
      // A commit that fails is tried again: its result went out, so the token must not come back when the lease lapses.
      warn(how, error, how === "commit" ? "commit failed; trying again" : "release failed");
      if (how === "commit") commitLater(0);
    }
  };
  return { state, commit: () => settle("commit"), release: () => settle("release") };
}
