/**
 * The options of the low-level `Server`, and their checks.
 *
 * @module
 */
import type { LogLevel } from "../protocol/logging.js";
import type { LegacyMode } from "../protocol/context.js";
import type { ServerCapabilities } from "../protocol/types.js";
import type { LegacySessionOptions } from "./legacy/host.js";
import { DEFAULT_MAX_NESTING_DEPTH } from "./nesting-path.js";
import { ROUTES } from "./routes.js";
import type { CacheableMethod, CacheHint, ServerLogger } from "./types.js";
import type { TasksOptions } from "./tasks/options.js";
import type { SchemaCompilerChoice } from "./schema/schema-check.js";
import type { Broadcaster } from "./subscriptions/broadcaster.js";
import { SUBSCRIPTION_TYPES, type SubscriptionType } from "./subscriptions/filter.js";
import { DEFAULT_MAX_LISTENERS } from "./subscriptions/streams.js";
import { isObject } from "../protocol/guards.js";

/** How a server serves `subscriptions/listen` (the `subscriptions` option). */
export interface SubscriptionOptions {
  /**
   * Most listener streams open at once (default 10,000); one more gets
   * JSON-RPC error -32000 with `data.reason: "too_many_listeners"`.
   */
  maxListeners?: number;
  /**
   * Carries changes between instances (default: an `InProcessBroadcaster`
   * of this server alone). Share one between servers of a process, or give
   * each instance of a fleet a Redis broadcaster (`mcp-roundtrip/ext/redis`) on
   * the same channel, and a change on one reaches the listeners of all.
   */
  broadcaster?: Broadcaster;
  /**
   * The notification types this server honours (acknowledges). Default for
   * `Server`: those whose feature it advertises; `McpServer` honours all four.
   */
  honour?: readonly SubscriptionType[];
}

/** Options of the low-level {@link Server}. */
export interface ServerOptions {
  /** Guidance for the model on how to use this server, sent in `server/discover`. */
  instructions?: string;
  /**
   * Compiles the JSON Schemas given to `setRequestHandler` and
   * `setNotificationHandler` (see `McpServerOptions.compileSchema`, which
   * also compiles tool schemas). Default `"auto"`.
   */
  compileSchema?: SchemaCompilerChoice;
  /**
   * Capabilities to advertise on top of the ones derived from the handlers
   * (`tools` when `onListTools`/`onCallTool` exist, and so on). A function
   * replaces the derived set and is asked on every `server/discover`, for
   * servers whose features change after construction.
   */
  capabilities?: ServerCapabilities | (() => ServerCapabilities);
  /**
   * Caching hints for results whose handler set none. Default: `ttlMs: 0`
   * (immediately stale) and `cacheScope: "private"`, the choice that is never
   * wrong; `server/discover` defaults to `"public"`.
   */
  cache?: Partial<Record<CacheableMethod, CacheHint>>;
  /**
   * Receives what never goes on the wire: handler crashes, rejected request
   * state, and at `debug` each round's decision and each 2025 session's open
   * and close. `console` (the default) or a pino logger fit as they are.
   */
  logger?: ServerLogger;
  /**
   * The least severe level written to `logger` (default `"warn"`):
   * `"debug"` adds every round's decision (which input keys were asked and
   * why, answers accepted or refused), `"silent"` writes nothing.
   */
  logLevel?: LogLevel;
  /**
   * Check every result a handler returns against the protocol schema before
   * sending it (default `true`): a malformed result becomes a clear `-32603`
   * on the server instead of a puzzling failure in the client.
   */
  validateResults?: boolean;
  /**
   * How 2025-era clients (2025-11-25, 2025-06-18, 2025-03-26: the ones that
   * open with `initialize`) are served on the same endpoint. Default
   * `"sessions"`: `initialize` opens a session with a back channel, so the
   * same handlers and their declared needs serve both generations.
   * `"stateless"` answers each 2025 request on its own (no server-to-client
   * requests; a need that would ask becomes a tool error saying so).
   * `"reject"` answers every 2025 request with `-32022`.
   */
  legacy?: LegacyMode;
  /** Bounds of 2025 sessions: how long to wait for the client's answers, how many rounds of questions one call may take. */
  legacySessions?: LegacySessionOptions;
  /**
   * What a 2025 client gets when a handler returns an `InputRequiredResult`
   * it built by hand (`inputRequired(...)`, not declared `needs`, which ask
   * either generation on their own). Default `"reject"`: `-32603`, as the
   * reference SDK answers, since a 2025 client cannot retry a call with
   * answers. `"shim"` asks the result's input requests over the session's
   * back channel (each as the request of its kind) and calls the handler again with `ctx.inputResponses` and
   * its `ctx.requestState` (sealed and verified as on an MRTR retry, but kept
   * on the server), round after round up to `legacySessions.maxRounds`. Each
   * round costs one back-channel round trip per question; it needs
   * `legacy: "sessions"` (the default), and answers `-32603` saying so under
   * `legacy: "stateless"`.
   */
  legacyInputRequired?: "reject" | "shim";
  /**
   * How deeply a request's `params` may nest objects and arrays (default
   * 100); deeper gets `-32602` naming this limit, before any handler or
   * schema check runs.
   */
  maxNestingDepth?: number;
  /**
   * Turns on the tasks extension (`io.modelcontextprotocol/tasks`): the
   * server advertises it, answers `tasks/get`, `tasks/update` and
   * `tasks/cancel`, and runs the tools `taskSupport` names as tasks. Store,
   * TTL, polling interval and bounds are set here.
   */
  tasks?: TasksOptions;
  /** Bound, broadcaster and honoured types of `subscriptions/listen` streams. */
  subscriptions?: SubscriptionOptions;
}

const LEGACY_MODES: ReadonlySet<unknown> = new Set(["sessions", "stateless", "reject"]);

/**
 * The `legacy` option, checked.
 * @throws TypeError for a value that is none of the three modes
 * @internal
 */
export function legacyModeOf(legacy: unknown): LegacyMode {
  const mode = legacy ?? "sessions";
  if (!LEGACY_MODES.has(mode)) {
    throw new TypeError(`Server: legacy must be "sessions", "stateless" or "reject", got ${JSON.stringify(legacy)}`);
  }
  return mode as LegacyMode;
}

const LEGACY_INPUT_REQUIRED: ReadonlySet<unknown> = new Set(["reject", "shim"]);

/**
 * The `legacyInputRequired` option, checked.
 * @throws TypeError for a value that is neither `"reject"` nor `"shim"`
 * @internal
 */
export function legacyInputRequiredOf(value: unknown): "reject" | "shim" {
  const choice = value ?? "reject";
  if (!LEGACY_INPUT_REQUIRED.has(choice)) {
    throw new TypeError(`Server: legacyInputRequired must be "reject" (the default) or "shim", got ${JSON.stringify(value)}`);
  }
  return choice as "reject" | "shim";
}

/**
 * The `maxNestingDepth` option, checked.
 * @throws RangeError for a depth that is not a positive integer
 * @internal
 */
export function nestingLimitOf(limit: unknown): number {
  const value = limit ?? DEFAULT_MAX_NESTING_DEPTH;
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    throw new RangeError(`Server: maxNestingDepth must be a positive integer, got ${String(limit)}`);
  }
  return value as number;
}

/**
 * The `cache` option as a frozen table.
 * @throws TypeError for a method that is not cacheable or a malformed hint
 * @internal
 */
export function cacheHintsOf(cache: ServerOptions["cache"]): Map<string, CacheHint> {
  const hints = new Map<string, CacheHint>();
  for (const [method, hint] of Object.entries(cache ?? {})) {
    if (!ROUTES.get(method)?.cacheable) throw new TypeError(`Server: ${method} is not a cacheable method`);
    if (!isObject(hint) || !Number.isInteger(hint.ttlMs) || (hint.ttlMs as number) < 0 || (hint.cacheScope !== "public" && hint.cacheScope !== "private")) {
      throw new TypeError(`Server: cache hint for ${method} must be { ttlMs: integer >= 0, cacheScope: "public" | "private" }`);
    }
    hints.set(method, Object.freeze({ ttlMs: hint.ttlMs as number, cacheScope: hint.cacheScope }));
  }
  return hints;
}

/** The `subscriptions` option, checked. @throws TypeError or RangeError naming the bad field @internal */
export function subscriptionOptionsOf(options: unknown): {
  maxListeners: number;
  broadcaster: Broadcaster | undefined;
  honour: ReadonlySet<SubscriptionType> | undefined;
} {
  if (options === undefined) return { maxListeners: DEFAULT_MAX_LISTENERS, broadcaster: undefined, honour: undefined };
  if (!isObject(options)) throw new TypeError("Server: subscriptions must be an object, e.g. { maxListeners: 1000 }");
  const max = options.maxListeners ?? DEFAULT_MAX_LISTENERS;
  if (!Number.isSafeInteger(max) || (max as number) < 0) {
    throw new RangeError(`Server: subscriptions.maxListeners must be an integer >= 0, got ${String(options.maxListeners)}`);
  }
  const broadcaster = options.broadcaster as Broadcaster | undefined;
  if (broadcaster !== undefined && (!isObject(broadcaster) || typeof broadcaster.publish !== "function" || typeof broadcaster.subscribe !== "function")) {
    throw new TypeError("Server: subscriptions.broadcaster must have publish(event) and subscribe(deliver), e.g. new InProcessBroadcaster()");
  }
  let honour: Set<SubscriptionType> | undefined;
  if (options.honour !== undefined) {
    if (!Array.isArray(options.honour) || options.honour.some((type) => !SUBSCRIPTION_TYPES.includes(type as SubscriptionType))) {
      throw new TypeError(`Server: subscriptions.honour must list some of ${SUBSCRIPTION_TYPES.join(", ")}`);
    }
    honour = new Set(options.honour as SubscriptionType[]);
  }
  return { maxListeners: max as number, broadcaster, honour };
}
