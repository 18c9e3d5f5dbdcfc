/**
 * The checks `Client.connect` runs on its options before it opens anything:
 * each bad option is refused with what was expected, and the numbers it
 * needs come back with their defaults filled in. Loaded by `Client.connect`
 * (a chunk of its own in a bundle: connect-time code, kept off the entry).
 *
 * @internal
 * @module
 */
import type { isKnownMode } from "./negotiate.js";
import type { ClientOptions } from "./options.js";
import type { BackoffPolicy } from "./backoff.js";
import type { TaskClientOptions, TaskSettings } from "./tasks.js";
import type { NegotiatedOutcome } from "./outcomes.js";
import type { SPOKEN } from "./protocol.js";

/**
 * What this lazily loaded module borrows from the client's main modules,
 * handed over rather than imported, so a bundle keeps those in one chunk.
 * @internal
 */
export interface ConnectOptionsKit {
  readonly isKnownMode: typeof isKnownMode;
  readonly SPOKEN: typeof SPOKEN;
  /** What each option is when not given (also what `Client.connect` goes on with when none of them is). */
  readonly defaults: CheckedConnectOptions;
}

/** The checked options `Client.connect` goes on with. @internal */
export interface CheckedConnectOptions {
  readonly maxRounds: number;
  readonly unavailableRetryMs: number;
  readonly mode: string;
  readonly probeTimeoutMs: number;
  readonly prior: NegotiatedOutcome | undefined;
  readonly backoff: BackoffPolicy;
  /** The tasks extension's polling bounds, when the option declares it. */
  readonly tasks: TaskSettings | undefined;
}

/**
 * Checks the options of `Client.connect`.
 *
 * @throws RangeError / TypeError naming the bad option and what it must be
 * @internal
 */
export function checkConnectOptions(options: ClientOptions, { isKnownMode, SPOKEN, defaults }: ConnectOptionsKit): CheckedConnectOptions {
  const maxRounds = options.inputRequiredMaxRounds ?? defaults.maxRounds;
  if (!Number.isInteger(maxRounds) || maxRounds < 0) {
    throw new RangeError(`inputRequiredMaxRounds must be an integer ≥ 0, got ${String(maxRounds)}.`);
  }
  const unavailableRetryMs = options.unavailableRetryMs ?? defaults.unavailableRetryMs;
  if (typeof unavailableRetryMs !== "number" || !Number.isFinite(unavailableRetryMs) || unavailableRetryMs < 0) {
    throw new RangeError(`unavailableRetryMs must be a finite number of milliseconds ≥ 0, got ${String(unavailableRetryMs)}.`);
  }
  const mode = options.mode ?? defaults.mode;
  if (!isKnownMode(mode)) {
    throw new RangeError(`mode must be "auto" or one of ${SPOKEN}; got ${JSON.stringify(mode)}.`);
  }
  const probeTimeoutMs = options.probeTimeoutMs ?? defaults.probeTimeoutMs;
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
  return {
    maxRounds,
    unavailableRetryMs,
    mode,
    probeTimeoutMs,
    prior,
    backoff: checkBackoff(options.stateOnlyBackoff, defaults.backoff),
    tasks: taskSettingsOf(options.tasks),
  };
}

/**
 * The `tasks` option, checked: `true` or an options object turns the
 * extension on, `undefined`/`false` leaves it off.
 * @throws RangeError for an interval that is not a positive number
 * @internal
 */
function taskSettingsOf(option: boolean | TaskClientOptions | undefined): TaskSettings | undefined {
  if (option === undefined || option === false) return undefined;
  const given = option === true ? {} : option;
  if (typeof given !== "object" || given === null)
    throw new TypeError(`tasks must be true or { pollIntervalMs?, maxPollIntervalMs? }, got ${JSON.stringify(option)}.`);
  const settings = { pollIntervalMs: given.pollIntervalMs ?? 1_000, maxPollIntervalMs: given.maxPollIntervalMs ?? 30_000 };
  for (const [name, value] of Object.entries(settings)) {
    if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value))
      throw new RangeError(`tasks.${name} must be a positive number of milliseconds, got ${String(value)}.`);
  }
  return settings;
}

/** Validates a caller-supplied policy over the default one. @throws RangeError for negative or non-finite delays. */
function checkBackoff(policy: Partial<BackoffPolicy> | undefined, defaults: BackoffPolicy): BackoffPolicy {
  const resolved = { ...defaults, ...policy };
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
