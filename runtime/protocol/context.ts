/**
 * What travels with a message from the transport to the server: the
 * caller's verified identity and the per-request channels (among them the
 * stream a transport may hold for a long-lived request), and how a server
 * treats 2025-era clients. Here, below both, so the state layer can bind to
 * a request without importing a transport.
 *
 * @module
 */
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./jsonrpc/messages.js";

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
   * 2025 session: an input request asked while a tool runs, or a
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
  /**
   * Takes over this request's open stream once the server needs nothing of
   * the request but the stream (a `subscriptions/listen` whose
   * acknowledgement is out): the transport keeps `filter` and `owner` on the
   * stream and drops everything else of the request. The request's answer is
   * then written through {@link HeldStream.finish}; the promise `handle`
   * returned resolves with `undefined` and is not written. `undefined` when
   * the transport cannot (no stream is open, the client went away, the
   * request is not one it holds streams for).
   * @internal
   */
  holdStream?(owner: HeldStreamOwner, filter: unknown): HeldStream | undefined;
}

/**
 * The server's side of the streams it handed over: one object shared by
 * many streams (per server, route and protocol version), never one per
 * stream.
 * @internal
 */
export interface HeldStreamOwner {
  /**
   * The stream's request is over without an answer of the server's: the
   * client went away (closed the stream or the connection). Called once.
   */
  gone(stream: HeldStream): void;
}

/**
 * An open per-request stream its transport holds on the server's behalf
 * (see `RequestContext.holdStream`). The transport implements it; the
 * server delivers through it and ends it.
 * @internal
 */
export interface HeldStream {
  /** The id of the request the stream answers. */
  readonly requestId: JsonRpcId;
  /** The verified identity of the caller, when the transport authenticated it. */
  readonly authInfo: AuthInfo | undefined;
  /** What the server delivers on this stream, in the server's own shape: kept here so that no second object is. */
  readonly filter: unknown;
  /** Who is told when the client goes away. */
  readonly owner: HeldStreamOwner;
  /**
   * Writes one notification on the stream.
   * @returns `false` once the stream is closed
   */
  send(notification: JsonRpcNotification): boolean;
  /**
   * Writes the request's answer and ends the stream. `undefined` is a
   * request the server answered with nothing (cancelled): on a stream the
   * client still reads, the transport says so as it would for any request.
   */
  finish(response: JsonRpcResponse | undefined): void;
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
