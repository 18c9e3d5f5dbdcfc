/**
 * The 2025 half of Streamable HTTP on the server: `initialize` opens a
 * session and names it in `Mcp-Session-Id`; later POSTs carry that header;
 * a GET opens the session's event stream (resumable with `Last-Event-ID`);
 * DELETE ends it (those two in `session-get.ts`). Requests of a session are
 * answered as JSON, or as an SSE stream once the server sends something
 * related to them (a progress notification, an input request its needs ask).
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import type { AuthInfo, RequestContext } from "../../types.js";
import { errorBody, JSON_HEADERS, refuse, SSE_HEADERS, type HttpReply, type HttpStream, type IncomingHttp } from "./exchange.js";
import type { HttpSession, HttpSessions } from "./sessions.js";
import type { AnsweringRequest } from "./session-types.js";
import type { EventLog } from "./event-log.js";
import { isObject, isThenable } from "../../../protocol/guards.js";
import { scopeChallengeOf } from "./auth.js";
import type { ResolvedAuthorization } from "./authorization.js";
import { HeaderName, SESSION_HEADER } from "../../../protocol/names.js";
import type { ClassifiedMessage, ClassifiedNotification, ClassifiedRequest, ClassifiedResponse } from "../../../protocol/message.js";
import type { Answered } from "../../../protocol/contracts.js";
import { legacyErrorStatus } from "./status.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import { TEMPORARILY_UNAVAILABLE_REASON } from "../../../protocol/unavailable.js";

/** The header that names a 2025 session. */
export { SESSION_HEADER } from "../../../protocol/names.js";

/** A `404` for a session id this server does not hold (or no longer does). @internal */
export function notFound(reply: HttpReply, sessions: HttpSessions, found: "expired" | undefined, id?: unknown): void {
  const message =
    found === "expired"
      ? `Session not found: it ended (closed, or idle for more than ${Math.round(sessions.limits.idleTimeoutMs / 1000)} s). Send initialize again without Mcp-Session-Id to start a new one.`
      : "Session not found: this server holds no session with that Mcp-Session-Id (it may have restarted, or the request reached another instance). Send initialize again without Mcp-Session-Id.";
  refuse(reply, 404, -32001, message, id);
}

/**
 * Opens an SSE answer whose connection closing calls `gone(writer)`: the
 * owner detaches exactly that connection, never one that took over since.
 * @internal
 */
export function openSse(request: IncomingHttp, reply: HttpReply, bound: number, gone: (writer: HttpStream) => void): HttpStream {
  let writer: HttpStream | undefined;
  const onGone = () => {
    if (writer !== undefined) gone(writer);
  };
  writer = reply.stream({ ...SSE_HEADERS }, onGone, bound);
  request.onGone(onGone);
  return writer;
}

/**
 * The {@link RequestContext} of a request inside a session. Unlike a
 * stateless request, its connection closing does not cancel it (the 2025
 * transport page: the client cancels with `notifications/cancelled`), and
 * what it streams is logged so the client can resume the stream.
 */
class SessionRequestContext implements RequestContext, AnsweringRequest {
  declare authInfo?: AuthInfo;
  declare protocolVersionHeader?: string;
  /** The endpoint's authorization: an `insufficient_scope` answer becomes a `403` challenge. */
  declare scopeAuth?: ResolvedAuthorization;
  readonly sendNotification: (message: JsonRpcMessage) => Promise<void> | undefined;
  readonly sendRelated: (message: JsonRpcMessage) => Promise<void> | undefined;
  finished = false;
  readonly #entry: HttpSession;
  readonly #request: IncomingHttp;
  readonly #reply: HttpReply;
  #headers: Headers | undefined;
  #log: EventLog | undefined;
  /** The request's id, once registered: for an answer the transport writes itself. */
  #id: JsonRpcId | undefined;
  /** Ids of the server's requests written on this request's stream. */
  #carried: JsonRpcId[] | undefined;

  constructor(entry: HttpSession, request: IncomingHttp, reply: HttpReply) {
    this.#entry = entry;
    this.#request = request;
    this.#reply = reply;
    this.sendNotification = this.sendRelated = (message) => this.#emit(message);
  }

  get headers(): Headers {
    return (this.#headers ??= this.#request.headers());
  }

  /** Writes the final response: on the stream if one opened, else as JSON. */
  answer(response: JsonRpcResponse): void {
    if (this.finished) return; // cancelled, or the session ended first
    this.#finish();
    const log = this.#log;
    if (log !== undefined) {
      log.append(response);
      log.end();
      return;
    }
    const challenge = scopeChallengeOf(this.scopeAuth, response);
    if (challenge !== undefined) {
      this.#reply.send(403, { ...JSON_HEADERS, "www-authenticate": challenge }, JSON.stringify(response));
      return;
    }
    const status = "error" in response ? legacyErrorStatus(response.error.code) : 200;
    this.#reply.send(status, JSON_HEADERS, JSON.stringify(response));
  }

  /** The client cancelled: no answer (the spec asks for none); the stream, if one opened, ends and is forgotten. */
  cancelled(): void {
    if (this.finished) return;
    this.#finish();
    const log = this.#log;
    if (log === undefined) this.#reply.send(202, {}, "");
    else this.#entry.dropStream(log);
  }

  /** The session ended before the answer: a stream was ended with the session's; a JSON answer says why. */
  sessionEnded(reason: string): void {
    if (this.finished) return;
    this.#finish();
    this.#log?.end();
    if (this.#log === undefined) {
      this.#reply.send(200, JSON_HEADERS, errorBody(this.#id, JsonRpcErrorCode.InternalError, `The session ended before this request was answered: ${reason}`));
    }
  }

  /** Registers the request with its session, so a cancellation or the session's end reaches this POST; returns the function that unregisters it. */
  register(id: JsonRpcId): () => void {
    this.#id = id;
    return this.#entry.answering(id, this);
  }

  #emit(message: JsonRpcMessage): Promise<void> | undefined {
    if (this.finished) return undefined; // after the response nothing more belongs to this request
    let log = this.#log;
    if (log === undefined) {
      log = this.#log = this.#entry.openStream();
      const opened = log;
      opened.attach(openSse(this.#request, this.#reply, this.#entry.maxStreamBufferBytes, (writer) => opened.detach(writer)));
    }
    if ("id" in message && "method" in message) {
      (this.#carried ??= []).push(message.id);
      this.#entry.carried(message.id, log);
    }
    return log.append(message);
  }

  /** Nothing more will be written for this request. */
  #finish(): void {
    this.finished = true;
    if (this.#carried !== undefined) this.#entry.uncarry(this.#carried);
  }
}

/** A POST with no session header whose message is `initialize`: opens a session and answers with its id. */
export async function serveInitialize(
  sessions: HttpSessions,
  request: IncomingHttp,
  reply: HttpReply,
  message: ClassifiedRequest,
  authInfo: AuthInfo | undefined,
): Promise<void> {
  const entry = sessions.open(authInfo);
  if (typeof entry === "string") {
    const limits = sessions.limits;
    const full =
      entry === "maxSessions"
        ? `this server holds at most ${limits.maxSessions} 2025 sessions at once (maxSessions)`
        : `this client already holds ${limits.maxSessionsPerPrincipal} 2025 sessions, its share of this server (maxSessionsPerPrincipal)`;
    refuse(
      reply,
      503,
      JsonRpcErrorCode.InvalidRequest,
      `Too many sessions: ${full}. Close unused ones with DELETE, retry later, or connect with a 2026-07-28 client, which needs no session.`,
      message.id,
      { "retry-after": "5" },
    );
    return;
  }
  const context = contextFor(entry, request, reply, authInfo);
  const response = await handOver(entry, message, context);
  if (response === undefined || "error" in response) {
    // A failed handshake leaves nothing behind.
    sessions.close(entry, "initialize failed", false);
    context.answer(response ?? errorResponse(message.id, { code: JsonRpcErrorCode.InternalError, message: "Internal error" }));
    return;
  }
  reply.send(200, { ...JSON_HEADERS, [SESSION_HEADER]: entry.id }, JSON.stringify(response));
}

/** A POST carrying `Mcp-Session-Id`: a request, notification or response of that session. */
export function serveSessionPost(
  sessions: HttpSessions,
  request: IncomingHttp,
  reply: HttpReply,
  message: ClassifiedMessage,
  sessionId: string,
  authInfo: AuthInfo | undefined,
  bodyBytes: number,
  auth?: ResolvedAuthorization,
): Promise<void> | void {
  const id = message.kind === "request" || message.kind === "invalid" ? message.id : undefined;
  const found = sessions.find(sessionId, authInfo);
  if (found === undefined || found === "expired") return notFound(reply, sessions, found, id);
  if (message.kind === "invalid") {
    refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, `Invalid Request: ${message.detail}.`, id);
    return;
  }
  const version = request.header(HeaderName.protocolVersion);
  const agreed = found.session.protocolVersion;
  if (version !== null && agreed !== undefined && version !== agreed && message.kind !== "response" && message.era === "legacy") {
    refuse(
      reply,
      400,
      JsonRpcErrorCode.InvalidRequest,
      `Bad Request: MCP-Protocol-Version ${version} does not match the version this session agreed on (${agreed}); send the negotiated version.`,
      id,
    );
    return;
  }
  if (message.kind !== "request") return serveSessionNotice(found, request, reply, message, authInfo);
  const crossed = found.begin(bodyBytes);
  if (crossed !== undefined) return refuseBusy(reply, found, crossed, message.id);
  const context = contextFor(found, request, reply, authInfo);
  if (auth !== undefined) context.scopeAuth = auth;
  const unregister = context.register(message.id);
  let answered: Answered;
  try {
    answered = handOver(found, message, context);
  } catch (error) {
    unregister();
    found.end(bodyBytes);
    throw error;
  }
  // Answered in this turn when the session had nothing to wait for: no promise for the usual call.
  if (!isThenable<JsonRpcResponse | undefined>(answered)) return answerInSession(found, context, answered, unregister, bodyBytes);
  return answered.then(
    (response) => answerInSession(found, context, response, unregister, bodyBytes),
    (error: unknown) => {
      unregister();
      found.end(bodyBytes);
      throw error;
    },
  );
}

/** Writes a session request's answer (none once the client cancelled it) and releases what it held. */
function answerInSession(
  found: HttpSession,
  context: SessionRequestContext,
  response: JsonRpcResponse | undefined,
  unregister: () => void,
  bodyBytes: number,
): void {
  try {
    if (response !== undefined) context.answer(response);
    else context.cancelled(); // cancelled by the client: it asked for no answer
  } finally {
    unregister();
    found.end(bodyBytes);
  }
}

/** A session's notification, or the client's answer to something the session asked: `202` once handed over. */
async function serveSessionNotice(
  found: HttpSession,
  request: IncomingHttp,
  reply: HttpReply,
  message: ClassifiedNotification | ClassifiedResponse,
  authInfo: AuthInfo | undefined,
): Promise<void> {
  // An answer is matched by its id and needs no request context of its own.
  await handOver(found, message, message.kind === "response" ? undefined : contextFor(found, request, reply, authInfo));
  // A cancelled request's POST ends now, with no answer, even if its handler ignores the cancellation.
  if (message.kind === "notification" && message.method === "notifications/cancelled" && isObject(message.params)) found.cancelled(message.params.requestId);
  reply.send(202, {}, "");
}

/** What each bound means, for the answer to a request that would cross it. */
const BUSY: Readonly<Record<string, (limits: HttpSessions["limits"]) => string>> = {
  maxRequestsPerSession: (limits) => `this session already has ${limits.maxRequestsPerSession} requests being answered (maxRequestsPerSession)`,
  maxRequestsPerPrincipal: (limits) => `this client's sessions already have ${limits.maxRequestsPerPrincipal} requests being answered (maxRequestsPerPrincipal)`,
  maxPendingBytesPerSession: (limits) =>
    `this session's requests being answered already hold close to ${limits.maxPendingBytesPerSession} bytes (maxPendingBytesPerSession)`,
  maxPendingBytesPerPrincipal: (limits) =>
    `this client's requests being answered already hold close to ${limits.maxPendingBytesPerPrincipal} bytes (maxPendingBytesPerPrincipal)`,
};

/**
 * Refuses a request that would cross one of the session's bounds on work in flight: `429` with
 * `Retry-After`, and the retryable "temporarily unavailable" `-32603` naming the bound, so a client
 * sends it again once one of its calls is answered or cancelled.
 */
function refuseBusy(reply: HttpReply, found: HttpSession, crossed: string, id: JsonRpcId): void {
  const why = BUSY[crossed]?.(found.realm.endpoint.limits) ?? crossed;
  const message =
    `Too many requests in flight: ${why}. Answer or cancel (notifications/cancelled) a call that waits, ` +
    "or wait for one to finish, then send this request again.";
  const data = { reason: TEMPORARILY_UNAVAILABLE_REASON, retryAfterSeconds: 1, limit: crossed };
  reply.send(429, { ...JSON_HEADERS, "retry-after": "1" }, errorBody(id, JsonRpcErrorCode.InternalError, message, data));
}

/** Hands a classified message to its session: as classified when the session takes that, else as decoded. */
function handOver(entry: HttpSession, message: ClassifiedMessage, context: SessionRequestContext | undefined): Answered {
  const session = entry.session;
  return session.handleClassified !== undefined ? session.handleClassified(message, context) : session.handle(message.message, context);
}

function contextFor(entry: HttpSession, request: IncomingHttp, reply: HttpReply, authInfo: AuthInfo | undefined): SessionRequestContext {
  const context = new SessionRequestContext(entry, request, reply);
  if (authInfo !== undefined) context.authInfo = authInfo;
  const version = request.header(HeaderName.protocolVersion);
  if (version !== null) context.protocolVersionHeader = version;
  return context;
}
