/**
 * Every request's deadline: a timer per request that, when it fires,
 * cancels the request on the wire (the transport's `cancel`) and rejects
 * with `RequestTimeout`. What only a timeout, a call's own timing options
 * or progress resets need lives in `deadline-run.ts`, loaded then.
 *
 * @internal
 * @module
 */
import type { ClientTransport, TransportRequestOptions } from "../protocol/contracts.js";
import type { JsonRpcRequest, JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import { RequestTimeout } from "./errors.js";
import type { RequestTiming, TimeoutOptions } from "./timing.js";

export type { RequestTiming, TimeoutOptions } from "./timing.js";

/** The default deadline: 60 s, no resets. @internal */
export const DEFAULT_TIMING: RequestTiming = Object.freeze({ timeoutMs: 60_000, resetTimeoutOnProgress: false, maxTotalTimeoutMs: Number.POSITIVE_INFINITY });

/**
 * `base`, or `base` with `options` over it (checked) when they name any
 * timing: then a promise, since the check loads with the first such call.
 * @internal
 */
export function timingFor(options: TimeoutOptions | undefined, base: RequestTiming): RequestTiming | Promise<RequestTiming> {
  if ((options?.timeoutMs ?? options?.resetTimeoutOnProgress ?? options?.maxTotalTimeoutMs) === undefined) return base;
  return import("./deadline-run.js").then((run) => run.timingOf(options as TimeoutOptions, base));
}

/**
 * `transport.request(message, options)` within `timing`. When it runs out
 * the request is cancelled on the wire and the call rejects with
 * `RequestTimeout`; the transport's late answer, if any, is dropped.
 * @internal
 */
export function requestWithin(
  transport: ClientTransport,
  message: JsonRpcRequest,
  options: TransportRequestOptions | undefined,
  timing: RequestTiming,
): Promise<JsonRpcResponse> {
  const ms = Math.min(timing.timeoutMs, timing.maxTotalTimeoutMs);
  if (ms === Number.POSITIVE_INFINITY) return transport.request(message, options);
  if (timing.resetTimeoutOnProgress) return import("./deadline-run.js").then((run) => run.withProgressResets(transport, message, options, timing, RequestTimeout));
  const started = Date.now();
  return new Promise<JsonRpcResponse>((resolve, reject) => {
    const timer = setTimeout(
      () => import("./deadline-run.js").then((run) => reject(run.timedOut(transport, message, timing, started, ms < timing.timeoutMs, RequestTimeout)), reject),
      ms,
    );
    transport.request(message, options).then(
      (response) => (clearTimeout(timer), resolve(response)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
