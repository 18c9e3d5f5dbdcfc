/**
 * Streamable HTTP (MCP 2026-07-28) for servers and clients, all in one
 * entry for Node programs. Each part also has an entry of its own:
 *
 * - `mcp-roundtrip/http/web`: {@link createHttpHandler}, a web-standard
 *   `(Request) => Promise<Response>` handler for any runtime with `fetch`
 *   types (workers, Deno, Bun, Node); no `node:` builtin.
 * - `mcp-roundtrip/http/client`: {@link StreamableHttpClientTransport}, the
 *   client side over `fetch`; no `node:` builtin (what a browser bundles).
 * - `mcp-roundtrip/http/node`: {@link serveHttp}, the same handler on
 *   `node:http`, and {@link toNodeHandler} to mount it in Express, Fastify
 *   or any Node server.
 *
 * A bundle for a browser or a worker should import the first two: this
 * entry also reaches `node:http` (through `serveHttp`).
 *
 * @packageDocumentation
 */
export * from "./http-web.js";
export * from "./http-client.js";
export {
  serveHttp,
  toNodeHandler,
  type ServeHttpOptions,
  type HttpServerHandle,
  type HttpCloseOptions,
  type NodeRequestHandler,
} from "./http-node.js";
