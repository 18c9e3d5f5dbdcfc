/**
 * The Streamable HTTP client transport over `fetch` (MCP 2026-07-28, and
 * 2025 sessions): what a browser or a worker imports to reach a server.
 * Nothing this entry reaches imports a `node:` builtin.
 *
 * @packageDocumentation
 */
export { StreamableHttpClientTransport } from "./http/client/transport.js";
export { HttpTransportError } from "./http/client/errors.js";
export type { HttpClientAuth, HttpAuthChallenge } from "./http/client/auth.js";
export type { HttpClientTransportOptions, TokenProvider } from "./http/client/options.js";
export type { ClientTransport, TransportRequestOptions } from "./types.js";
