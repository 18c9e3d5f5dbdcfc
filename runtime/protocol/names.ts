/**
 * The names the protocol reserves, in one table: the `_meta` keys of the
 * 2026-07-28 per-request envelope and the HTTP header names of the
 * Streamable HTTP binding. Every side reads them from here, so a key is
 * spelled once.
 *
 * @module
 */

/** Reserved `_meta` keys of the 2026-07-28 revision that the SDK reads or writes. */
export const MetaKey = {
  /** The revision the client speaks on this request; required, since there is no handshake to remember it. */
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** What the client can answer (elicitation, sampling, roots), declared on every request. */
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** The client's name and version, as `initialize` used to carry them. */
  clientInfo: "io.modelcontextprotocol/clientInfo",
  /** The lowest log level the client wants `notifications/message` for, on this request. */
  logLevel: "io.modelcontextprotocol/logLevel",
  /** Written by the server on its results: its name and version. */
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/**
 * Header names of the Streamable HTTP binding, lower-cased as `Headers`
 * reports them.
 * @internal
 */
export const HeaderName = {
  protocolVersion: "mcp-protocol-version",
  method: "mcp-method",
  name: "mcp-name",
  paramPrefix: "mcp-param-",
  /** The header that names a 2025 session. */
  sessionId: "mcp-session-id",
} as const;
