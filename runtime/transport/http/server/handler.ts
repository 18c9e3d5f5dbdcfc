/**
 * The Streamable HTTP server logic, independent of the HTTP stack: the
 * web-standard handler (`web.ts`) and the `node:http` adapter
 * (`node.ts`) each wrap it with a thin request/response binding, so
 * both behave identically and the node path never pays for building
 * `Request`/`Response` objects.
 */
import { JsonRpcErrorCode } from "../../../jsonrpc/errors.js";
import type { JsonRpcNotification, JsonRpcResponse } from "../../../jsonrpc/messages.js";
import {
  decodeHeaderValue,
  HeaderName,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  methodRequiresName,
  nameSourceOf,
} from "../headers.js";
import { sseEvent } from "../sse.js";
import type { AuthInfo, MessageHandler, RequestContext } from "../../types.js";
import { authenticate } from "./auth.js";
import { JSON_HEADERS, SSE_HEADERS, type HttpReply, type HttpStream, type IncomingHttp } from "./exchange.js";
import { hostNameOf, type ResolvedHttpOptions } from "./policy.js";

function errorBody(id: unknown, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  const idPart = typeof id === "string" || typeof id === "number" ? { id } : {};
  return JSON.stringify({ jsonrpc: "2.0", ...idPart, error });
}

/**
 * HTTP status for a JSON-RPC error response. Protocol-level rejections get
 * the status the spec names; errors a handler produced stay `200`.
 */
export function statusForError(code: number, envelopeInvalid: boolean): number {
  switch (code) {
    case JsonRpcErrorCode.ParseError:
    case JsonRpcErrorCode.InvalidRequest:
    case JsonRpcErrorCode.HeaderMismatch:
    case JsonRpcErrorCode.MissingRequiredClientCapability:
    case JsonRpcErrorCode.UnsupportedProtocolVersion:
      return 400;
    case JsonRpcErrorCode.MethodNotFound:
      return 404;
    case JsonRpcErrorCode.InvalidParams:
      // Only the per-request `_meta` envelope check is an HTTP-level 400; a
      // tool's bad arguments are an ordinary in-band error.
      return envelopeInvalid ? 400 : 200;
    default:
      return 200;
  }
}

function clip(value: string): string {
  return value.length > 80 ? `${value.slice(0, 77)}...` : value;
}

function mediaTypeOf(value: string | null): string {
  if (value === "application/json") return value;
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Answers with a JSON-RPC error and the HTTP status that goes with it. */
function refuse(reply: HttpReply, status: number, code: number, message: string, extra?: Record<string, string>, id?: unknown): void {
  reply.send(status, extra === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...extra }, errorBody(id, code, message));
}

function refuseTooLarge(reply: HttpReply, maxBodyBytes: number): void {
  refuse(reply, 413, JsonRpcErrorCode.InvalidRequest, `Payload Too Large: the body exceeds ${maxBodyBytes} bytes.`, { connection: "close" });
}

/**
 * Answers one HTTP exchange: every check of the Streamable HTTP binding,
 * then hands the decoded message to `handler` and writes its answer as JSON
 * or, once the handler sends a notification, as an SSE stream.
 */
export async function serveHttpExchange(
  handler: MessageHandler,
  options: ResolvedHttpOptions,
  request: IncomingHttp,
  reply: HttpReply,
): Promise<void> {
  if (request.method !== "POST") {
    refuse(reply, 405, JsonRpcErrorCode.InvalidRequest, `Method ${request.method} is not allowed: send each JSON-RPC message as an HTTP POST.`, {
      allow: "POST",
    });
    return;
  }

  if (options.allowedHosts) {
    const host = request.header("host");
    if (!host || !options.allowedHosts.has(hostNameOf(host).toLowerCase())) {
      refuse(reply, 403, JsonRpcErrorCode.InvalidRequest, "Forbidden: the Host header is not one this server answers to.");
      return;
    }
  }
  const origin = request.header("origin");
  if (origin !== null && !options.originAllowed(origin)) {
    refuse(reply, 403, JsonRpcErrorCode.InvalidRequest, "Forbidden: the Origin header is not on this server's allow-list.");
    return;
  }

  let authInfo: AuthInfo | undefined;
  if (options.verifyToken) {
    const outcome = await authenticate(options, request);
    if (!outcome.ok) {
      reply.send(outcome.status, { ...JSON_HEADERS, "www-authenticate": outcome.challenge }, errorBody(undefined, JsonRpcErrorCode.InvalidRequest, outcome.message));
      return;
    }
    authInfo = outcome.authInfo;
  }

  if (mediaTypeOf(request.header("content-type")) !== "application/json") {
    refuse(reply, 415, JsonRpcErrorCode.InvalidRequest, "Unsupported Media Type: the body must be JSON with Content-Type: application/json.");
    return;
  }
  if (!acceptsJsonAndSse(request.header("accept"))) {
    refuse(reply, 406, JsonRpcErrorCode.InvalidRequest, "Not Acceptable: the Accept header must list both application/json and text/event-stream.");
    return;
  }

  const declared = request.header("content-length");
  if (declared !== null && Number(declared) > options.maxBodyBytes) {
    refuseTooLarge(reply, options.maxBodyBytes);
    return;
  }
  let bytes: Uint8Array | null;
  try {
    bytes = await request.readBody(options.maxBodyBytes);
  } catch (error) {
    options.onError(error);
    refuse(reply, 400, JsonRpcErrorCode.ParseError, "Parse error: the request body could not be read.");
    return;
  }
  if (bytes === null) {
    refuseTooLarge(reply, options.maxBodyBytes);
    return;
  }

  let message: unknown;
  try {
    message = JSON.parse(utf8.decode(bytes));
  } catch {
    refuse(reply, 400, JsonRpcErrorCode.ParseError, "Parse error: the body is not valid UTF-8 JSON.");
    return;
  }
  if (Array.isArray(message)) {
    refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per POST.");
    return;
  }
  if (!isRecord(message) || message.jsonrpc !== "2.0") {
    refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: the body must be a JSON-RPC 2.0 object with "jsonrpc": "2.0".');
    return;
  }
  const id = message.id;
  if (typeof message.method !== "string") {
    const isResponse = "result" in message || "error" in message;
    refuse(
      reply,
      400,
      JsonRpcErrorCode.InvalidRequest,
      isResponse
        ? "Invalid Request: clients must not send JSON-RPC responses to this endpoint."
        : 'Invalid Request: "method" must be a string.',
      undefined,
      id,
    );
    return;
  }
  const isRequest = "id" in message;
  if (isRequest && typeof id !== "string" && typeof id !== "number") {
    refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: "id" must be a string or a number.');
    return;
  }
  const method = message.method;
  const params = message.params;
  if (params !== undefined && !isRecord(params)) {
    refuse(reply, 400, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: "params" must be an object.', undefined, id);
    return;
  }

  const mismatch = headerMismatch(request, method, params, isRequest);
  if (mismatch) {
    refuse(reply, 400, JsonRpcErrorCode.HeaderMismatch, mismatch, undefined, id);
    return;
  }
  const meta = params?._meta;
  const envelopeInvalid =
    isRequest && (!isRecord(meta) || meta[META_PROTOCOL_VERSION] === undefined || meta[META_CLIENT_CAPABILITIES] === undefined);

  await dispatch(handler, options, request, reply, message, isRequest, envelopeInvalid, authInfo);
}

function headerMismatch(
  request: IncomingHttp,
  method: string,
  params: Record<string, unknown> | undefined,
  isRequest: boolean,
): string | undefined {
  const methodHeader = request.header(HeaderName.method);
  if (!isRequest) {
    // The 2026-07-28 revision defines no header rules for notification POSTs;
    // only a contradicting Mcp-Method is refused.
    if (methodHeader !== null && methodHeader !== method) {
      return `Header mismatch: Mcp-Method header value '${clip(methodHeader)}' does not match body method '${clip(method)}'.`;
    }
    return undefined;
  }
  const version = request.header(HeaderName.protocolVersion);
  if (version === null) return "Header mismatch: the MCP-Protocol-Version header is required on every request.";
  const meta = params?._meta;
  const bodyVersion = isRecord(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  if (bodyVersion !== undefined && bodyVersion !== version) {
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

const CLIENT_GONE = "The client closed the HTTP request.";

/**
 * The {@link RequestContext} of one HTTP request. Everything a handler may
 * never use is created on first use: the abort signal, the full `Headers`,
 * the notification sender, and the watch for the client going away (a
 * listener on the connection), which only matters once there is a signal
 * to abort or a stream to stop writing to.
 */
class HttpRequestContext implements RequestContext {
  declare authInfo?: AuthInfo;
  /** The client went away before the response was complete (known once watched). */
  gone = false;
  /** The final response was written: nothing more may be sent. */
  finished = false;
  /** The SSE stream, once a notification opened one. */
  stream: HttpStream | undefined;
  readonly #request: IncomingHttp;
  readonly #reply: HttpReply;
  readonly #options: ResolvedHttpOptions;
  readonly #isRequest: boolean;
  #cancel: AbortController | undefined;
  #watching = false;
  #headers: Headers | undefined;
  #send: ((notification: JsonRpcNotification) => void) | undefined;

  constructor(request: IncomingHttp, reply: HttpReply, options: ResolvedHttpOptions, isRequest: boolean) {
    this.#request = request;
    this.#reply = reply;
    this.#options = options;
    this.#isRequest = isRequest;
  }

  get signal(): AbortSignal {
    if (!this.#cancel) {
      this.#cancel = new AbortController();
      if (this.gone) this.#cancel.abort(new Error(CLIENT_GONE));
      else this.#watch();
    }
    return this.#cancel.signal;
  }

  get headers(): Headers {
    return (this.#headers ??= this.#request.headers());
  }

  get sendNotification(): ((notification: JsonRpcNotification) => void) | undefined {
    // Only requests may be answered with a stream; a notification POST gets 202.
    if (!this.#isRequest) return undefined;
    return (this.#send ??= (notification) => this.#notify(notification));
  }

  /** Starts watching for the client going away; it may report at once. */
  #watch(): void {
    if (this.#watching) return;
    this.#watching = true;
    this.#request.onGone(() => this.clientGone());
  }

  /** The client closed the request or its stream: abort the handler's signal. */
  clientGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.#cancel?.abort(new Error(CLIENT_GONE));
  }

  #notify(notification: JsonRpcNotification): void {
    // After the final response or a closed stream nothing more may be sent.
    if (this.finished || this.gone) return;
    if (!this.stream) {
      this.#watch();
      if (this.gone) return;
      this.stream = this.#reply.stream({ ...SSE_HEADERS }, () => this.clientGone());
    }
    try {
      this.stream.write(sseEvent(notification));
    } catch (error) {
      this.#options.onError(error);
    }
  }
}

async function dispatch(
  handler: MessageHandler,
  options: ResolvedHttpOptions,
  request: IncomingHttp,
  reply: HttpReply,
  message: Record<string, unknown>,
  isRequest: boolean,
  envelopeInvalid: boolean,
  authInfo: AuthInfo | undefined,
): Promise<void> {
  const context = new HttpRequestContext(request, reply, options, isRequest);
  if (authInfo) context.authInfo = authInfo;

  let response: JsonRpcResponse | undefined;
  try {
    response = await handler.handle(message, context);
  } catch (error) {
    // The MessageHandler contract says handle() never rejects; if one does, answer anyway.
    options.onError(error);
    response = isRequest
      ? { jsonrpc: "2.0", id: message.id as string | number, error: { code: JsonRpcErrorCode.InternalError, message: "Internal error" } }
      : undefined;
  }

  context.finished = true;
  if (!isRequest) {
    reply.send(202, {}, "");
    return;
  }
  const stream = context.stream;
  if (context.gone) {
    stream?.end();
    return;
  }
  if (response === undefined) {
    response = { jsonrpc: "2.0", id: message.id as string | number, error: { code: JsonRpcErrorCode.InternalError, message: "Internal error: the server produced no response" } };
  }
  if (stream) {
    stream.write(sseEvent(response));
    stream.end();
    return;
  }
  const status = "error" in response ? statusForError(response.error.code, envelopeInvalid) : 200;
  // Replies never modify the headers they are given, so the shared constant
  // needs no copy. When nobody watched for the client going away, the
  // adapter's send is what skips a connection that is already closed.
  reply.send(status, JSON_HEADERS, JSON.stringify(response));
}
