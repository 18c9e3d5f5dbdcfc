import type { RequestStateLogger } from "../../state/index.js";

/**
 * The part of the official SDK's `AuthInfo` the codec reads: the OAuth
 * client, and the JWT / RFC 7662 claims `iss` and `sub` when the token
 * verifier put them in `extra`. Declared here, structurally, so this subpath
 * needs nothing from `@modelcontextprotocol/server`, not even its types.
 */
export interface OfficialAuthInfo {
  /** The OAuth client the token was issued to. */
  clientId: string;
  /** What the verifier attached; `extra.iss` and `extra.sub`, when strings, join the principal. */
  extra?: Record<string, unknown>;
}

/**
 * The part of the official SDK's handler context (`ServerContext`) the codec
 * reads. Their `ctx` is assignable to it; so is a hand-built object in tests.
 */
export interface OfficialRequestContext {
  /** The request being served: its JSON-RPC id and method. */
  mcpReq: {
    /** The JSON-RPC id. */
    id: string | number;
    /** The method; a token minted for one method is rejected on another. */
    method: string;
  };
  /** HTTP facts: the verified token and the original `Request`, when served over HTTP. */
  http?: {
    /** What the official SDK's auth middleware verified; the default principal binding reads it. */
    authInfo?: OfficialAuthInfo;
    /** The incoming request, which `capture` matches to the body it read. */
    req?: Request;
  };
}

/** What a token is bound to besides method, principal and audience: the tool/prompt name or resource URI, and the arguments. */
export interface BoundRequest {
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /** The request's arguments; absent counts as `{}` (always absent for `resources/read`). */
  arguments?: unknown;
}

/** Per-request options of a fetch-shaped handler, as `createMcpHandler`'s `fetch` takes them. */
export interface FetchHandlerOptions {
  /** Validated authentication information, passed through untouched. */
  authInfo?: unknown;
  /** A body already parsed as JSON; when present the capture reads nothing. */
  parsedBody?: unknown;
}

/**
 * A fetch-shaped MCP endpoint: `createMcpHandler(...).fetch`, or
 * `(req, opts) => transport.handleRequest(req, opts)`. Its options are
 * checked bivariantly, so handlers typed with the official SDK's own option
 * types fit.
 */
export type FetchHandler = {
  /** Serves one HTTP request. (Method syntax makes the parameters bivariant; the name is never used.) */
  bivarianceHack(request: Request, options?: FetchHandlerOptions): Promise<Response>;
}["bivarianceHack"];

/** Options of `codec.capture`. */
export interface CaptureOptions {
  /**
   * The largest body read and remembered, in bytes (default 4,194,304, the
   * official handler's own default). A larger body is passed on unread, so
   * the handler answers it as it would anyway (413); its rounds cannot mint.
   */
  maxRequestBodySize?: number;
}

/** Options of `createSealedRequestStateCodec`. */
export interface SealedRequestStateCodecOptions {
  /**
   * The audience claim of every token (e.g. the server's name). Required
   * unless the `RequestStateSecurity` has its own: their `ctx` does not carry
   * the server's name, and without an audience two services sharing a key
   * would accept each other's tokens.
   */
  audience?: string;
  /**
   * The principal of a request, from your own identity signal. When set, it
   * alone decides; `undefined` or `null` binds none. Default: the verified
   * `ctx.http.authInfo`, mapped by `principalOfOfficialAuthInfo`.
   */
  bindPrincipal?: (ctx: OfficialRequestContext) => string | undefined | null;
  /**
   * Where the request's target and arguments come from when `capture` did
   * not see the request (stdio, an in-memory transport): their `ctx` holds
   * neither. Return `undefined` to refuse (mint throws, verify rejects).
   */
  bindRequest?: (ctx: OfficialRequestContext) => BoundRequest | undefined;
  /**
   * How a payload becomes the sealed state: `"json"` (default; any JSON value,
   * `JSON.stringify` / `JSON.parse`) or `"text"` (a string, sealed as is:
   * byte for byte what an mcp-roundtrip handler's `requestState` is).
   */
  payload?: "json" | "text";
  /**
   * Receives the reason of the rejections the codec itself decides (no
   * captured request, a malformed identity, a state that is not JSON); the
   * security's own logger receives the rest. Default: `console.warn`.
   */
  logger?: RequestStateLogger;
}

/**
 * What `createSealedRequestStateCodec` returns: the official SDK's
 * `RequestStateCodec<T>` (`mint`, `verify`), plus `capture`, which lets the
 * codec see each HTTP request's target and arguments.
 */
export interface SealedRequestStateCodec<T = unknown> {
  /**
   * Seals `payload` into a v1 token bound to this request (method, target,
   * argument digest), its principal and the audience.
   *
   * @param ctx - the handler's `ctx` (required: it identifies the request).
   * @throws {TypeError} when `ctx` is missing, the request was not captured, the
   *   identity is malformed or the payload cannot be encoded.
   */
  mint(payload: T, ctx?: OfficialRequestContext): Promise<string>;
  /**
   * Checks an echoed token against the incoming request and returns the
   * payload. Throws `InvalidRequestState` on every failure; pass it as
   * `ServerOptions.requestState.verify` (it needs no `this`).
   */
  verify(state: string, ctx: OfficialRequestContext): Promise<T>;
  /**
   * Wraps `createMcpHandler(...)` so the codec sees each request's JSON-RPC
   * body (read once and handed on as `parsedBody`, so nothing is parsed
   * twice). Returns a copy of the handler with `fetch` wrapped.
   */
  capture<
    H extends {
      /** The handler's fetch-shaped entry; the copy wraps it. */
      fetch: FetchHandler;
    },
  >(handler: H, options?: CaptureOptions): H;
  /** Wraps a fetch-shaped function, e.g. `(req, opts) => transport.handleRequest(req, opts)`, the same way. */
  capture(handler: FetchHandler, options?: CaptureOptions): FetchHandler;
  /** The audience every token carries. */
  readonly audience: string;
}
