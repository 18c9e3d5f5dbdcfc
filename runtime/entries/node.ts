/**
 * The Streamable HTTP server on `node:http` (`mcp-roundtrip/node`; Node,
 * and Deno or Bun through their Node compatibility): {@link serveHttp}
 * listens on its own server with drain and health checks;
 * {@link toNodeHandler} is the endpoint as a `(req, res)` handler to mount
 * in Express, Fastify or any Node server. Both answer exactly as
 * `createHttpHandler` from `mcp-roundtrip/server` does, and take the same
 * options. The only entry of the package that imports `node:http`.
 *
 * @packageDocumentation
 */
export { serveHttp, type ServeHttpOptions, type HttpServerHandle, type HttpCloseOptions } from "../transport/http/server/node.js";
export { toNodeHandler, type NodeRequestHandler } from "../transport/http/server/node-handler.js";
