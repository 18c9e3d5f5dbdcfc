import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../jsonrpc/messages.js";

/**
 * What a verified bearer token says about its bearer. Transports that
 * authenticate (Streamable HTTP with `verifyToken`) put it on the request
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
   * Sends a notification (progress, logging) related to this request back to
   * the caller, on the same response stream where the transport has one.
   */
  sendNotification?: (notification: JsonRpcNotification) => void | Promise<void>;
  /** The HTTP request headers, when the message arrived over HTTP. */
  headers?: Headers;
}

/**
 * Anything that answers decoded JSON-RPC messages: `Server`, `McpServer`.
 * Transports depend on this shape only.
 *
 * `handle` takes one decoded JSON value (never a string, never a batch) and
 * resolves to the response for a request, or `undefined` for a notification.
 * It never rejects: every failure becomes a JSON-RPC error response.
 */
export interface MessageHandler {
  handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined>;
}

/** Per-call options a client passes to its transport. */
export interface TransportRequestOptions {
  /** Aborts the request. */
  signal?: AbortSignal;
  /** Receives notifications the server sends while answering this request. */
  onNotification?: (notification: JsonRpcNotification) => void;
}

/**
 * The client's side of a wire: one request in, one response out. In-memory,
 * Streamable HTTP and stdio transports all implement it.
 */
export interface ClientTransport {
  /** Sends a request and resolves with its response (result or error). */
  request(message: JsonRpcRequest, options?: TransportRequestOptions): Promise<JsonRpcResponse>;
  /** Sends a notification; resolves once it is handed to the wire. */
  notify(message: JsonRpcNotification): Promise<void>;
  /**
   * Installs the handler for requests the server initiates (the 2025-era
   * back-channel: `elicitation/create`, `sampling/createMessage`, `roots/list`).
   * Transports that cannot carry them leave this undefined.
   */
  setServerRequestHandler?(handler: (request: JsonRpcRequest) => Promise<JsonRpcResponse>): void;
  /** Releases the wire (closes the child process, aborts open streams). */
  close(): Promise<void>;
}
