import { JsonRpcErrorCode, McpError } from "../jsonrpc/errors.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../../generated/2026-07-28/index.js";

/**
 * The protocol revisions a `Server` speaks by default, newest first: the
 * 2026-07-28 revision over per-request `_meta`, and the 2025 ones over the
 * `initialize` handshake. `legacy: "reject"` narrows it to the first.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);

/** Reserved `_meta` keys of the 2026-07-28 revision that the server reads or writes. */
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

/** What a request's `_meta` says about its sender. */
export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The whole `_meta` object as sent (progress token, trace context, vendor keys). */
  raw: Record<string, unknown>;
  /** The least severe log level the client asked for, if any. */
  logLevel?: LoggingLevel | undefined;
  /** Whether log messages flow when no level was asked for (a 2025 session before `logging/setLevel`). */
  logsWithoutLevel?: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads the per-request protocol fields every 2026-07-28 request must carry.
 *
 * Runs before schema validation so that a request from another revision gets
 * the version error (which tells the client what to retry with) rather than a
 * schema complaint about fields that revision spells differently.
 *
 * @param params - the request's `params` (may be anything the peer sent)
 * @param modern - the versions this server accepts in the envelope
 * @param advertised - every version the server speaks, listed in `-32022` (default: `modern`)
 * @returns the protocol version, capabilities and client info
 * @throws McpError -32602 when `_meta`, its protocol version or its client
 *   capabilities are missing or mistyped; -32022 when the version is not
 *   supported (with `data.supported` and `data.requested`)
 * @internal
 */
export function readRequestMeta(params: unknown, modern: readonly string[], advertised: readonly string[] = modern): RequestMeta {
  const meta = isPlainObject(params) ? params._meta : undefined;
  if (!isPlainObject(meta)) {
    throw new McpError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid params: /params/_meta is required and must be an object carrying "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}"`,
    );
  }
  const version = meta[MetaKey.protocolVersion];
  if (typeof version !== "string") {
    throw new McpError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid params: /params/_meta/${MetaKey.protocolVersion} is required and must be a string such as "${modern[0]}"`,
    );
  }
  if (!modern.includes(version)) {
    // A 2025 version is spoken through initialize, never through the envelope: the list tells the client what to retry with.
    throw new McpError(JsonRpcErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
      supported: [...advertised],
      requested: version,
    });
  }
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isPlainObject(capabilities)) {
    throw new McpError(
      JsonRpcErrorCode.InvalidParams,
      `Invalid params: /params/_meta/${MetaKey.clientCapabilities} is required and must be an object (send {} when the client supports no optional capability)`,
    );
  }
  const clientInfo = meta[MetaKey.clientInfo];
  const logLevel = meta[MetaKey.logLevel];
  return {
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: isPlainObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    raw: meta,
    // The schema check that follows rejects a level that is not one of the eight.
    logLevel: typeof logLevel === "string" ? (logLevel as LoggingLevel) : undefined,
  };
}
