/**
 * The shapes an endpoint's 2025 sessions (`sessions.ts`) and the exchanges
 * that serve them (`session-exchange.ts`) pass between each other, and the
 * fixed bounds of a session.
 *
 * @module
 * @internal
 */
import type { ResolvedSessionLimits } from "./session-options.js";

/** Finished streams kept per session for resumption, newest last. @internal */
export const STREAMS_PER_SESSION = 32;
/** Unrelated messages kept for a session that has no GET stream open yet. @internal */
export const OUTBOX_LIMIT = 1_000;
/** Expired session ids remembered so a late client hears "expired", not "unknown". @internal */
export const EXPIRED_MEMORY = 4_096;

/** The bounds of an endpoint's sessions. @internal */
export interface SessionLimits extends ResolvedSessionLimits {
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
