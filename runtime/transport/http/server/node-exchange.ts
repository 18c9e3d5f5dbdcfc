/**
 * One `node:http` exchange as the Streamable HTTP core sees it: the request
 * side (headers, body, the client going away) and the reply side (a JSON
 * answer or an SSE stream), in one object whose methods live on the
 * prototype, so a request allocates no closures for them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { JSON_HEADERS, type HttpReply, type HttpStream, type IncomingHttp } from "./exchange.js";
import { errorResponse } from "../../../protocol/jsonrpc/responses.js";

/** Most bytes read away after a 413 before the connection is cut anyway. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
/** Longest a client may take to finish sending a refused body. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * A header by lower-case name, from `IncomingMessage.headers`: node's server
 * has built that object already (it reads `expect` from it for every
 * HTTP/1.1 request), so a lookup here is a property read.
 */
function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}

function readNodeBody(request: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        settled = true;
        cleanup();
        // Stop buffering; the 413 answer reads the rest of the body away.
        request.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

/**
 * One exchange on `node:http`, both sides of it in one object whose methods
 * live on the prototype, so a request allocates no closures for them.
 */
export class NodeExchange implements IncomingHttp, HttpReply {
  readonly method: string;
  protected readonly request: IncomingMessage;
  private readonly response: ServerResponse;
  private readonly fallbackOrigin: string;
  private readonly path: string;
  /** The refused body was read away already (or as far as the bound allows). */
  private drained = false;

  constructor(request: IncomingMessage, response: ServerResponse, path: string, fallbackOrigin: string) {
    this.method = request.method ?? "GET";
    this.request = request;
    this.response = response;
    this.path = path;
    this.fallbackOrigin = fallbackOrigin;
  }

  header(name: string): string | null {
    return headerOf(this.request, name);
  }

  headers(): Headers {
    return headersOf(this.request);
  }

  url(): string {
    return `http://${this.request.headers.host ?? this.fallbackOrigin}${this.request.url ?? this.path}`;
  }

  readBody(limit: number): Promise<Uint8Array | null> {
    return readNodeBody(this.request, limit);
  }

  onGone(listener: () => void): void {
    const response = this.response;
    if (response.destroyed && !response.writableFinished) {
      listener();
      return;
    }
    response.once("close", () => {
      if (!response.writableFinished) listener();
    });
  }

  send(status: number, headers: Record<string, string>, body: string): void {
    const response = this.response;
    // Nothing is written to a connection the client already closed.
    if (response.headersSent || response.destroyed) return;
    if (status === 413 && !this.request.readableEnded && !this.drained) {
      this.drained = true;
      // Answering now would close the connection under a client still uploading, which then sees
      // EPIPE or a reset instead of this status: read the rest of the body away first (bounded).
      drainBody(this.request, () => this.send(status, headers, body));
      return;
    }
    if (body === "") {
      // An empty answer (a 202, a DELETE's 200) says so, rather than opening a chunked body only to end it;
      // a 204 carries no length at all (RFC 9110 §8.6).
      response.writeHead(status, status === 204 ? headers : { ...headers, "content-length": "0" });
      response.end();
      return;
    }
    response.writeHead(status, withContentLength(headers, body));
    response.end(body);
  }

  // A stream the client closes (or that is cut for a slow reader) is reported through onGone, like any early close.
  stream(headers: Record<string, string>, _onClose: () => void, maxBufferedBytes: number): HttpStream {
    const response = this.response;
    response.writeHead(200, headers);
    return new NodeSseStream(response, maxBufferedBytes);
  }

  failed(): void {
    answerUnexpectedFailure(this.response);
  }
}

/** Bytes waiting for the client past which a producer that awaits `drained()` waits for `drain`. */
const PACE_BYTES = 64 * 1024;

/**
 * An SSE answer on `node:http` that honours backpressure: what the client
 * has not read waits in the response's buffer (`writableLength`), a
 * producer may wait for `drain`, and a write that would leave more than
 * the bound waiting destroys the connection instead.
 */
class NodeSseStream implements HttpStream {
  readonly #response: ServerResponse;
  readonly #bound: number;
  /** One promise per stall, shared by every producer waiting on it. */
  #drain: Promise<void> | undefined;

  /**
   * What this turn wrote, sent on the next tick in one write: the headers go
   * with the first events (a 2025 POST's priming event and question, a listen
   * stream's acknowledgement), the last event with the end of the response.
   */
  #pending: string | undefined;
  /** The headers went out (with or without events). */
  #started = false;

  constructor(response: ServerResponse, bound: number) {
    this.#response = response;
    this.#bound = bound;
    process.nextTick(flushBatch, this); // the headers, alone if nothing follows this turn
  }

  write(text: string): boolean {
    const response = this.#response;
    if (response.writableEnded || response.destroyed) return false;
    const pending = this.#pending;
    const waiting = response.writableLength + (pending?.length ?? 0);
    // Bytes only when they could matter: a UTF-16 unit is 1 to 3 bytes of UTF-8.
    if (waiting > 0 && waiting + (text.length * 3 <= this.#bound - waiting ? 0 : Buffer.byteLength(text)) > this.#bound) {
      this.#pending = undefined;
      response.destroy(); // 'close' fires: the exchange's onGone listeners learn the stream is gone
      return false;
    }
    if (pending === undefined) {
      this.#pending = text;
      process.nextTick(flushBatch, this);
    } else this.#pending = pending + text;
    // A producer that writes on and on within one turn (awaiting only promises) hands its bytes over as
    // they pile up, so the response's own buffer, and drained(), pace it as before.
    if (this.#pending.length >= PACE_BYTES) this.flush();
    return true;
  }

  /** Sends what this turn wrote (or the headers, when nothing was). @internal */
  flush(): void {
    const response = this.#response;
    const pending = this.#pending;
    this.#pending = undefined;
    if (response.writableEnded || response.destroyed) return;
    // `headersSent` turns true at writeHead, before anything reached the socket: this stream keeps its own account.
    if (pending !== undefined) response.write(pending);
    else if (!this.#started) response.flushHeaders();
    this.#started = true;
  }

  drained(): Promise<void> | undefined {
    const response = this.#response;
    if (response.writableLength < PACE_BYTES || !response.writableNeedDrain || response.destroyed) return undefined;
    this.#drain ??= new Promise<void>((resolve) => {
      const done = () => {
        response.off("drain", done);
        response.off("close", done);
        this.#drain = undefined;
        resolve();
      };
      response.on("drain", done);
      response.on("close", done);
    });
    return this.#drain;
  }

  end(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    if (!this.#response.writableEnded && !this.#response.destroyed) this.#response.end(pending);
  }
}

function flushBatch(stream: NodeSseStream): void {
  stream.flush();
}

/** `headers` plus `content-length`; the usual JSON answer gets a fixed-shape literal instead of a spread. */
function withContentLength(headers: Record<string, string>, body: string): Record<string, string> {
  const length = String(Buffer.byteLength(body));
  if (headers === JSON_HEADERS) return { "content-type": "application/json", "content-length": length };
  return { ...headers, "content-length": length };
}

/**
 * Reads the rest of a refused request body and discards it, then calls
 * `then` (once). Past a byte or a time bound it answers anyway: a client
 * that uploads without end does not hold the connection.
 */
function drainBody(request: IncomingMessage, then: () => void): void {
  let drained = 0;
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    clearTimeout(timer);
    request.off("data", onData);
    then();
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) finish();
  };
  const timer = setTimeout(finish, DRAIN_TIMEOUT_MS);
  timer.unref();
  request.on("data", onData);
  request.once("end", finish);
  request.once("close", finish);
  request.resume();
}

/**
 * The last resort after an exchange threw (already reported to `onError`):
 * a bare -32603 when nothing was sent yet, else the connection is cut,
 * since a half-written answer cannot be finished.
 * @internal
 */
export function answerUnexpectedFailure(response: ServerResponse): void {
  if (!response.headersSent) {
    response.writeHead(500, { "content-type": "application/json" });
    response.end(JSON.stringify(errorResponse(undefined, { code: -32603, message: "Internal error" })));
  } else {
    response.destroy();
  }
}
