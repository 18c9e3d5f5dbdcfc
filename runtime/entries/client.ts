/**
 * Everything a client author imports (`mcp-roundtrip/client`): the
 * {@link Client} (`Client.connect(target, options)`, the automatic
 * multi-round loop, the hand-driven `client.session`, serialisable pending
 * calls) and the transports it connects through: Streamable HTTP over
 * `fetch` ({@link StreamableHttpClientTransport}) and stdio
 * ({@link StdioClientTransport}, which spawns a server). A server in the
 * same process needs no import: `Client.connect(server)` loads the
 * in-memory transport on first use (`InMemoryClientTransport`, for its
 * options, is in `mcp-roundtrip/server`: a static export here would make
 * every browser bundle load it).
 *
 * This file is the entry under every condition but `node` (browsers,
 * workers): it reaches no `node:` builtin, and its `StdioClientTransport`
 * refuses to spawn with what to connect to instead. Under `node` (Node,
 * Deno, Bun) the entry is `client-node.ts`: the same names, with the real
 * stdio client.
 *
 * @packageDocumentation
 */
export * from "../client/index.js";
// Streamable HTTP over fetch: no node: builtin, what a browser bundles.
export { StreamableHttpClientTransport } from "../transport/http/client/transport.js";
export { HttpTransportError } from "../transport/http/client/errors.js";
export type { HttpClientAuth, HttpAuthChallenge } from "../transport/http/client/auth.js";
export type { HttpClientTransportOptions, TokenProvider } from "../transport/http/client/options.js";
// In process: a client on a server's handle, no serialisation (Client.connect(server) opens one by itself).
export type { ClientTransport, MessageHandler, ServerRequestHandler, TransportRequestOptions } from "../protocol/contracts.js";
export type { AuthInfo } from "../protocol/context.js";
// Stdio: here the refusal; client-node.ts puts the real spawner in its place.
export { StdioClientTransport } from "../transport/stdio/client-absent.js";
export type { StdioClientOptions, StdioChildStderr } from "../transport/stdio/client-options.js";
export { childEnvironment, DEFAULT_INHERITED_ENV } from "../transport/stdio/env.js";
export { DEFAULT_MAX_LINE_BYTES } from "../transport/stdio/limits.js";
// JSON-RPC basics shared by both sides: McpError and the error codes, the message shapes and their guards.
export * from "./jsonrpc.js";

declare global {
  interface SymbolConstructor {
    /**
     * The well-known symbol of `await using` (ES2026's explicit resource management), which `Client` implements.
     * Declared as the standard library (`esnext.disposable`) and Node's types declare it, so the client's
     * declarations type-check in a project whose `lib` predates it (`es2022`, a browser or a worker without Node's
     * types); where a library declares it too, the declarations merge.
     */
    readonly asyncDispose: unique symbol;
  }
}
