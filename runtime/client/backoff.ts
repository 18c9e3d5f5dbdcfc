/**
 * Pause before retrying a round that carried only `requestState`: the server
 * is saying "not ready yet", so polling it flat out would only load it.
 * Delays start at `initialMs` and double up to `maxMs`; a round that carries
 * input requests resets them (the seed's "50 ms doubling to 250 ms").
 */
export interface BackoffPolicy {
  /** First delay, in milliseconds. Default 50. */
  initialMs: number;
  /** Ceiling, in milliseconds. Default 250. */
  maxMs: number;
}

/** The default policy: 50 ms, doubling, capped at 250 ms. */
const DEFAULT_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({ initialMs: 50, maxMs: 250 });

/** The delay after `previous` under `policy`. */
export function nextDelay(previous: number, policy: BackoffPolicy): number {
  return Math.min(previous * 2, policy.maxMs);
}

export { sleep } from "../protocol/sleep.js";

/** Validates a caller-supplied policy. @throws RangeError for negative or non-finite delays. */
export function checkBackoff(policy: Partial<BackoffPolicy> | undefined): BackoffPolicy {
  const resolved = { ...DEFAULT_BACKOFF, ...policy };
  for (const field of ["initialMs", "maxMs"] as const) {
    const value = resolved[field];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`stateOnlyBackoff.${field} must be a finite number of milliseconds ≥ 0, got ${String(value)}`);
    }
  }
  if (resolved.maxMs < resolved.initialMs) {
    throw new RangeError(`stateOnlyBackoff.maxMs (${resolved.maxMs}) must be ≥ initialMs (${resolved.initialMs})`);
  }
  return resolved;
}
