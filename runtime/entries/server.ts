/**
 * Everything a server author imports (`mcp-roundtrip/server`): the
 * low-level {@link Server} and the high-level {@link McpServer}, the
 * `InputRequiredResult` builder, declared needs, tasks and subscriptions,
 * the everyday names of request-state security (the rest is in
 * `mcp-roundtrip/state`), and the two ways to serve that reach no `node:`
 * builtin: {@link createHttpHandler}, a web-standard
 * `(Request) => Promise<Response>` Streamable HTTP handler for any runtime
 * with `fetch` types (workers, Deno, Bun, Node). What needs Node (a
 * `node:http` server, a framework's `(req, res)`, `serveStdio` on this
 * process's stdin/stdout) is in `mcp-roundtrip/node`. {@link InMemoryClientTransport}
 * connects a `Client` to a server in the same process with an identity
 * (`authInfo`), to test what a server binds to it.
 *
 * @packageDocumentation
 */
export * from "../server/index.js";
// Streamable HTTP, web-standard: the handler, its options, and the HTTP status of a JSON-RPC error.
export { createHttpHandler, type HttpRequestHandler } from "../transport/http/server/web.js";
export { statusForError } from "../transport/http/server/status.js";
export { DEFAULT_MAX_BODY_BYTES, type HttpHandlerOptions, type HttpRequestInfo, type TokenVerifier } from "../transport/http/server/policy.js";
export type { AuthorizationOptions } from "../transport/http/server/authorization.js";
// The Mcp-Param header encoding, for a gateway or framework that reads or writes those headers itself.
export { decodeHeaderValue, encodeHeaderValue } from "../protocol/headers.js";
export { paramHeadersOf, type ParamHeader, type ParamHeaderScan } from "../protocol/param-headers.js";
export { paramHeaderMismatch } from "../protocol/param-header-check.js";
export type { AuthInfo, RequestContext } from "../protocol/context.js";
export type { MessageHandler } from "../protocol/contracts.js";
// In process: a Client on this server's handle with options (authInfo, as if a transport had verified a token), for tests.
export { InMemoryClientTransport, type InMemoryTransportOptions } from "../transport/memory.js";
// JSON-RPC basics shared by both sides: McpError and the error codes, the message shapes and their guards.
export * from "./jsonrpc.js";
