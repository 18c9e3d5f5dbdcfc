import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../protocol/types.js";
import { isObject } from "../protocol/guards.js";
import { MetaKey } from "../protocol/names.js";

/**
 * The protocol revisions a `Server` speaks by default, newest first: the
 * 2026-07-28 revision over per-request `_meta`, and the 2025 ones over the
 * `initialize` handshake. `legacy: "reject"` narrows it to the first.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]);

export { MetaKey } from "../protocol/names.js";

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
  const meta = isObject(params) ? params._meta : undefined;
  if (!isObject(meta)) {
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
  if (!isObject(capabilities)) {
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
    clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    raw: meta,
    // The schema check that follows rejects a level that is not one of the eight.
    logLevel: typeof logLevel === "string" ? (logLevel as LoggingLevel) : undefined,
  };
}
