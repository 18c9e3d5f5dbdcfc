/**
 * Every request's deadline: a timer per request that, when it fires,
 * cancels the request on the wire (the transport's `cancel`) and rejects
 * with {@link RequestTimeout}; progress for the request may push it back,
 * within a total cap.
 *
 * @internal
 * @module
 */
import type { ClientTransport, TransportRequestOptions } from "../protocol/contracts.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import { RequestTimeout } from "./errors.js";

/** How long a request may wait for its answer. @internal */
export interface RequestTiming {
  /** Without an answer (or progress, when it resets) for this long, the request is cancelled. `Infinity`: never. */
  readonly timeoutMs: number;
  /** Whether a progress notification for the request restarts `timeoutMs`. */
  readonly resetTimeoutOnProgress: boolean;
  /** The cap on the whole wait, progress or not. `Infinity`: none. */
  readonly maxTotalTimeoutMs: number;
}

/** The per-request part of the options, as callers pass it. */
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

/** The default deadline: 60 s, no resets. @internal */
export const DEFAULT_TIMING: RequestTiming = Object.freeze({ timeoutMs: 60_000, resetTimeoutOnProgress: false, maxTotalTimeoutMs: Number.POSITIVE_INFINITY });

/**
 * `base` with `options` over it, each value checked.
 *
 * @throws RangeError / TypeError naming the bad option
 * @internal
 */
export function timingOf(options: TimeoutOptions | undefined, base: RequestTiming): RequestTiming {
  if (options === undefined || (options.timeoutMs === undefined && options.resetTimeoutOnProgress === undefined && options.maxTotalTimeoutMs === undefined)) {
    return base;
  }
  const timeoutMs = options.timeoutMs ?? base.timeoutMs;
  const reset = options.resetTimeoutOnProgress ?? base.resetTimeoutOnProgress;
  const maxTotalTimeoutMs = options.maxTotalTimeoutMs ?? (reset && !base.resetTimeoutOnProgress ? 600_000 : base.maxTotalTimeoutMs);
  for (const [name, value] of [
    ["timeoutMs", timeoutMs],
    ["maxTotalTimeoutMs", maxTotalTimeoutMs],
  ] as const) {
    if (typeof value !== "number" || !(value > 0)) throw new RangeError(`${name} must be a positive number of milliseconds (or Infinity), got ${String(value)}.`);
  }
  if (typeof reset !== "boolean") throw new TypeError(`resetTimeoutOnProgress must be a boolean, got ${typeof reset}.`);
  return { timeoutMs, resetTimeoutOnProgress: reset, maxTotalTimeoutMs };
}

/**
 * `transport.request(message, options)` within `timing`. When it runs out
 * the request is cancelled on the wire and the call rejects with
 * {@link RequestTimeout}; the transport's late answer, if any, is dropped.
 * @internal
 */
export function requestWithin(
  transport: ClientTransport,
  message: JsonRpcRequest,
  options: TransportRequestOptions | undefined,
  timing: RequestTiming,
): Promise<JsonRpcResponse> {
  const first = Math.min(timing.timeoutMs, timing.maxTotalTimeoutMs);
  if (first === Number.POSITIVE_INFINITY) return transport.request(message, options);
  const started = Date.now();
  return new Promise<JsonRpcResponse>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Whether the armed timer is the total cap's (timers may fire a millisecond early, so the clock cannot tell).
    let total = timing.maxTotalTimeoutMs <= timing.timeoutMs;
    const fire = () => {
      if (done) return;
      done = true;
      const elapsed = Date.now() - started;
      const limit = total ? `its total limit of ${timing.maxTotalTimeoutMs} ms` : `${timing.timeoutMs} ms`;
      const error = new RequestTimeout(message.method, elapsed, limit);
      transport.cancel?.(message.id, error);
      reject(error);
    };
    const arm = (ms: number) => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(fire, ms);
    };
    arm(first);
    let sent = options;
    if (timing.resetTimeoutOnProgress) {
      const token = progressTokenOf(message);
      const forward = options?.onNotification;
      sent = { ...options };
      sent.onNotification = (notification: JsonRpcNotification) => {
        if (!done && notification.method === "notifications/progress" && notification.params?.progressToken === token) {
          const left = timing.maxTotalTimeoutMs - (Date.now() - started);
          total = left <= timing.timeoutMs;
          arm(Math.max(0, Math.min(timing.timeoutMs, left)));
        }
        forward?.(notification);
      };
    }
    transport.request(message, sent).then(
      (response) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(response);
      },
      (error: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The request's `progressToken`, added (the request id) when it has none: progress is what resets the deadline. */
function progressTokenOf(message: JsonRpcRequest): unknown {
  const params = (message.params ??= {});
  const meta: Record<string, unknown> = { ...(params._meta as Record<string, unknown> | undefined) };
  meta.progressToken ??= message.id;
  params._meta = meta;
  return meta.progressToken;
}
