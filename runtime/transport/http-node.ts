/**
 * The Streamable HTTP server on `node:http` (Node, and Deno or Bun through
 * their Node compatibility): {@link serveHttp} listens on its own server
 * with drain and health checks; {@link toNodeHandler} is the endpoint as a
 * `(req, res)` handler to mount in Express, Fastify or any Node server. The
 * only entry of the HTTP family that reaches a `node:` builtin.
 *
 * @packageDocumentation
 */
export { serveHttp, type ServeHttpOptions, type HttpServerHandle, type HttpCloseOptions } from "./http/server/node.js";
export { toNodeHandler, type NodeRequestHandler } from "./http/server/node-handler.js";
export { DEFAULT_MAX_BODY_BYTES } from "./http/server/policy.js";
export type { HttpHandlerOptions, HttpRequestInfo, TokenVerifier } from "./http/server/policy.js";
export type { AuthInfo, MessageHandler, RequestContext } from "./types.js";
