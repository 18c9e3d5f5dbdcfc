/**
 * The one logger shape of the package (server, request-state sealing,
 * transports): `debug`, `info`, `warn`, `error`, each `(message, fields?)`
 * with structured fields (`method`, `tool`, `round`, `inputKey`, `reason`,
 * `session`, …). `console` fits it as is; a pino logger (whose methods take
 * `(fields, message)`) is recognised and called its own way.
 *
 * No imports: every layer may use it.
 */

/** Structured fields of one log line. Never a token, key or secret. */
export type LogFields = Record<string, unknown>;

/** How much is logged, least to most severe; `"silent"` logs nothing. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/**
 * Where the SDK writes what never goes on the wire. `console` is one; so is
 * a pino logger (detected by its `levels` and `child`, and called as
 * `(fields, message)`). `debug` and `info` may be left out: those lines are
 * then dropped.
 */
export interface Logger {
  /** Each decision the SDK makes (a round's questions, a session opened or closed); only at `logLevel: "debug"`. */
  debug?(message: string, fields?: LogFields): void;
  /** Start-up facts (the request-state key ring). */
  info?(message: string, fields?: LogFields): void;
  /** Something was ignored or refused but the server carries on (a rejected request state, a skipped progress value). */
  warn(message: string, fields?: LogFields): void;
  /** A handler failed unexpectedly; the client got only "Internal error", so this is where the cause is. */
  error(message: string, fields?: LogFields): void;
}

/** A {@link Logger} with every level present and its level applied: what {@link createLogger} returns and the SDK's modules call. */
export interface LevelledLogger {
  /** Writes a `debug` line, when the level admits it. */
  debug(message: string, fields?: LogFields): void;
  /** Writes an `info` line, when the level admits it. */
  info(message: string, fields?: LogFields): void;
  /** Writes a `warn` line, when the level admits it. */
  warn(message: string, fields?: LogFields): void;
  /** Writes an `error` line, when the level admits it. */
  error(message: string, fields?: LogFields): void;
  /** Whether a line at `level` would be written (to skip building costly fields). */
  enabled(level: Exclude<LogLevel, "silent">): boolean;
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40, silent: Number.POSITIVE_INFINITY };

/** True for a value accepted as a `logLevel` option. */
function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && Object.hasOwn(RANK, value);
}

/**
 * True for a pino-style logger: `levels.values` (pino's level table) and a
 * `child` function. Its methods take the fields object first.
 */
function isPinoStyle(sink: object): boolean {
  const levels = (sink as { levels?: unknown }).levels;
  return (
    typeof (sink as { child?: unknown }).child === "function" &&
    typeof levels === "object" &&
    levels !== null &&
    typeof (levels as { values?: unknown }).values === "object"
  );
}

type Write = (message: string, fields: LogFields | undefined) => void;

function writerFor(sink: object, level: Exclude<LogLevel, "silent">, pino: boolean): Write | undefined {
  const method = (sink as Record<string, unknown>)[level];
  if (typeof method !== "function") return undefined;
  if (pino) return (message, fields) => method.call(sink, fields ?? {}, message);
  // console.* prints its extra arguments; leave none when there are no fields.
  return (message, fields) => (fields === undefined ? method.call(sink, message) : method.call(sink, message, fields));
}

/**
 * `sink` as it is when its methods take `(message, fields)`; for a pino-style
 * logger, a view whose methods reorder to `(fields, message)`. No level
 * filter: for modules (request-state sealing) that take a sink directly.
 * @internal
 */
export function withCallShape<T extends object>(sink: T): T {
  if (!isPinoStyle(sink)) return sink;
  const view: Record<string, unknown> = {};
  for (const level of ["debug", "info", "warn", "error"] as const) {
    const write = writerFor(sink, level, true);
    if (write !== undefined) view[level] = write;
  }
  return view as T;
}

/**
 * Wraps `sink` at `level`: lines below the level are dropped before any
 * formatting, a missing method drops its lines, and a sink that throws
 * cannot break the caller (logging is best effort).
 *
 * @param sink - `console`, a pino logger, or any {@link Logger}.
 * @param level - the least severe level written (default `"warn"`).
 * @throws TypeError when `sink` has no `warn` and `error` methods, or `level` is not a {@link LogLevel}.
 * @example
 * ```ts
 * import { createLogger } from "mcp-roundtrip/server";
 *
 * const log = createLogger(console, "debug");
 * log.debug("asked again", { tool: "deploy", inputKey: "region" });
 * ```
 */
export function createLogger(sink: Logger = console, level: LogLevel = "warn"): LevelledLogger {
  if (typeof sink !== "object" || sink === null || typeof sink.warn !== "function" || typeof sink.error !== "function") {
    throw new TypeError("logger: expected an object with warn() and error() methods, such as console or a pino logger");
  }
  if (!isLogLevel(level)) {
    throw new TypeError(`logLevel: expected "debug", "info", "warn", "error" or "silent", got ${JSON.stringify(level)}`);
  }
  const pino = isPinoStyle(sink);
  const floor = RANK[level];
  const line = (at: Exclude<LogLevel, "silent">): ((message: string, fields?: LogFields) => void) => {
    const write = RANK[at] >= floor ? writerFor(sink, at, pino) : undefined;
    if (write === undefined) return () => {};
    return (message, fields) => {
      try {
        // Client-supplied text reaches messages and fields (names, keys, reasons): no line is broken or forged with it.
        write(escapeLogText(message), fields === undefined ? undefined : escapeLogFields(fields));
      } catch {
        // Logging is best effort: a broken sink never changes an answer.
      }
    };
  };
  // A sink that is levelled itself (McpServer hands its logger to its Server) is asked too: a line it drops
  // is not worth building, and `enabled` exists so that callers skip building it.
  const sinkEnabled = (sink as Partial<LevelledLogger>).enabled;
  const admits = typeof sinkEnabled === "function" ? (at: Exclude<LogLevel, "silent">) => sinkEnabled.call(sink, at) === true : () => true;
  const debug = line("debug");
  const info = line("info");
  const warn = line("warn");
  const error = line("error");
  return Object.freeze({
    debug,
    info,
    warn,
    error,
    enabled: (at: Exclude<LogLevel, "silent">) => RANK[at] >= floor && typeof (sink as unknown as Record<string, unknown>)[at] === "function" && admits(at),
  });
}

/**
 * C0 controls, DEL, C1 controls and the Unicode line and paragraph
 * separators: what could end a log line, or forge one, in a console, a
 * terminal or a line-oriented log file.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's whole job.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, every occurrence.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeControl(character: string): string {
  return NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` with every control character written as an escape (`\n`, `\r`,
 * `\t`, `\u001b`, …), so a value a client chose (a `clientInfo.name`, a
 * field name in an elicitation answer, a method name) cannot break or forge
 * a log line. Text without one is returned as is.
 *
 * @example
 * ```ts
 * escapeLogText("evil\n[warn] forged"); // 'evil\\n[warn] forged'
 * ```
 */
export function escapeLogText(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, escapeControl) : text;
}

/** `fields` with control characters escaped in its string values (and strings in array values); itself when it has none. @internal */
export function escapeLogFields<T extends LogFields>(fields: T): T {
  let escaped: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    let safe = value;
    if (typeof value === "string") safe = escapeLogText(value);
    else if (Array.isArray(value) && value.some((item) => typeof item === "string" && CONTROL.test(item))) {
      safe = value.map((item) => (typeof item === "string" ? escapeLogText(item) : item));
    }
    if (safe !== value) (escaped ??= { ...fields })[key] = safe;
  }
  return (escaped as T | undefined) ?? fields;
}

/** A logger that writes nothing. @internal */
export const SILENT_LOGGER: LevelledLogger = Object.freeze({
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  enabled: () => false,
});
