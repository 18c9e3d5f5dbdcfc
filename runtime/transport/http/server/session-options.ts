/**
 * The bounds a hostile 2025 client meets: how many sessions one principal
 * may hold, how many of a session's (and a principal's) requests may be
 * answered at once, how many bytes those waiting requests and the session's
 * replay logs may keep. The options, their defaults and their checks; the
 * endpoint's sessions apply them (`sessions.ts`, `session-streams.ts`).
 *
 * @module
 */

/** Options of {@link createHttpHandler} and `serveHttp` that bound what one 2025 client may hold. */
export interface SessionLimitOptions {
  /**
   * Most 2025 sessions one principal (one verified token identity; without
   * authentication, the anonymous caller) may hold at once; its `initialize`
   * beyond it gets `503` with `Retry-After`, while other principals still
   * open theirs. Default: a tenth of `maxSessions` (100) on an endpoint with
   * `authorization` or `verifyToken`; `maxSessions` on one without, where
   * every caller is the same anonymous principal.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Most requests of one 2025 session being answered at once. A call whose
   * handler waits for the client (an elicitation asked over its POST's
   * stream) stays in flight after its connection drops, until it is
   * answered, cancelled (`notifications/cancelled`), the session ends or
   * `legacySessions.requestTimeoutMs` passes. A request beyond the bound
   * gets `429` with `Retry-After` and the retryable `-32603`
   * (`data.reason: "temporarily_unavailable"`, `data.limit` naming this
   * option). Answers and notifications are never refused. Default 32.
   */
  maxRequestsPerSession?: number;
  /** The same bound over all of one principal's 2025 sessions (the anonymous caller is one principal). Default 256. */
  maxRequestsPerPrincipal?: number;
  /**
   * Most bytes one 2025 session's requests in flight may hold: their request
   * bodies (the arguments a waiting call keeps) plus what the session's
   * replay logs keep. A request that would cross it gets the same `429` as
   * {@link maxRequestsPerSession}. Default 16 MiB.
   */
  maxPendingBytesPerSession?: number;
  /** The same budget over all of one principal's 2025 sessions. Default 64 MiB. */
  maxPendingBytesPerPrincipal?: number;
  /**
   * Most bytes of events one 2025 session keeps for `Last-Event-ID`
   * resumption, over all its streams (each stream keeps at most a quarter of
   * `maxStreamBufferBytes`, and never an event larger than that). Finished
   * streams are forgotten first, oldest first, then the oldest events of the
   * stream being written; a resume from before a forgotten event gets `400`.
   * Default 4 MiB.
   */
  maxReplayBytesPerSession?: number;
}

/** The bounds above with defaults filled in. @internal */
export interface ResolvedSessionLimits {
  readonly maxSessionsPerPrincipal: number;
  readonly maxRequestsPerSession: number;
  readonly maxRequestsPerPrincipal: number;
  readonly maxPendingBytesPerSession: number;
  readonly maxPendingBytesPerPrincipal: number;
  readonly maxReplayBytesPerSession: number;
}

const MIB = 1024 * 1024;
const DEFAULT_MAX_REQUESTS_PER_SESSION = 32;
const DEFAULT_MAX_REQUESTS_PER_PRINCIPAL = 256;
const DEFAULT_MAX_PENDING_BYTES_PER_SESSION = 16 * MIB;
const DEFAULT_MAX_PENDING_BYTES_PER_PRINCIPAL = 64 * MIB;
const DEFAULT_MAX_REPLAY_BYTES_PER_SESSION = 4 * MIB;

function positive(name: string, value: number | undefined, fallback: number, unit: string): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved <= 0) {
    throw new RangeError(`${name} must be a positive integer${unit}, got ${String(resolved)}.`);
  }
  return resolved;
}

/**
 * Checks the options and fills the defaults.
 *
 * @param maxSessions - the endpoint's bound on sessions, already checked.
 * @param authenticates - whether the endpoint verifies tokens (else every caller is the anonymous principal).
 * @throws {RangeError} for a bound that is not a positive integer.
 * @internal
 */
export function resolveSessionLimits(options: SessionLimitOptions, maxSessions: number, authenticates: boolean): ResolvedSessionLimits {
  const perPrincipal = authenticates ? Math.ceil(maxSessions / 10) : maxSessions;
  const bytes = " number of bytes";
  return {
    maxSessionsPerPrincipal: positive("maxSessionsPerPrincipal", options.maxSessionsPerPrincipal, perPrincipal, ""),
    maxRequestsPerSession: positive("maxRequestsPerSession", options.maxRequestsPerSession, DEFAULT_MAX_REQUESTS_PER_SESSION, ""),
    maxRequestsPerPrincipal: positive("maxRequestsPerPrincipal", options.maxRequestsPerPrincipal, DEFAULT_MAX_REQUESTS_PER_PRINCIPAL, ""),
    maxPendingBytesPerSession: positive("maxPendingBytesPerSession", options.maxPendingBytesPerSession, DEFAULT_MAX_PENDING_BYTES_PER_SESSION, bytes),
    maxPendingBytesPerPrincipal: positive("maxPendingBytesPerPrincipal", options.maxPendingBytesPerPrincipal, DEFAULT_MAX_PENDING_BYTES_PER_PRINCIPAL, bytes),
    maxReplayBytesPerSession: positive("maxReplayBytesPerSession", options.maxReplayBytesPerSession, DEFAULT_MAX_REPLAY_BYTES_PER_SESSION, bytes),
  };
}
