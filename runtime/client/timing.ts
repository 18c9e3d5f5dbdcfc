/**
 * The shapes of a request's deadline, shared by the deadline's main part
 * (`deadline.ts`) and its lazily loaded one (`deadline-run.ts`).
 *
 * @module
 */

/** How long a request may wait for its answer. @internal */
export interface RequestTiming {
  /** Without an answer (or progress, when it resets) for this long, the request is cancelled. `Infinity`: never. */
  readonly timeoutMs: number;
  /** Whether a progress notification for the request restarts `timeoutMs`. */
  readonly resetTimeoutOnProgress: boolean;
  /** The cap on the whole wait, progress or not. `Infinity`: none. */
  readonly maxTotalTimeoutMs: number;
}

/** How long each request may wait for its answer: options of `Client.connect`, of a call and of a request. */
export interface TimeoutOptions {
  /**
   * Milliseconds a request may wait for its answer before the client cancels
   * it and throws `RequestTimeout`. Default 60,000; `Infinity` waits for ever.
   */
  timeoutMs?: number;
  /** Restart `timeoutMs` at each progress notification for the request (a `progressToken` is added to it). Default false. */
  resetTimeoutOnProgress?: boolean;
  /** The longest a request may wait in total, progress or not. Default `Infinity` (with progress resets: 600,000). */
  maxTotalTimeoutMs?: number;
}
