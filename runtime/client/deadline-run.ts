/**
 * The deadline's rarer work, loaded when it is first needed: a timeout
 * (the `RequestTimeout` and the cancel), a call's own timing options
 * (checked), and deadlines that progress restarts. It imports no value
 * from the client's main modules (it is handed the error class), so a
 * bundle keeps those in one chunk.
 *
 * @internal
 * @module
 */
import type { ClientTransport, TransportRequestOptions } from "../protocol/contracts.js";
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { RequestTiming, TimeoutOptions } from "./timing.js";
import type { RequestTimeout } from "./errors.js";

/**
 * `base` with `options` over it, each value checked.
 *
 * @throws RangeError / TypeError naming the bad option
 * @internal
 */
export function timingOf(options: TimeoutOptions, base: RequestTiming): RequestTiming {
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
 * The request ran out of time: cancels it on the wire and returns the error its call rejects with.
 *
 * @param total - whether the limit that ran out was the total cap (timers may fire a millisecond early, so the clock cannot tell)
 * @internal
 */
export function timedOut(
  transport: ClientTransport,
  message: JsonRpcRequest,
  timing: RequestTiming,
  started: number,
  total: boolean,
  Timeout: typeof RequestTimeout,
): RequestTimeout {
  const limit = total ? `its total limit of ${timing.maxTotalTimeoutMs} ms` : `${timing.timeoutMs} ms`;
  const elapsed = Date.now() - started;
  const error = new Timeout(
    message.method,
    elapsed,
    `${message.method} got no answer within ${limit} (${elapsed} ms elapsed); the client cancelled it. ${adviceFor(message.method)}`,
  );
  transport.cancel?.(message.id, error);
  return error;
}

/** What to do about a timeout: for the handshake, progress resets cannot help, and the usual cause is the target. */
function adviceFor(method: string): string {
  return method === "initialize" || method === "server/discover"
    ? "Is this target serving MCP? A slow server needs a longer timeoutMs on Client.connect."
    : "Pass a longer timeoutMs to this call or to Client.connect, or resetTimeoutOnProgress for work that reports progress.";
}

/**
 * `transport.request` within `timing`, each progress notification for the
 * request restarting `timeoutMs`, within `maxTotalTimeoutMs`.
 * @internal
 */
export function withProgressResets(
  transport: ClientTransport,
  message: JsonRpcRequest,
  options: TransportRequestOptions | undefined,
  timing: RequestTiming,
  Timeout: typeof RequestTimeout,
): Promise<JsonRpcResponse> {
  const started = Date.now();
  const token = progressTokenOf(message);
  return new Promise<JsonRpcResponse>((resolve, reject) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (ms: number, total: boolean) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (done) return;
        done = true;
        reject(timedOut(transport, message, timing, started, total, Timeout));
      }, ms);
    };
    const rearm = () => {
      const left = timing.maxTotalTimeoutMs - (Date.now() - started);
      arm(Math.max(0, Math.min(timing.timeoutMs, left)), left <= timing.timeoutMs);
    };
    rearm();
    const sent: TransportRequestOptions = { ...options };
    const forward = options?.onNotification;
    sent.onNotification = (notification: JsonRpcNotification) => {
      if (!done && notification.method === "notifications/progress" && notification.params?.progressToken === token) rearm();
      forward?.(notification);
    };
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

/** The request's `progressToken`, added (the request id) when it has none: progress is what restarts the deadline. */
function progressTokenOf(message: JsonRpcRequest): unknown {
  const params = (message.params ??= {});
  const meta: Record<string, unknown> = { ...(params._meta as Record<string, unknown> | undefined) };
  meta.progressToken ??= message.id;
  params._meta = meta;
  return meta.progressToken;
}
