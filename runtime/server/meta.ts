import { JsonRpcErrorCode, McpError } from "../jsonrpc/errors.js";
import type { ClientCapabilities, Implementation } from "../../generated/2026-07-28/index.js";

/** The protocol revisions this server speaks, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(["2026-07-28"]);

/** Reserved `_meta` keys of the 2026-07-28 revision that the server reads or writes. */
export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** What a request's `_meta` says about its sender. */
export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The whole `_meta` object as sent (progress token, trace context, vendor keys). */
  raw: Record<string, unknown>;
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
 * @param supported - the versions this server accepts
 * @returns the protocol version, capabilities and client info
 * @throws McpError -32602 when `_meta`, its protocol version or its client
 *   capabilities are missing or mistyped; -32022 when the version is not
 *   supported (with `data.supported` and `data.requested`)
 * @internal
 */
export function readRequestMeta(params: unknown, supported: readonly string[]): RequestMeta {
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
      `Invalid params: /params/_meta/${MetaKey.protocolVersion} is required and must be a string such as "${supported[0]}"`,
    );
  }
  if (!supported.includes(version)) {
    throw new McpError(JsonRpcErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
      supported: [...supported],
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
  return {
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: isPlainObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    raw: meta,
  };
}
