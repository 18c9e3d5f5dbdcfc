/**
 * The Streamable HTTP server logic, independent of the HTTP stack: the
 * web-standard handler (`web.ts`) and the `node:http` adapter
 * (`node.ts`) each wrap it with a thin request/response binding, so
 * both behave identically and the node path never pays for building
 * `Request`/`Response` objects.
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import { classifyMessage, decodeJson, eraOfVersion, mediaTypeOf } from "../../../protocol/message.js";
import { decodeHeaderValue, HeaderName, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, methodRequiresName, nameSourceOf } from "../../../protocol/headers.js";
import { isSessionHost, type AuthInfo, type MessageHandler } from "../../types.js";
import { authenticate } from "./auth.js";
import { answerPreflight, withCors } from "./cors.js";
import { dispatch } from "./context.js";
import { errorBody, JSON_HEADERS, refuse, type HttpReply, type IncomingHttp } from "./exchange.js";
import { hostNameOf, reportToStderr, type ResolvedHttpOptions } from "./policy.js";
import { serveInitialize, serveSessionPost, SESSION_HEADER } from "./session-exchange.js";
import { serveSessionDelete, serveSessionGet } from "./session-get.js";
import { HttpSessions } from "./sessions.js";
import { envelopeStatus, legacyErrorStatus, modernStatus } from "./status.js";
import { isResourceMetadataPath, pathOf, serveResourceMetadata } from "./resource-metadata.js";
import { isObject } from "../../../protocol/guards.js";

/** One endpoint: the server it serves, its resolved options, and its 2025 sessions when the server holds them. @internal */
export interface HttpEndpoint {
  readonly handler: MessageHandler;
  readonly options: ResolvedHttpOptions;
  readonly sessions: HttpSessions | undefined;
}

/**
 * Builds the endpoint for `handler`: it holds 2025 sessions when the
 * server does (`legacy: "sessions"`, the default of `Server`/`McpServer`).
 * @internal
 */
export function createEndpoint(handler: MessageHandler, options: ResolvedHttpOptions): HttpEndpoint {
  const sessions =
    isSessionHost(handler) && handler.legacy === "sessions"
      ? new HttpSessions(handler, {
          maxSessions: options.maxSessions,
          idleTimeoutMs: options.sessionIdleTimeoutMs,
          maxStreamBufferBytes: options.maxStreamBufferBytes,
          onError: options.onError,
          ...options.sessionLimits,
        })
      : undefined;
  return { handler, options, sessions };
}

function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}

/** True when an `Accept` header admits both JSON and SSE (wildcards count). */
function acceptsJsonAndSse(accept: string | null): boolean {
  if (accept === "application/json, text/event-stream") return true;
  if (!accept) return false;
  const types = accept.split(",").map((part) => mediaTypeOf(part));
  const admits = (type: string) => {
    const [major] = type.split("/");
    return types.includes(type) || types.includes(`${major}/*`) || types.includes("*/*");
  };
  return admits("application/json") && admits("text/event-stream");
}

function refuseTooLarge(reply: HttpReply, maxBodyBytes: number): void {
  refuse(reply, 413, JsonRpcErrorCode.InvalidRequest, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes.`, undefined, { connection: "close" });
}

/**
 * Answers one HTTP exchange: every check of the Streamable HTTP binding,
 * then hands the decoded message to the server and writes its answer as
 * JSON or, once the handler sends a notification, as an SSE stream.
 * 2026-07-28 requests are answered statelessly; 2025 ones through their
 * session (`Mcp-Session-Id`) when the server holds sessions. Never throws:
 * a failure is reported to `onError` and answered with `reply.failed()`;
 * the promise, while something is waited for, never rejects.
 */
export function serveHttpExchange(endpoint: HttpEndpoint, request: IncomingHttp, answer: HttpReply): Promise<void> | undefined {
  try {
    // No promise for the usual POST: its body is served from the adapter's callback, which answers its own failures.
    return failuresAnswered(endpoint.options, answer, serveExchange(endpoint, request, answer));
  } catch (error) {
    exchangeFailed(endpoint.options, answer, error);
    return undefined;
  }
}

/** {@link serveHttpExchange}, synchronous until the body (or a bearer token's check) has to be waited for. */
function serveExchange(endpoint: HttpEndpoint, request: IncomingHttp, answer: HttpReply): Promise<void> | void {
  const { options, sessions } = endpoint;
  const method = request.method;
  // With `authorization`, every adapter built on this core answers the metadata document's paths.
  if (options.auth?.metadataBody !== undefined && isResourceMetadataPath(options.auth, pathOf(request.url()))) {
    return serveResourceMetadata(options.auth, method, answer);
  }
  const allow = sessions === undefined ? "POST" : "GET, POST, DELETE";
  if (method === "OPTIONS" && request.header("access-control-request-method") !== null) {
    answerPreflight(options, (name) => request.header(name), answer, allow);
    return;
  }
  // A browser's request from an allowed origin: every answer carries the headers that let its script read it.
  const origin = request.header("origin");
  const reply = origin !== null && options.originAllowed(origin) ? withCors(answer, origin) : answer;
  if (method !== "POST" && !(sessions !== undefined && (method === "GET" || method === "DELETE"))) {
    const why = sessions === undefined ? "send each JSON-RPC message as an HTTP POST" : "POST messages, GET a session's event stream, DELETE a session";
    refuse(reply, 405, JsonRpcErrorCode.InvalidRequest, `Method ${method} is not allowed: ${why}.`, undefined, { allow });
    return;
  }
  const admitted = admit(options, request, reply);
  // Synchronous without a bearer verifier: no promise and no turn for the usual unauthenticated endpoint.
  if (admitted instanceof Promise) return admitted.then((authInfo) => (authInfo === false ? undefined : serveAdmitted(endpoint, request, reply, authInfo)));
  if (admitted === false) return;
  return serveAdmitted(endpoint, request, reply, admitted);
}

/**
 * An admitted exchange: a session's GET or DELETE, else a POST's body read
 * and served. The body is the one thing waited for, and it is served in the
 * turn it arrived: no promise between the last chunk and the answer.
 */
function serveAdmitted(endpoint: HttpEndpoint, request: IncomingHttp, reply: HttpReply, authInfo: AuthInfo | undefined): Promise<void> | void {
  const sessions = endpoint.sessions;
  if (request.method === "GET") return serveSessionGet(sessions!, request, reply, authInfo);
  if (request.method === "DELETE") return serveSessionDelete(sessions!, request, reply, authInfo);
  const options = endpoint.options;
  if (!bodyAcceptable(options, request, reply)) return;
  request.readBody(
    options.maxBodyBytes,
    (bytes) => serveBody(endpoint, request, reply, bytes, authInfo),
    (error) => {
      try {
        options.onError(error);
        refuse(reply, 400, JsonRpcErrorCode.ParseError, "Parse error: the request body could not be read.");
      } catch (failure) {
        exchangeFailed(options, reply, failure);
      }
    },
  );
}

/** Serves a read body. The adapter calls it (from a stream's event on `node:http`): a failure is answered here. */
function serveBody(endpoint: HttpEndpoint, request: IncomingHttp, reply: HttpReply, bytes: Uint8Array | null, authInfo: AuthInfo | undefined): void {
  const options = endpoint.options;
  try {
    const message = decodedBody(options, reply, bytes);
    if (message !== undefined) failuresAnswered(options, reply, serveMessage(endpoint, request, reply, message, authInfo));
  } catch (error) {
    exchangeFailed(options, reply, error);
  }
}

/** `serving`, its failure answered as a throw is (no promise when nothing was waited for). */
function failuresAnswered(options: ResolvedHttpOptions, reply: HttpReply, serving: Promise<void> | void): Promise<void> | undefined {
  return serving === undefined ? undefined : serving.then(undefined, (error: unknown) => exchangeFailed(options, reply, error));
}

/**
 * The exchange threw: reported, and answered as best the adapter can (`500`, or an end to what it started).
 * It runs in an adapter's event, where a throw would end the process: an `onError` that throws is reported to
 * stderr, and an answer that cannot be written is given up.
 */
function exchangeFailed(options: ResolvedHttpOptions, reply: HttpReply, error: unknown): void {
  try {
    options.onError(error);
  } catch (failure) {
    reportToStderr(failure);
  }
  try {
    reply.failed();
  } catch (failure) {
    reportToStderr(failure);
  }
}

/** Serves one decoded POST body: to its 2025 session, or through the server as one request or notification. */
function serveMessage(endpoint: HttpEndpoint, request: IncomingHttp, reply: HttpReply, read: ReadMessage, authInfo: AuthInfo | undefined): Promise<void> | void {
  const { handler, options, sessions } = endpoint;
  const body = read.value;
  // The one classification of this message: envelope, kind and era, handed on to the session or the server.
  const message = classifyMessage(body, request.header(HeaderName.protocolVersion), read.openings);
  const sessionId = sessions === undefined ? null : request.header(SESSION_HEADER);
  if (sessionId !== null) return serveSessionPost(sessions!, request, reply, message, sessionId, authInfo, read.byteLength, options.auth);

  if (message.kind === "invalid") {
    refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, `Invalid Request: ${message.detail}.`, message.id);
    return;
  }
  if (message.kind === "response") {
    refuse(
      reply,
      400,
      JsonRpcErrorCode.InvalidRequest,
      "Invalid Request: clients must not send JSON-RPC responses to this endpoint without the Mcp-Session-Id of the session that asked.",
      message.message.id,
    );
    return;
  }
  const isRequest = message.kind === "request";
  if (message.era === "legacy") {
    // 2025-era: no 2026 header rules; a session when the server holds them, else answered on its own.
    if (sessions === undefined) return dispatch(handler, options, request, reply, message, legacyErrorStatus, authInfo);
    if (message.kind === "request" && message.method === "initialize") return serveInitialize(sessions, request, reply, message, authInfo);
    if (!isRequest) {
      reply.send(202, {}, ""); // a 2025 notification outside any session has nothing to act on
      return;
    }
    refuse(
      reply,
      400,
      JsonRpcErrorCode.InvalidRequest,
      `Bad Request: ${message.method} carries neither the 2026-07-28 _meta envelope nor an Mcp-Session-Id. ` +
        "A 2025 client sends initialize first and then the Mcp-Session-Id it returns; a 2026-07-28 client puts " +
        `_meta["${META_PROTOCOL_VERSION}"] in every request.`,
      message.message.id,
    );
    return;
  }

  const params = message.params;
  const mismatch = headerMismatch(request, message.method, params, isRequest, options.preferBodyVersion);
  if (mismatch) {
    refuse(reply, 400, JsonRpcErrorCode.HeaderMismatch, mismatch, message.message.id);
    return;
  }
  const meta = params?._meta;
  const envelopeInvalid = isRequest && (!isObject(meta) || meta[META_PROTOCOL_VERSION] === undefined || meta[META_CLIENT_CAPABILITIES] === undefined);
  // Not awaited: dispatch answers (and reports its own failures) from here on, so a long-lived answer (a
  // listen stream) keeps neither this frame nor the adapter's failure handler waiting on it.
  return dispatch(handler, options, request, reply, message, envelopeInvalid ? envelopeStatus : modernStatus, authInfo);
}

/**
 * The checks every method shares: Host, Origin, bearer token. The caller's identity, or `false` once
 * refused: a promise only when a token has to be verified.
 */
function admit(options: ResolvedHttpOptions, request: IncomingHttp, reply: HttpReply): AuthInfo | undefined | false | Promise<AuthInfo | undefined | false> {
  if (options.allowedHosts) {
    const host = request.header("host");
    if (!host || !options.allowedHosts.has(hostNameOf(host).toLowerCase())) {
      refuse(
        reply,
        403,
        JsonRpcErrorCode.InvalidRequest,
        "Forbidden: the Host header is not one this server answers to. Behind a proxy, forward the client's Host " +
          "(nginx: proxy_set_header Host $host) or list the name in allowedHosts.",
      );
      return false;
    }
  }
  const origin = request.header("origin");
  if (origin !== null && !options.originAllowed(origin)) {
    refuse(reply, 403, JsonRpcErrorCode.InvalidRequest, "Forbidden: the Origin header is not on this server's allow-list.");
    return false;
  }
  if (options.auth === undefined) return undefined;
  return admitBearer(options, request, reply);
}

/** The bearer-token check of {@link admit}. */
async function admitBearer(options: ResolvedHttpOptions, request: IncomingHttp, reply: HttpReply): Promise<AuthInfo | undefined | false> {
  const outcome = await authenticate(options.auth!, request, options.onError);
  if (!outcome.ok) {
    reply.send(outcome.status, { ...JSON_HEADERS, "www-authenticate": outcome.challenge }, errorBody(undefined, JsonRpcErrorCode.InvalidRequest, outcome.message));
    return false;
  }
  return outcome.authInfo;
}

/** A POST body read and parsed: its JSON value, its length (what a 2025 session's request in flight is charged), its nesting bound. */
interface ReadMessage {
  readonly value: unknown;
  readonly byteLength: number;
  readonly openings: number;
}

/** Whether a POST's headers admit its body (JSON, an `Accept` with SSE, a declared length within the bound); answers why not. */
function bodyAcceptable(options: ResolvedHttpOptions, request: IncomingHttp, reply: HttpReply): boolean {
  if (mediaTypeOf(request.header("content-type")) !== "application/json") {
    refuse(reply, 415, JsonRpcErrorCode.InvalidRequest, "Unsupported Media Type: the body must be JSON with Content-Type: application/json.");
    return false;
  }
  if (!acceptsJsonAndSse(request.header("accept"))) {
    refuse(reply, 406, JsonRpcErrorCode.InvalidRequest, "Not Acceptable: the Accept header must list both application/json and text/event-stream.");
    return false;
  }
  const declared = request.header("content-length");
  if (declared !== null && Number(declared) > options.maxBodyBytes) {
    refuseTooLarge(reply, options.maxBodyBytes);
    return false;
  }
  return true;
}

/** A read body as one JSON value, or `undefined` once it answered why not (too large, not UTF-8 JSON). */
function decodedBody(options: ResolvedHttpOptions, reply: HttpReply, bytes: Uint8Array | null): ReadMessage | undefined {
  if (bytes === null) {
    refuseTooLarge(reply, options.maxBodyBytes);
    return undefined;
  }
  const decoded = decodeJson(bytes);
  if (!decoded.ok) {
    refuse(reply, 400, JsonRpcErrorCode.ParseError, "Parse error: the body is not valid UTF-8 JSON; send one JSON-RPC message per POST.");
    return undefined;
  }
  return { value: decoded.value, byteLength: bytes.length, openings: decoded.openings };
}

function headerMismatch(
  request: IncomingHttp,
  method: string,
  params: Record<string, unknown> | undefined,
  isRequest: boolean,
  preferBodyVersion: boolean,
): string | undefined {
  const methodHeader = request.header(HeaderName.method);
  if (!isRequest) {
    // 2026-07-28 has no header rules for notification POSTs: only a contradicting Mcp-Method is refused.
    if (methodHeader !== null && methodHeader !== method) {
      return `Header mismatch: Mcp-Method header value '${clip(methodHeader)}' does not match body method '${clip(method)}'.`;
    }
    return undefined;
  }
  const version = request.header(HeaderName.protocolVersion);
  if (version === null) return "Header mismatch: the MCP-Protocol-Version header is required on every request.";
  const meta = params?._meta;
  const bodyVersion = isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  // A hosted client in the wild sends a 2025 header with a 2026 body; the tolerance option lets the body win.
  const tolerated = preferBodyVersion && eraOfVersion(version) !== "modern" && eraOfVersion(bodyVersion) === "modern";
  if (bodyVersion !== undefined && bodyVersion !== version && !tolerated) {
    return `Header mismatch: MCP-Protocol-Version header value '${clip(version)}' does not match _meta protocolVersion '${clip(String(bodyVersion))}'.`;
  }
  if (methodHeader === null) return "Header mismatch: the Mcp-Method header is required on every request.";
  if (methodHeader !== method) {
    return `Header mismatch: Mcp-Method header value '${clip(methodHeader)}' does not match body method '${clip(method)}'.`;
  }
  if (methodRequiresName(method)) {
    const bodyName = nameSourceOf(method, params);
    const rawName = request.header(HeaderName.name);
    if (rawName === null) {
      return bodyName === undefined ? undefined : `Header mismatch: the Mcp-Name header is required on ${method} requests.`;
    }
    const name = decodeHeaderValue(rawName);
    if (name === undefined) return "Header mismatch: the Mcp-Name header contains invalid characters or broken Base64.";
    if (bodyName !== undefined && name !== bodyName) {
      return `Header mismatch: Mcp-Name header value '${clip(name)}' does not match body value '${clip(bodyName)}'.`;
    }
  }
  return undefined;
}
