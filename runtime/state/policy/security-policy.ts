/**
 * The policy half of `RequestStateSecurity`: its options checked and
 * defaulted, and what it tells the logger (the key ring once at start, each
 * rejection with its real reason).
 *
 * @module
 * @internal
 */
import type { RequestContext } from "../../protocol/context.js";
import { describe } from "../primitives/keys.js";
import type { ReplayStore } from "./replay.js";
import { checkFunction, checkNonNegative, checkPositive } from "./security-checks.js";
import { escapeLogFields, escapeLogText, withCallShape } from "../../protocol/logging.js";
import type { RequestStateLogger, RequestStateRejection, RequestStateSecurityOptions } from "./security-types.js";

/** Clock skew tolerated between minting and verifying instances, both ways, in seconds. */
const DEFAULT_CLOCK_SKEW_SECONDS = 60;
const DEFAULT_TTL_SECONDS = 600;
/** How long a one-time token is held for the request that presented it before the hold lapses. */
const DEFAULT_REPLAY_LEASE_SECONDS = 30;
const DEFAULT_MAX_STATE_BYTES = 64 * 1024;

// stderr for both: on a stdio server stdout is the protocol channel.
const consoleLogger: RequestStateLogger = {
  warn: (message) => console.warn(message),
  info: (message) => console.error(message),
};

/** The options of a security object, checked and defaulted. @internal */
export interface SecurityPolicy {
  readonly ttl: number;
  readonly maxStateBytes: number;
  readonly audience: string | undefined;
  readonly bindPrincipal: ((context: RequestContext) => string | undefined | null) | undefined;
  readonly replay: ReplayStore | undefined;
  readonly replayLease: number;
  readonly clockSkew: number;
  readonly logger: RequestStateLogger;
  readonly now: () => number;
}

/**
 * Checks and defaults the policy options.
 *
 * @throws {TypeError} for an option of the wrong type.
 * @throws {RangeError} for an out-of-range number.
 * @internal
 */
export function resolvePolicy(settings: RequestStateSecurityOptions): SecurityPolicy {
  if (settings.audience !== undefined && (typeof settings.audience !== "string" || settings.audience === "")) {
    throw new TypeError(`RequestStateSecurity: "audience" expected a non-empty string, got ${describe(settings.audience)}`);
  }
  if (settings.replay !== undefined && typeof settings.replay?.claim !== "function") {
    throw new TypeError(`RequestStateSecurity: "replay" expected an object with a claim() method, e.g. new MemoryReplayStore()`);
  }
  if (settings.logger !== undefined && typeof settings.logger?.warn !== "function") {
    throw new TypeError(`RequestStateSecurity: "logger" expected an object with a warn() method`);
  }
  return {
    ttl: checkPositive("ttl", settings.ttl ?? DEFAULT_TTL_SECONDS, false),
    maxStateBytes: checkPositive("maxStateBytes", settings.maxStateBytes ?? DEFAULT_MAX_STATE_BYTES, true),
    audience: settings.audience,
    bindPrincipal: checkFunction("bindPrincipal", settings.bindPrincipal),
    replay: settings.replay,
    replayLease: checkPositive("replayLeaseSeconds", settings.replayLeaseSeconds ?? DEFAULT_REPLAY_LEASE_SECONDS, false),
    clockSkew: checkNonNegative("clockSkewSeconds", settings.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS),
    logger: settings.logger === undefined ? consoleLogger : withCallShape(settings.logger),
    now: checkFunction("now", settings.now) ?? (() => Date.now() / 1000),
  };
}

/**
 * Logs the ring once, at construction, through the logger's `info` (skipped
 * when it has none): which key mints and which verify, so an operator can
 * confirm that a rotation phase landed on every instance.
 * @internal
 */
export function logRing(logger: RequestStateLogger, keyIds: readonly string[], audience: string | undefined, ttl: number): void {
  if (typeof logger.info !== "function" || keyIds.length === 0) return;
  const aud = audience === undefined ? "" : `, audience ${JSON.stringify(audience)}`;
  try {
    logger.info(`requestState key ring: mints with ${keyIds[0]}; verifies ${keyIds.join(", ")}${aud}, ttl ${ttl} s`, {
      keyIds: [...keyIds],
      mintingKeyId: keyIds[0]!,
      audience,
      ttl,
    });
  } catch {
    // A broken logger must not keep a server from starting.
  }
}

/** Reports one rejection with its real reason (never the token). @internal */
export function logRejection(logger: RequestStateLogger, details: RequestStateRejection): void {
  const key = details.keyId === undefined ? "" : ` [key id ${details.keyId}]`;
  try {
    // The method, target and detail may carry a client's text: escaped, so it cannot break or forge the line.
    logger.warn(
      escapeLogText(`requestState rejected (${details.reason})${key} on ${details.method} ${JSON.stringify(details.target)}: ${details.detail}`),
      escapeLogFields(details),
    );
  } catch {
    // A broken logger must not turn a clean rejection into a crash.
  }
}
