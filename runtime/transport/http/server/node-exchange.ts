/**
 * One `node:http` exchange as the Streamable HTTP core sees it: the request
 * side (headers, body, the client going away) and the reply side (a JSON
 * answer or an SSE stream), in one object whose methods live on the
 * prototype, so a request allocates no closures for them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { JSON_HEADERS, type HttpReply, type IncomingHttp, type SseAnswer } from "./exchange.js";
import { NodeSseStream } from "./node-stream.js";
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

/**
 * The body of one request, bounded: one object per read whose listeners share it, and none removed once
 * the body ended (the request is done with then); only a body over the bound stops being buffered.
 */
class BodyRead {
  readonly chunks: Buffer[] = [];
  total = 0;
  settled = false;
  readonly request: IncomingMessage;
  readonly limit: number;
  readonly onBody: (body: Uint8Array | null) => void;
  readonly onFailure: (error: unknown) => void;
  readonly onData = (chunk: Buffer): void => {
    if (this.settled) return;
    this.total += chunk.length;
    if (this.total > this.limit) {
      this.settled = true;
      this.request.off("data", this.onData);
      // Stop buffering; the 413 answer reads the rest of the body away.
      this.request.resume();
      this.onBody(null);
      return;
    }
    this.chunks.push(chunk);
  };

  constructor(request: IncomingMessage, limit: number, onBody: (body: Uint8Array | null) => void, onFailure: (error: unknown) => void) {
    this.request = request;
    this.limit = limit;
    this.onBody = onBody;
    this.onFailure = onFailure;
  }

  // `on`, not `once`: each fires at most once for a request, and `settled` guards the rest; `once` would
  // wrap each listener in a closure per request.
  readonly onEnd = (): void => {
    if (this.settled) return;
    this.settled = true;
    const chunks = this.chunks;
    this.onBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.total));
  };

  readonly onError = (error: Error): void => {
    if (this.settled) return;
    this.settled = true;
    this.onFailure(error);
  };
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
  /** The watch {@link onGone} put on the response, until a stream takes it over. */
  private goneWatch: (() => void) | undefined;

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

  readBody(limit: number, onBody: (body: Uint8Array | null) => void, onError: (error: unknown) => void): void {
    const request = this.request;
    const read = new BodyRead(request, limit, onBody, onError);
    request.on("data", read.onData);
    request.on("end", read.onEnd);
    request.on("error", read.onError);
  }

  onGone(listener: () => void): void {
    const response = this.response;
    if (response.destroyed && !response.writableFinished) {
      listener();
      return;
    }
    const watch = (): void => {
      if (!response.writableFinished) listener();
    };
    this.goneWatch = watch;
    response.once("close", watch);
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

  // A stream the client closes (or that is cut for a slow reader) is reported like any early close: by the
  // watch onGone started, which moves to the stream, so that it reaches the stream alone, not this exchange.
  stream(headers: Record<string, string>, onClose: () => void, maxBufferedBytes: number): SseAnswer {
    const response = this.response;
    response.writeHead(200, headers);
    const stream = new NodeSseStream(response, maxBufferedBytes, onClose);
    const watching = this.goneWatch;
    if (watching !== undefined) {
      this.goneWatch = undefined;
      response.off("close", watching);
      stream.watchClose();
    }
    return stream;
  }

  failed(): void {
    answerUnexpectedFailure(this.response);
  }
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
function answerUnexpectedFailure(response: ServerResponse): void {
  if (!response.headersSent) {
    response.writeHead(500, { "content-type": "application/json" });
    response.end(JSON.stringify(errorResponse(undefined, { code: -32603, message: "Internal error" })));
  } else {
    response.destroy();
  }
}
