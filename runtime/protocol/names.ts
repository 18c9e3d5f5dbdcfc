/**
 * The names the protocol reserves, in one table: the `_meta` keys of the
 * 2026-07-28 per-request envelope and the HTTP header names of the
 * Streamable HTTP binding. Every side reads them from here, so a key is
 * spelled once. Each key is also its own constant: a browser bundle that
 * needs two keys keeps two strings, not the whole table.
 *
 * @module
 */

/** `_meta` key: the revision the client speaks on this request. @internal */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
/** `_meta` key: what the client can answer, declared on every request. @internal */
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** `_meta` key: the client's name and version. @internal */
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
/** `_meta` key: the lowest log level the client wants on this request. @internal */
const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
/** `_meta` key: the server's name and version, on its results. @internal */
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
/** `_meta` key: the `subscriptions/listen` stream a notification belongs to. @internal */
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** Reserved `_meta` keys of the 2026-07-28 revision that the SDK reads or writes. */
export const MetaKey = {
  /** The revision the client speaks on this request; required, since there is no handshake to remember it. */
  protocolVersion: META_PROTOCOL_VERSION,
  /** What the client can answer (elicitation, sampling, roots), declared on every request. */
  clientCapabilities: META_CLIENT_CAPABILITIES,
  /** The client's name and version, as `initialize` used to carry them. */
  clientInfo: META_CLIENT_INFO,
  /** The lowest log level the client wants `notifications/message` for, on this request. */
  logLevel: META_LOG_LEVEL,
  /** Written by the server on its results: its name and version. */
  serverInfo: META_SERVER_INFO,
  /** Names the `subscriptions/listen` stream a notification belongs to (its request id). */
  subscriptionId: META_SUBSCRIPTION_ID,
} as const;

/**
 * Header names of the Streamable HTTP binding that the headers rules mirror
 * from the body, lower-cased as `Headers` reports them.
 * @internal
 */
export const HeaderName = {
  protocolVersion: "mcp-protocol-version",
  method: "mcp-method",
  name: "mcp-name",
  paramPrefix: "mcp-param-",
} as const;

/** The header that names a 2025 session, lower-cased. @internal */
export const SESSION_HEADER = "mcp-session-id";
