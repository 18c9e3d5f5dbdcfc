/**
 * Request capture: the official SDK's handler `ctx` carries neither the tool
 * name nor the arguments, only the original HTTP `Request` (`ctx.http.req`).
 * A captured handler reads each JSON body once, remembers it against that
 * very `Request` object, and hands it on as `parsedBody`, so their handler
 * parses nothing again; the codec finds the JSON-RPC message again by the
 * `Request`, the id and the method.
 *
 * @module
 * @internal
 */
import type { BoundRequest, CaptureOptions, FetchHandler, FetchHandlerOptions, OfficialRequestContext } from "./types.js";
import { isObject } from "../../protocol/guards.js";

/** The official handler's own default body limit (4 MiB). */
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The methods whose rounds carry `requestState`. */
export const SEALED_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** Each captured request's parsed body (a message, or a 2025-era batch). Weak: a request served is forgotten with it. */
const bodies = new WeakMap<Request, unknown>();

type Obj = Record<string, unknown>;

/**
 * The target and arguments of the request `ctx` serves, from its captured
 * body; `undefined` when it was not captured, or when the body holds no
 * message (or more than one) with this id and method: never a guess.
 * @internal
 */
export function capturedRequest(ctx: OfficialRequestContext): BoundRequest | undefined {
  const request = ctx.http?.req;
  if (request === undefined || request === null) return undefined;
  const body = bodies.get(request);
  if (body === undefined) return undefined;
  const { id, method } = ctx.mcpReq;
  let found: Obj | undefined;
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isObject(message) || message.id !== id || message.method !== method) continue;
    if (found !== undefined) return undefined; // two messages answer to this id: ambiguous
    found = message;
  }
  return found === undefined ? undefined : boundRequestOf(method, found.params);
}

/**
 * What a token binds besides method, principal and audience, read from a
 * request's params the way mcp-roundtrip's own server reads them: the name
 * and `arguments` of `tools/call` and `prompts/get`; the `uri` (and no
 * arguments) of `resources/read`.
 * @internal
 */
function boundRequestOf(method: string, params: unknown): BoundRequest | undefined {
  if (!SEALED_METHODS.has(method) || !isObject(params)) return undefined;
  if (method === "resources/read") return typeof params.uri === "string" ? { target: params.uri } : undefined;
  return typeof params.name === "string" ? { target: params.name, arguments: params.arguments } : undefined;
}

/**
 * Wraps a fetch-shaped handler, or an object with one (`createMcpHandler`'s),
 * so every JSON POST body is remembered for the codec.
 * @internal
 */
export function captureHandler<H extends FetchHandler | { fetch: FetchHandler }>(handler: H, options?: CaptureOptions): H;
export function captureHandler(handler: FetchHandler | { fetch: FetchHandler }, options: CaptureOptions = {}): FetchHandler | { fetch: FetchHandler } {
  const limit = options.maxRequestBodySize ?? DEFAULT_MAX_BODY_BYTES;
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit <= 0) {
    throw new RangeError(`capture: "maxRequestBodySize" expected a positive integer, got ${String(limit)}`);
  }
  if (typeof handler === "function") {
    const inner = handler;
    return (request: Request, opts?: FetchHandlerOptions) => capturing(inner, request, opts, limit);
  }
  const fetch = (handler as { fetch?: unknown } | null)?.fetch;
  if (typeof fetch !== "function") {
    throw new TypeError("capture expected createMcpHandler(...) (an object with fetch) or a (request, options) => Promise<Response> function");
  }
  const inner = fetch.bind(handler) as FetchHandler;
  // A copy, so the caller's own handler object stays as it was; close, notify and bus come along.
  return { ...handler, fetch: (request: Request, opts?: FetchHandlerOptions) => capturing(inner, request, opts, limit) };
}

async function capturing(inner: FetchHandler, request: Request, options: FetchHandlerOptions | undefined, limit: number): Promise<Response> {
  if (options?.parsedBody !== undefined) {
    bodies.set(request, options.parsedBody);
    return inner(request, options);
  }
  if (request.method.toUpperCase() !== "POST" || request.body === null || !/json/i.test(request.headers.get("content-type") ?? "")) {
    return inner(request, options);
  }
  // A body declared too large is left unread: the handler answers it (413) as it would anyway.
  if (Number(request.headers.get("content-length")) > limit) return inner(request, options);
  let read: { bytes: Uint8Array } | { rest: ReadableStream<Uint8Array> };
  try {
    read = await readUpTo(request.body, limit);
  } catch (error) {
    // The handler reports an unreadable body its own way; hand it one that fails the same.
    return inner(replaced(request, new ReadableStream({ start: (controller) => controller.error(error) })), options);
  }
  if ("rest" in read) return inner(replaced(request, read.rest), options);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return inner(replaced(request, read.bytes), options); // not JSON: the handler answers its parse error
  }
  bodies.set(request, body);
  // The same Request object goes on (it is what ctx.http.req will be), its body already parsed.
  return inner(request, { ...options, parsedBody: body });
}

/** A copy of `request` with another body (the original's is spent). */
function replaced(request: Request, body: Uint8Array | ReadableStream<Uint8Array>): Request {
  return new Request(request, { body, duplex: "half" } as RequestInit);
}

/** The whole body when it fits in `limit` bytes; else a stream replaying what was read, then the rest. */
async function readUpTo(stream: ReadableStream<Uint8Array>, limit: number): Promise<{ bytes: Uint8Array } | { rest: ReadableStream<Uint8Array> }> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total > limit) {
      const rest = new ReadableStream<Uint8Array>({
        pull: async (controller) => {
          const next = chunks.shift();
          if (next !== undefined) return controller.enqueue(next);
          const more = await reader.read();
          if (more.done) controller.close();
          else controller.enqueue(more.value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
      return { rest };
    }
  }
  if (chunks.length === 1) return { bytes: chunks[0]! };
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes };
}
