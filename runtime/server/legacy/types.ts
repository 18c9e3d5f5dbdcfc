/**
 * The shapes the 2025 session modules pass between each other: what a
 * broadcast needs of a session, what a request is answered with, and what
 * the request path uses of its session. Kept apart from the session so the
 * request path (dispatch, back channel, shim) and the session that calls it
 * do not import each other.
 *
 * @module
 * @internal
 */
import type { JsonRpcNotification } from "../../protocol/jsonrpc/messages.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../protocol/types.js";
import type { RequestContextImpl } from "../context.js";

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
  /** Registers a request being answered, so `notifications/cancelled` can reach it. */
  track(ctx: RequestContextImpl): void;
  untrack(ctx: RequestContextImpl): void;
}

/** What a 2025 request is answered with: the agreed version and what the client declared. @internal */
export interface LegacyScope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
  /** The session, when there is one: the back channel needs ask over. */
  readonly session: LegacyChannel | undefined;
}
