/**
 * What travels with a message from the transport to the server: the
 * caller's verified identity and the per-request channels, and how a server
 * treats 2025-era clients. Here, below both, so the state layer can bind to
 * a request without importing a transport.
 *
 * @module
 */
import type { JsonRpcNotification, JsonRpcRequest } from "./jsonrpc/messages.js";

/**
 * What a verified bearer token says about its bearer. Transports that
 * authenticate (Streamable HTTP with `authorization`) put it on the request
 * context; request-state sealing binds to it.
 */
export interface AuthInfo {
  /** The OAuth client the token was issued to. */
  clientId: string;
  /** The authorization server that issued the token, when known. */
  issuer?: string;
  /** The end user the token acts for, when the verifier reports one. */
  subject?: string;
  /** Scopes granted to the token. */
  scopes: string[];
  /** Expiry, in seconds since the epoch. */
  expiresAt?: number;
  /** Anything else the verifier wants handlers to see. */
  extra?: Record<string, unknown>;
}

/**
 * Per-request facts a transport hands to the server along with a message.
 * Everything is optional: the in-memory transport may pass nothing.
 */
export interface RequestContext {
  /** The verified identity of the caller, when the transport authenticated it. */
  authInfo?: AuthInfo;
  /** Aborted when the caller goes away (closed HTTP stream, cancelled notification). */
  signal?: AbortSignal;
  /**
   * Calls `callback` once when the caller goes away, like `signal` but
   * without creating one: what a long-lived stream (`subscriptions/listen`)
   * waits on, where an AbortController per stream would be most of its
   * memory. Returns the function that detaches it. Optional: without it,
   * the server watches `signal`.
   */
  whenGone?(callback: () => void): () => void;
  /** True once the caller went away, for transports that offer `whenGone`. */
  readonly gone?: boolean;
  /**
   * Sends a notification (progress, logging) related to this request back to
   * the caller, on the same response stream where the transport has one.
   */
  sendNotification?: (notification: JsonRpcNotification) => void | Promise<void>;
  /** The HTTP request headers, when the message arrived over HTTP. */
  headers?: Headers;
  /**
   * Sends a server-to-client message that belongs to this request (in a
   * 2025 session: an `elicitation/create` asked while a tool runs, or a
   * progress notification) on this request's own channel: its response
   * stream over HTTP, the pipe over stdio. Transports without one leave it
   * undefined, and the session falls back to its `SessionPeer` (see the transport types).
   */
  sendRelated?: (message: JsonRpcRequest | JsonRpcNotification) => void | Promise<void>;
  /**
   * The `MCP-Protocol-Version` HTTP header, when the message arrived over
   * HTTP with one. A stateless server reads a 2025 request's version from it.
   */
  protocolVersionHeader?: string;
}

/**
 * How a server treats 2025-era (handshake) clients:
 *
 * - `"sessions"` (default): `initialize` opens a session with a back
 *   channel, so declared needs can ask the client mid-call.
 * - `"stateless"`: each 2025 request is answered on its own, with no
 *   session and no server-to-client requests.
 * - `"reject"`: every 2025 request gets `-32022` naming the supported versions.
 */
export type LegacyMode = "sessions" | "stateless" | "reject";
