/**
 * The checks `Client.connect` runs on its options before it opens anything:
 * each bad option is refused with what was expected, and the numbers it
 * needs come back with their defaults filled in.
 *
 * @internal
 * @module
 */
import { isKnownMode } from "./negotiate.js";
import type { ClientOptions } from "./options.js";
import type { NegotiatedOutcome } from "./outcomes.js";
import { SPOKEN } from "./protocol.js";

/** The checked options `Client.connect` goes on with. @internal */
export interface CheckedConnectOptions {
  readonly maxRounds: number;
  readonly unavailableRetryMs: number;
  readonly mode: string;
  readonly probeTimeoutMs: number;
  readonly prior: NegotiatedOutcome | undefined;
}

/**
 * Checks the options of `Client.connect`.
 *
 * @throws RangeError / TypeError naming the bad option and what it must be
 * @internal
 */
export function checkConnectOptions(options: ClientOptions): CheckedConnectOptions {
  const maxRounds = options.inputRequiredMaxRounds ?? 10;
  if (!Number.isInteger(maxRounds) || maxRounds < 0) {
    throw new RangeError(`inputRequiredMaxRounds must be an integer ≥ 0, got ${String(maxRounds)}.`);
  }
  const unavailableRetryMs = options.unavailableRetryMs ?? 30_000;
  if (typeof unavailableRetryMs !== "number" || !Number.isFinite(unavailableRetryMs) || unavailableRetryMs < 0) {
    throw new RangeError(`unavailableRetryMs must be a finite number of milliseconds ≥ 0, got ${String(unavailableRetryMs)}.`);
  }
  const mode = options.mode ?? "auto";
  if (!isKnownMode(mode)) {
    throw new RangeError(`mode must be "auto" or one of ${SPOKEN}; got ${JSON.stringify(mode)}.`);
  }
  const probeTimeoutMs = options.probeTimeoutMs ?? 10_000;
  if (typeof probeTimeoutMs !== "number" || !(probeTimeoutMs > 0)) {
    throw new RangeError(`probeTimeoutMs must be a positive number of milliseconds, got ${String(probeTimeoutMs)}.`);
  }
  if (options.onNotification !== undefined && typeof options.onNotification !== "function") {
    throw new TypeError(`onNotification must be a function, got ${typeof options.onNotification}.`);
  }
  const prior = options.negotiated;
  if (prior !== undefined && (typeof prior !== "object" || prior === null || typeof prior.protocolVersion !== "string")) {
    throw new TypeError(`negotiated must be what client.negotiated returned, e.g. { protocolVersion: "2025-11-25" }; got ${JSON.stringify(prior)}.`);
  }
  if (prior !== undefined && !isKnownMode(prior.protocolVersion)) {
    throw new RangeError(`negotiated.protocolVersion ${JSON.stringify(prior.protocolVersion)} is no version this client speaks.`);
  }
  return { maxRounds, unavailableRetryMs, mode, probeTimeoutMs, prior };
}
