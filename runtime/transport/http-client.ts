/**
 * The Streamable HTTP client transport over `fetch` (MCP 2026-07-28, and
 * 2025 sessions): what a browser or a worker imports to reach a server.
 * Nothing this entry reaches imports a `node:` builtin.
 *
 * @packageDocumentation
 */
export {
  StreamableHttpClientTransport,
  HttpTransportError,
  type HttpClientTransportOptions,
  type HttpClientAuth,
  type HttpAuthChallenge,
  type TokenProvider,
} from "./http/client/transport.js";
export type { ClientTransport, TransportRequestOptions } from "./types.js";
