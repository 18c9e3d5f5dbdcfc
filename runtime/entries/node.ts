/**
 * Everything that needs Node (`mcp-roundtrip/node`; Node, and Deno or Bun
 * through their Node compatibility): the Streamable HTTP server on
 * `node:http` ({@link serveHttp}, its own server with drain and health
 * checks; {@link toNodeHandler}, the endpoint as a `(req, res)` handler to
 * mount in Express, Fastify or any Node server; both answer exactly as
 * `createHttpHandler` from `mcp-roundtrip/server` does, and take the same
 * options), the stdio server ({@link serveStdio}, on this process's
 * stdin/stdout) and the stdio client ({@link StdioClientTransport}, which
 * spawns a server; `mcp-roundtrip/client` also gives it under the `node`
 * condition). `mcp-roundtrip/server` and `mcp-roundtrip/client` need no
 * Node types; this entry does.
 *
 * @packageDocumentation
 */
export { serveHttp, type ServeHttpOptions, type HttpServerHandle, type HttpCloseOptions } from "../transport/http/server/node.js";
export { toNodeHandler, type NodeRequestHandler } from "../transport/http/server/node-handler.js";
// Stdio, newline-delimited JSON-RPC: the server on this process's stdin/stdout, and the client that spawns one.
export { serveStdio, type ServeStdioOptions, type StdioServerHandle } from "../transport/stdio/server.js";
export { StdioClientTransport, type StdioClientOptions } from "../transport/stdio/client.js";
export { DEFAULT_MAX_LINE_BYTES } from "../transport/stdio/limits.js";
