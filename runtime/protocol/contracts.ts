/**
 * What a transport and a side (server or client) agree on: the message
 * handler a server transport drives, the 2025 session host and its
 * sessions, and the client transport a client drives. Here, in the protocol
 * floor, so the server and the client name them without importing a
 * transport, and the transports without importing a side.
 *
 * @module
 */
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./jsonrpc/messages.js";
import type { LegacyMode, RequestContext } from "./context.js";
import type { ClassifiedMessage } from "./message.js";

/**
 * What `handleClassified` returns: the answer itself when nothing had to
 * be waited for (a transport writes it in the same turn, with no promise),
 * else a promise of it.
 * @internal
 */
export type Answered = JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;

/**
 * Anything that answers decoded JSON-RPC messages: `Server`, `McpServer`.
 * Transports depend on this shape only.
 *
 * `handle` takes one decoded JSON value (never a string, never a batch) and
 * resolves to the response for a request, or `undefined` for a notification.
 * It never rejects: every failure becomes a JSON-RPC error response.
 */
export interface MessageHandler {
  /**
   * Handles one message.
   *
   * @param message - one parsed JSON value, unchecked: the handler validates it
   * @param context - what the transport knows of the request (auth, headers, a channel for related messages)
   * @returns the response to a request, or `undefined` for a notification or a response
   */
  handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined>;
  /**
   * Handles one message a transport already classified (`classifyMessage`,
   * at its edge), so the envelope and the era are judged once. Optional:
   * transports fall back to `handle(message.message)` without it.
   *
   * @param message - the classified message
   * @param context - what the transport knows of the request
   * @returns the response to a request, or `undefined` for a notification or a response: at once when
   *   nothing had to be waited for, else as a promise (never a rejected one)
   * @internal
   */
  handleClassified?(message: ClassifiedMessage, context?: RequestContext): Answered;
}

/**
 * Where a 2025 session sends the messages it starts that belong to no
 * request of the client: list-changed and resource-updated notifications,
 * and requests asked outside a call. Over stdio that is the pipe; over HTTP
 * the session's GET event stream (or its buffer until one opens).
 */
export interface SessionPeer {
  /** Delivers one message; rejects or throws when it cannot (the client is gone). */
  send(message: JsonRpcRequest | JsonRpcNotification): void | Promise<void>;
}

/**
 * One 2025-era session, from `initialize` to close, on a transport that
 * keeps a connection (stdio, in memory) or a session id (HTTP).
 */
export interface ServerSession {
  /** An id unique among this server's sessions, usable as HTTP `Mcp-Session-Id` (visible ASCII). */
  readonly id: string;
  /** The version `initialize` agreed; `undefined` until then. */
  readonly protocolVersion: string | undefined;
  /**
   * Answers one message of the session: its requests and notifications, and
   * the client's responses to requests the server sent (those resolve to
   * `undefined`). A request before `initialize`, or a 2026-07-28 request
   * once the session has started, gets a clear error. Never rejects.
   */
  handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined>;
  /**
   * {@link ServerSession.handle} for a message the transport already classified (optional, as on
   * `MessageHandler`): the answer at once when nothing had to be waited for, else a promise of it. @internal
   */
  handleClassified?(message: ClassifiedMessage, context?: RequestContext): Answered;
  /** Ends the session: requests it sent reject, requests it is answering are cancelled. Idempotent. */
  close(reason?: string): void;
  /** True once closed. */
  readonly closed: boolean;
}

/**
 * A {@link MessageHandler} that also serves 2025-era clients in sessions:
 * `Server` and `McpServer`. Session-capable transports (stdio, HTTP, in
 * memory) open one session per connection or per `initialize`.
 */
export interface SessionHost extends MessageHandler {
  /** How this server treats 2025-era clients. */
  readonly legacy: LegacyMode;
  /** Opens a session whose unrelated server-to-client messages go to `peer`. */
  openSession(peer: SessionPeer): ServerSession;
}

/** True when `handler` can hold 2025 sessions. */
export function isSessionHost(handler: unknown): handler is SessionHost {
  return (
    typeof handler === "object" &&
    handler !== null &&
    typeof (handler as SessionHost).openSession === "function" &&
    typeof (handler as SessionHost).handle === "function"
  );
}

/**
 * Answers one request a 2025-era server sent. `relatedRequestId` is the
 * client's request on whose response the server sent it (HTTP: the call's
 * SSE stream), when the wire says.
 */
export type ServerRequestHandler = (request: JsonRpcRequest, context?: { relatedRequestId?: JsonRpcId | undefined }) => Promise<JsonRpcResponse>;

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
   * back-channel: input requests of any kind, and `ping`).
   * Transports that cannot carry them leave this undefined.
   */
  setServerRequestHandler?(handler: ServerRequestHandler): void;
  /**
   * Installs the receiver of notifications that belong to no request: a
   * 2025-era server's list-changed, log and resource-updated notifications
   * (HTTP: on the GET stream; stdio: lines no pending request claims).
   */
  setNotificationHandler?(handler: (notification: JsonRpcNotification) => void): void;
  /**
   * Tells the transport the version `initialize` agreed with a 2025-era
   * server, for the messages whose `_meta` names none (HTTP: the
   * `MCP-Protocol-Version` header of every later message). A handshake-era
   * version also turns on that era's transport behaviour (HTTP: the
   * session id, resumable streams, DELETE on close).
   */
  useProtocolVersion?(version: string): void;
  /**
   * Names the server this transport reaches, so `Client.connect` in
   * `mode: "auto"` can remember its era per server (e.g. `"http
   * https://host/mcp"`, or the command line and working directory for
   * stdio). Leave it undefined when the transport names no server: the
   * client then probes every time.
   */
  readonly endpointKey?: string;
  /**
   * Starts receiving messages a 2025-era server sends outside any request
   * (HTTP: opens the GET event stream and keeps it open while the server
   * offers it). Transports whose wire always carries them (stdio) leave
   * this undefined.
   *
   * @returns a promise that settles (never rejects) once the server answered the opening attempt.
   */
  openEventStream?(): Promise<void>;
  /**
   * Forgets a 2025 session the server no longer knows (HTTP: after a 404 to
   * its `Mcp-Session-Id`), so the next `initialize` starts a new one.
   */
  resetSession?(): void;
  /**
   * Makes the wire usable again after the peer went away during the version
   * probe (stdio: respawns the same command when `server/discover` made the
   * child exit).
   *
   * @returns true when it started the wire afresh, false when it was alive.
   */
  reopen?(): Promise<boolean>;
  /**
   * Cancels a request in flight the way the wire and the agreed version
   * define it (stdio and 2025 HTTP sessions: `notifications/cancelled` with
   * its id; 2026 HTTP: the response stream closed) and settles its pending
   * `request` with `reason`. Does nothing for an id no longer in flight.
   * The client calls it when a request times out.
   */
  cancel?(id: JsonRpcId, reason: Error): void;
  /** Releases the wire (closes the child process, aborts open streams; ends a 2025 HTTP session with DELETE). */
  close(): Promise<void>;
}
