/**
 * The web-standard Streamable HTTP server (MCP 2026-07-28):
 * {@link createHttpHandler} answers `(Request) => Promise<Response>` on any
 * runtime with fetch types (workers, Deno, Bun, browsers' service workers,
 * Node). Nothing this entry reaches imports a `node:` builtin, so it
 * bundles for a worker as is.
 *
 * @packageDocumentation
 */
export { createHttpHandler, type HttpRequestHandler } from "./http/server/web.js";
export { statusForError } from "./http/server/handler.js";
export { DEFAULT_MAX_BODY_BYTES } from "./http/server/policy.js";
export type { HttpHandlerOptions, HttpRequestInfo, TokenVerifier } from "./http/server/policy.js";
export type { AuthorizationOptions } from "./http/server/authorization.js";
export { decodeHeaderValue, encodeHeaderValue, paramHeaderMismatch, paramHeadersOf, type ParamHeader, type ParamHeaderScan } from "../protocol/headers.js";
export type { AuthInfo, MessageHandler, RequestContext } from "./types.js";
