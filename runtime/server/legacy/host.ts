/**
 * What the 2025-era request path needs from the server that owns it, and
 * the options that bound 2025 sessions.
 *
 * @internal
 */
import type { Answered } from "../../protocol/contracts.js";
import type { LegacyMode, RequestContext } from "../../protocol/context.js";
import type { ClassifiedRequest } from "../../protocol/message.js";
import type { AnyHandler, Invocation, RequestHost } from "../request.js";
import type { RequestContextImpl } from "../context.js";
import type { Broadcastable, LegacyScope } from "./types.js";

/** Options of the 2025 sessions a server holds. */
export interface LegacySessionOptions {
  /**
   * How long the server waits for the client to answer a request it sent
   * over a session (an input request of any kind), in milliseconds. A person may be filling in a form, so
   * the default is generous: 10 minutes. The tool's own cancellation ends
   * the wait sooner.
   */
  requestTimeoutMs?: number;
  /**
   * Most rounds of questions one call may take over a session before it
   * fails with `-32603` (a client whose answers never satisfy the tool's
   * needs would otherwise loop forever). Default 16.
   */
  maxRounds?: number;
}

/** {@link LegacySessionOptions} with defaults filled in. @internal */
export interface ResolvedLegacyOptions {
  readonly requestTimeoutMs: number;
  readonly maxRounds: number;
}

/** Fills in defaults. @throws RangeError for a bound that is not a positive integer. @internal */
export function resolveLegacyOptions(options: LegacySessionOptions | undefined): ResolvedLegacyOptions {
  const requestTimeoutMs = options?.requestTimeoutMs ?? 600_000;
  const maxRounds = options?.maxRounds ?? 16;
  if (!Number.isSafeInteger(requestTimeoutMs) || requestTimeoutMs <= 0) {
    throw new RangeError(`legacySessions.requestTimeoutMs must be a positive integer number of milliseconds, got ${String(requestTimeoutMs)}`);
  }
  if (!Number.isSafeInteger(maxRounds) || maxRounds <= 0) {
    throw new RangeError(`legacySessions.maxRounds must be a positive integer, got ${String(maxRounds)}`);
  }
  return Object.freeze({ requestTimeoutMs, maxRounds });
}

/** The server as its 2025 request path and sessions see it. @internal */
export interface LegacyHost extends RequestHost {
  readonly mode: LegacyMode;
  readonly options: ResolvedLegacyOptions;
  /** What a hand-built `InputRequiredResult` gets in a 2025 session (the `legacyInputRequired` option; see `shim.ts`). */
  readonly inputRequired: "reject" | "shim";
  /** Answers a 2026-07-28 request on the stateless path (a connection that has not started a session yet). */
  handleModern(message: ClassifiedRequest, context: RequestContext | undefined): Answered;
  /** Runs the custom handler of a notification the protocol does not define, if one is registered (`setNotificationHandler`). */
  onNotification(method: string, params: Record<string, unknown> | undefined, context: RequestContext | undefined): void;
  /** Tells the server a session ended, so broadcasts stop reaching it. */
  sessionClosed(session: Broadcastable): void;
}

/**
 * What logs name a 2025 session by: the first 8 characters of its id. The
 * whole id lets whoever holds it speak as the session, so it is never logged.
 * @internal
 */
export function sessionLabel(id: string): string {
  return id.slice(0, 8);
}

/**
 * A 2025 call whose handler answered `input_required`: what settling it
 * over the session (the back channel, or the shim for a hand-built round)
 * needs.
 * @internal
 */
export interface PendingCall {
  readonly host: LegacyHost;
  readonly handler: AnyHandler;
  /** The handler call that asked, with the middleware view of the request. */
  readonly invocation: Invocation;
  readonly ctx: RequestContextImpl;
  readonly scope: LegacyScope;
}
