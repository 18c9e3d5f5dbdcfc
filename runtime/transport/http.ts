/**
 * Streamable HTTP (MCP 2026-07-28) for servers and clients.
 *
 * - {@link createHttpHandler}: a web-standard `(Request) => Promise<Response>`
 *   handler for any runtime with `fetch` types (Node, Deno, Bun, workers).
 * - {@link serveHttp}: the same handler on `node:http`.
 * - {@link StreamableHttpClientTransport}: the client side over `fetch`.
 *
 * @packageDocumentation
 */
export { createHttpHandler } from "./http/server/web.js";
export { statusForError } from "./http/server/handler.js";
export { DEFAULT_MAX_BODY_BYTES } from "./http/server/policy.js";
export type { HttpHandlerOptions, HttpRequestInfo, TokenVerifier } from "./http/server/policy.js";
export type { AuthorizationOptions } from "./http/server/authorization.js";
export { serveHttp, type ServeHttpOptions, type HttpServerHandle, type HttpCloseOptions } from "./http/server/node.js";
export {
  StreamableHttpClientTransport,
  HttpTransportError,
  type HttpClientTransportOptions,
  type HttpClientAuth,
  type HttpAuthChallenge,
  type TokenProvider,
} from "./http/client/transport.js";
export { decodeHeaderValue, encodeHeaderValue, paramHeaderMismatch, paramHeadersOf, type ParamHeader } from "./http/headers.js";
export type { AuthInfo, MessageHandler, RequestContext } from "./types.js";
