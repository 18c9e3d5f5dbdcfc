/**
 * The shapes an endpoint's 2025 sessions (`sessions.ts`) and the exchanges
 * that serve them (`session-exchange.ts`) pass between each other.
 *
 * @module
 * @internal
 */

/** The bounds of an endpoint's sessions. @internal */
export interface SessionLimits {
  readonly maxSessions: number;
  readonly idleTimeoutMs: number;
  /** Most bytes one stream holds for a slow reader; its replay log keeps a quarter as much. */
  readonly maxStreamBufferBytes: number;
  readonly onError: (error: unknown) => void;
}

/** A request of a session being answered, as the session can stop it. @internal */
export interface AnsweringRequest {
  /** The client cancelled it: its POST ends without an answer, its stream (if one opened) is forgotten. */
  cancelled(): void;
  /** The session ended first: its POST ends. */
  sessionEnded(reason: string): void;
}
