/**
 * The shapes the 2025 session modules pass between each other: what a
 * broadcast needs of a session, what a request is answered with, and what
 * the request path uses of its session. Kept apart from the session so the
 * request path (profile, back channel, shim) and the session that calls it
 * do not import each other.
 *
 * @module
 * @internal
 */
import type { JsonRpcNotification } from "../../protocol/jsonrpc/messages.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../protocol/types.js";
import type { RequestContextImpl } from "../context.js";
import type { RequestTracker } from "../request.js";

/** What a broadcast needs of a session. @internal */
export interface Broadcastable {
  notify(notification: JsonRpcNotification): void;
  isSubscribed(uri: string): boolean;
}

/** What the request path uses of the 2025 session a request belongs to (`LegacySession` implements it). @internal */
export interface LegacyChannel {
  /** Asks the client every request of one round at once and resolves with their results under the same keys. */
  askAll(requests: Record<string, { method: string; params?: Record<string, unknown> }>, ctx: RequestContextImpl): Promise<Record<string, Record<string, unknown>>>;
  subscribe(uri: string): void;
  unsubscribe(uri: string): void;
  setLogLevel(level: LoggingLevel): void;
}

/**
 * What a 2025 request is answered within: the agreed version, what the
 * client declared, and where the request is tracked. A session is its own
 * requests' scope; a stateless request gets one of its own.
 * @internal
 */
export interface LegacyScope extends RequestTracker {
  /** The version agreed (a session, after `initialize`) or named by the request's header (stateless). */
  readonly protocolVersion: string | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
  /** The session, when there is one: the back channel needs ask over. */
  readonly session: LegacyChannel | undefined;
}
