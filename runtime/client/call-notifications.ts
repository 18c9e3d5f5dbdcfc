/**
 * Notifications that belong to one call (progress, log messages), turned
 * into the per-call callbacks of `callTool`, `getPrompt` and `readResource`:
 * the progress token and log level that ask for them go into the request's
 * `_meta`, and the notifications that come back are matched to the call.
 *
 * @module
 */
import type { JsonRpcNotification } from "../protocol/jsonrpc/messages.js";
import type { LoggingLevel } from "../protocol/types.js";
import type { JsonObject } from "./protocol.js";

/** One `notifications/progress` of a call. */
export interface ProgressUpdate {
  /** Work done so far; increases with every update. */
  readonly progress: number;
  /** The total, when the server knows it. */
  readonly total?: number;
  /** What the server is doing, for people. */
  readonly message?: string;
}

/**
 * One `notifications/message` of a call.
 * @deprecated The protocol deprecates Logging as of 2026-07-28 (SEP-2577): servers should log to stderr or to OpenTelemetry instead.
 */
export interface LogMessage {
  /** The severity the server gave it; only messages at or above the call's `logLevel` are sent. */
  readonly level: LoggingLevel;
  /** Whatever the server logged: a string or any JSON value, passed through unchecked. */
  readonly data: unknown;
  /** The name of the server-side logger it came from, when the server gave one. */
  readonly logger?: string;
}

/** The per-call notification options. */
export interface CallNotificationOptions {
  /** Receives the call's progress; sends a fresh `progressToken` in the request's `_meta` to ask for it. */
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * Receives the call's log messages; asks for them at `logLevel` (default `"debug"`, everything).
   * @deprecated The protocol deprecates Logging as of 2026-07-28 (SEP-2577): log messages still arrive from
   *   servers that send them, but new servers log to stderr or OpenTelemetry, so do not build on them.
   */
  onLog?: (message: LogMessage) => void;
  /**
   * The least severe log level to ask for (`io.modelcontextprotocol/logLevel`).
   * @deprecated With Logging (SEP-2577); see `onLog`.
   */
  logLevel?: LoggingLevel;
}

const LOG_LEVEL_META = "io.modelcontextprotocol/logLevel";
let nextToken = 0;
/** A short random prefix, so the tokens of two clients on one server differ. */
const PREFIX = Math.random().toString(36).slice(2, 8);

/**
 * The `_meta` and notification receiver of one call. The receiver returns
 * true for a notification it handed to `onProgress` or `onLog`, so the
 * client-wide `onNotification` does not get it too. @internal
 */
export interface CallWiring {
  readonly meta: JsonObject | undefined;
  readonly onNotification: ((notification: JsonRpcNotification) => boolean) | undefined;
}

function check(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") throw new TypeError(`${name} must be a function, got ${typeof value}.`);
}

/**
 * Builds the wiring of one call from its options; `meta` is the caller's own `_meta`.
 * @throws TypeError when a callback is not a function
 * @internal
 */
export function wireCall(options: CallNotificationOptions | undefined, meta: JsonObject | undefined): CallWiring {
  const onProgress = options?.onProgress;
  const onLog = options?.onLog;
  check("onProgress", onProgress);
  check("onLog", onLog);
  if (onProgress === undefined && onLog === undefined) return { meta, onNotification: undefined };
  const own: JsonObject = meta === undefined ? {} : { ...meta };
  const token = onProgress === undefined ? undefined : ((own.progressToken as string | number | undefined) ?? `mcp-roundtrip-${PREFIX}-${++nextToken}`);
  if (token !== undefined) own.progressToken = token;
  if (onLog !== undefined && own[LOG_LEVEL_META] === undefined) own[LOG_LEVEL_META] = options?.logLevel ?? "debug";
  return {
    meta: own,
    onNotification: (notification) => {
      const params = (notification.params ?? {}) as Record<string, unknown>;
      if (notification.method === "notifications/progress" && onProgress !== undefined && params.progressToken === token) {
        const progress = params.progress;
        if (typeof progress !== "number") return false;
        const update: { progress: number; total?: number; message?: string } = { progress };
        if (typeof params.total === "number") update.total = params.total;
        if (typeof params.message === "string") update.message = params.message;
        onProgress(update);
        return true;
      }
      if (notification.method === "notifications/message" && onLog !== undefined && typeof params.level === "string") {
        const message: { level: LoggingLevel; data: unknown; logger?: string } = { level: params.level as LoggingLevel, data: params.data };
        if (typeof params.logger === "string") message.logger = params.logger;
        onLog(message);
        return true;
      }
      return false;
    },
  };
}
