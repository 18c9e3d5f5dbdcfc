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

/** The delay after `previous` under `policy`. */
export function nextDelay(previous: number, policy: BackoffPolicy): number {
  return Math.min(previous * 2, policy.maxMs);
}

export { sleep } from "../protocol/sleep.js";
