/**
 * The request context and answer of a stateless Streamable HTTP exchange:
 * a 2026-07-28 request, or a 2025 one the server answers without a session.
 */
import { JsonRpcErrorCode } from "../../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcNotification, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import { sseEvent } from "../sse.js";
import type { AuthInfo, MessageHandler, RequestContext } from "../../types.js";
import type { Answered } from "../../../protocol/contracts.js";
import { isThenable } from "../../../protocol/guards.js";
import type { HeldStream, HeldStreamOwner } from "../../../protocol/context.js";
import { JSON_HEADERS, SSE_HEADERS, type HttpReply, type IncomingHttp, type SseAnswer } from "./exchange.js";
import { HeaderName } from "../../../protocol/names.js";
import type { ResolvedHttpOptions } from "./policy.js";
import { keepAlivesOf } from "./keep-alive.js";
import { noAnswer } from "./sse-stream.js";
import { scopeChallengeOf } from "./auth.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";
import { retryAfterOf } from "../../../protocol/unavailable.js";
import type { ClassifiedNotification, ClassifiedRequest } from "../../../protocol/message.js";

const CLIENT_GONE = "The client closed the HTTP request.";
const NOTHING_TO_DETACH = (): void => {};
/** The request is a `subscriptions/listen`: its deliveries never wait for the reader, so its stream needs no pacing. */
const LISTEN = 1;
/** The connection is watched for the client going away. */
const WATCHING = 2;
/** The final response was written: nothing more may be sent. */
const FINISHED = 4;
/** The server holds the stream (`holdStream`): the answer is its to write, not this context's. */
const HELD = 8;

/**
 * The {@link RequestContext} of one HTTP request. Everything a handler may
 * never use is created on first use: the abort signal, the full `Headers`,
 * the notification sender, and the watch for the client going away (a
 * listener on the connection), which only matters once there is a signal
 * to abort or a stream to stop writing to. A listen request's stream is
 * handed to the server once acknowledged ({@link holdStream}), and this
 * context then goes with the rest of the request.
 */
class HttpRequestContext implements RequestContext {
  declare authInfo?: AuthInfo;
  /** The client went away before the response was complete (known once watched). */
  gone = false;
  /** The SSE stream, once a notification opened one. */
  stream: SseAnswer | undefined;
  readonly #request: IncomingHttp;
  /** The response side, which the answer is written to. */
  readonly reply: HttpReply;
  readonly #options: ResolvedHttpOptions;
  /** The id of the request answered; `undefined` for a notification. */
  readonly #id: JsonRpcId | undefined;
  /** The HTTP status of a JSON error answer, by JSON-RPC error code. */
  readonly #status: (code: number) => number;
  /** {@link LISTEN}, {@link WATCHING}, {@link FINISHED}, {@link HELD}: one field rather than four. */
  #flags: number;
  #cancel: AbortController | undefined;
  #headers: Headers | undefined;
  #send: ((notification: JsonRpcNotification) => Promise<void> | undefined) | undefined;
  /** What runs when the client goes away: one callback (a listen stream's), or a set once there are more. */
  #goneCallbacks: (() => void) | Set<() => void> | undefined;
  /** `clientGone` as one function, handed both to the connection watch and to the stream. */
  #onGone: (() => void) | undefined;

  constructor(request: IncomingHttp, reply: HttpReply, options: ResolvedHttpOptions, id: JsonRpcId | undefined, status: (code: number) => number, listen: boolean) {
    this.#flags = listen ? LISTEN : 0;
    this.#request = request;
    this.reply = reply;
    this.#options = options;
    this.#id = id;
    this.#status = status;
  }

  /** The final response was written: nothing more may be sent. */
  get finished(): boolean {
    return (this.#flags & FINISHED) !== 0;
  }

  finish(): void {
    this.#flags |= FINISHED;
  }

  /**
   * Writes the server's answer: now when it came at once, else once it
   * settles (unless the server holds the stream by then: the answer is its
   * to write). The reactions are bound methods, not closures over
   * dispatch's scope.
   */
  answerWith(answer: Answered): void {
    if (isThenable<JsonRpcResponse | undefined>(answer)) void answer.then(this.#answered.bind(this), this.#rejected.bind(this));
    else this.#answered(answer);
  }

  /**
   * Hands an open listen stream to the server (see
   * `RequestContext.holdStream`): from now on the stream reports the client
   * going away to `owner`, and nothing of this context is needed.
   */
  holdStream(owner: HeldStreamOwner, filter: unknown): HeldStream | undefined {
    const stream = this.stream;
    if ((this.#flags & (LISTEN | FINISHED)) !== LISTEN || this.gone || stream === undefined) return undefined;
    this.#flags |= FINISHED | HELD;
    return stream.hold(owner, filter, this.#id!, this.authInfo);
  }

  #answered(response: JsonRpcResponse | undefined): void {
    if ((this.#flags & HELD) !== 0) return;
    // A failure to write is reported, and the adapter answers it (`500`, or an end to what it started).
    try {
      writeAnswer(this, this.#options, this.#id, this.#status, response);
    } catch (error) {
      this.#options.onError(error);
      this.reply.failed();
    }
  }

  /** The MessageHandler contract says handle() never rejects; if one does, answer anyway. */
  #rejected(error: unknown): void {
    this.#options.onError(error);
    const id = this.#id;
    this.#answered(id === undefined ? undefined : errorResponse(id, { code: JsonRpcErrorCode.InternalError, message: "Internal error" }));
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

  get sendNotification(): ((notification: JsonRpcNotification) => Promise<void> | undefined) | undefined {
    // Only requests may be answered with a stream; a notification POST gets 202.
    if (this.#id === undefined) return undefined;
    // Bound, not a closure: the smaller of the two, kept for as long as the request is open.
    return (this.#send ??= this.#notify.bind(this));
  }

  get protocolVersionHeader(): string | undefined {
    return this.#request.header(HeaderName.protocolVersion) ?? undefined;
  }

  /** `clientGone`, bound once: the connection watch and the stream's close share it. */
  #goneListener(): () => void {
    return (this.#onGone ??= this.clientGone.bind(this));
  }

  /** Starts watching for the client going away; it may report at once. */
  #watch(): void {
    if ((this.#flags & WATCHING) !== 0) return;
    this.#flags |= WATCHING;
    this.#request.onGone(this.#goneListener());
  }

  whenGone(callback: () => void): () => void {
    if (!this.gone) this.#watch();
    if (this.gone) {
      callback();
      return NOTHING_TO_DETACH;
    }
    // One callback (a listen stream's) is kept as is: a Set per stream would cost more than the rest of the watch.
    const callbacks = this.#goneCallbacks;
    if (callbacks === undefined) this.#goneCallbacks = callback;
    else if (typeof callbacks === "function") this.#goneCallbacks = new Set([callbacks, callback]);
    else callbacks.add(callback);
    return () => this.#forget(callback);
  }

  #forget(callback: () => void): void {
    const callbacks = this.#goneCallbacks;
    if (callbacks === callback) this.#goneCallbacks = undefined;
    else if (typeof callbacks === "object") callbacks.delete(callback);
  }

  /** The client closed the request or its stream: abort the handler's signal. */
  clientGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.#cancel?.abort(new Error(CLIENT_GONE));
    const callbacks = this.#goneCallbacks;
    this.#goneCallbacks = undefined;
    if (typeof callbacks === "function") callbacks();
    else if (callbacks !== undefined) for (const callback of callbacks) callback();
  }

  /** Writes a notification on the stream (opened by the first one); a promise while the reader is behind. */
  #notify(notification: JsonRpcNotification): Promise<void> | undefined {
    // After the final response or a closed stream nothing more may be sent.
    if (this.finished || this.gone) return undefined;
    if (!this.stream) {
      this.#watch();
      if (this.gone) return undefined;
      const listen = (this.#flags & LISTEN) !== 0;
      const stream = this.reply.stream({ ...SSE_HEADERS }, this.#goneListener(), this.#options.maxStreamBufferBytes, !listen);
      this.stream = stream;
      // A listen stream may stay silent for hours: a comment line now and then keeps proxies from cutting it.
      if (listen && this.#options.sseKeepAliveMs > 0) keepAlivesOf(this.#options).add(stream);
    }
    try {
      // A reader too far behind gets its stream cut (reported through clientGone); a handler that awaits waits for it.
      return this.stream.write(sseEvent(notification)) ? this.stream.drained() : undefined;
    } catch (error) {
      this.#options.onError(error);
      return undefined;
    }
  }
}

/**
 * Hands one message to the server and writes its answer: JSON, or SSE once
 * the handler sent a notification. `status` maps a JSON-RPC error code to
 * the HTTP status of a JSON answer. Returns once the server has the
 * message; a failure to write the answer is reported to `onError` and
 * answered with `reply.failed()`.
 * @internal
 */
export function dispatch(
  handler: MessageHandler,
  options: ResolvedHttpOptions,
  request: IncomingHttp,
  reply: HttpReply,
  message: ClassifiedRequest | ClassifiedNotification,
  status: (code: number) => number,
  authInfo: AuthInfo | undefined,
): void {
  const isRequest = message.kind === "request";
  // Only the id outlives this call: the message itself (the parsed body) is not kept while a stream lasts.
  const listen = isRequest && message.method === "subscriptions/listen";
  const context = new HttpRequestContext(request, reply, options, isRequest ? message.id : undefined, status, listen);
  if (authInfo) context.authInfo = authInfo;
  let answer: Answered;
  try {
    // Classified once, at this edge: a handler that takes the classification does not judge the message again.
    answer = handler.handleClassified !== undefined ? handler.handleClassified(message, context) : handler.handle(message.message, context);
  } catch (error) {
    answer = Promise.reject(error);
  }
  // Written in this turn when the server answered at once; else a reaction rather than an await, so an idle
  // listen stream holds no suspended frame of this call.
  context.answerWith(answer);
}

/** Writes the server's answer to one message once it settled: on the stream if one opened, else as JSON (`202` for a notification). */
function writeAnswer(
  context: HttpRequestContext,
  options: ResolvedHttpOptions,
  id: JsonRpcId | undefined,
  status: (code: number) => number,
  response: JsonRpcResponse | undefined,
): void {
  context.finish();
  const reply = context.reply;
  if (id === undefined) {
    reply.send(202, {}, "");
    return;
  }
  const stream = context.stream;
  if (context.gone) {
    stream?.end();
    return;
  }
  if (response === undefined) response = noAnswer(id);
  if (stream) {
    stream.write(sseEvent(response));
    stream.end();
    return;
  }
  const challenge = scopeChallengeOf(options.auth, response);
  if (challenge !== undefined) {
    // MCP basic/authorization "Runtime Insufficient Scope Errors": 403 with the scopes the operation needs.
    reply.send(403, { ...JSON_HEADERS, "www-authenticate": challenge }, JSON.stringify(response));
    return;
  }
  const retryAfter = "error" in response ? retryAfterOf(response.error) : undefined;
  if (retryAfter !== undefined) {
    // Temporarily unavailable (the replay store is down): 503 tells proxies and clients to come back, not give up.
    reply.send(503, { ...JSON_HEADERS, "retry-after": String(Math.ceil(retryAfter)) }, JSON.stringify(response));
    return;
  }
  const code = "error" in response ? status(response.error.code) : 200;
  // Replies never modify the headers they are given, so the shared constant
  // needs no copy. When nobody watched for the client going away, the
  // adapter's send is what skips a connection that is already closed.
  reply.send(code, JSON_HEADERS, JSON.stringify(response));
}
