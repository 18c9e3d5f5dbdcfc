/**
 * The 2025 handshake seen from the server: which version to agree on, and
 * what `initialize` answers (capabilities in their 2025 shape).
 *
 * @internal
 */
import { LEGACY_VERSIONS } from "../../protocol/revisions.js";
import type { ClientCapabilities, Implementation } from "../../protocol/types.js";
import type { LegacyHost } from "./host.js";
import { isObject } from "../../protocol/guards.js";
import { JsonRpcErrorCode } from "../../protocol/jsonrpc/errors.js";
import type { JsonRpcId, JsonRpcResponse } from "../../protocol/jsonrpc/messages.js";
import { errorResponse } from "../../protocol/jsonrpc/responses.js";

/** A session's `-32600` answer: a request out of place in its lifecycle (before `initialize`, after close, a second one). @internal */
export function invalid(id: JsonRpcId | undefined, detail: string): JsonRpcResponse {
  return errorResponse(id, { code: JsonRpcErrorCode.InvalidRequest, message: `Invalid Request: ${detail}` });
}

/**
 * The version to answer `initialize` with: the client's own when this
 * server speaks it, else the newest 2025 revision (the lifecycle page:
 * the client disconnects if it cannot speak ours).
 * @internal
 */
export function agreeVersion(requested: unknown): string {
  return typeof requested === "string" && LEGACY_VERSIONS.includes(requested) ? requested : LEGACY_VERSIONS[0]!;
}

/**
 * The server's capabilities in 2025 shape. With a session the server can
 * tell the client when lists change and resources update, so it says so;
 * without one (stateless) it promises nothing it cannot send.
 * @internal
 */
function legacyCapabilities(host: LegacyHost, withSession: boolean): Record<string, unknown> {
  const modern = host.capabilities() as Record<string, unknown>;
  const capabilities: Record<string, unknown> = {};
  if (isObject(modern.experimental)) capabilities.experimental = modern.experimental;
  // Log messages are sent when a handler emits them, filtered by logging/setLevel.
  capabilities.logging = {};
  if (isObject(modern.completions)) capabilities.completions = {};
  if (isObject(modern.prompts)) capabilities.prompts = withSession ? { listChanged: true } : {};
  if (isObject(modern.resources)) capabilities.resources = withSession ? { subscribe: true, listChanged: true } : {};
  if (isObject(modern.tools)) capabilities.tools = withSession ? { listChanged: true } : {};
  return capabilities;
}

/** The `InitializeResult` for `version`. @internal */
export function initializeResult(host: LegacyHost, version: string, withSession: boolean): Record<string, unknown> {
  const result: Record<string, unknown> = {
    protocolVersion: version,
    capabilities: legacyCapabilities(host, withSession),
    serverInfo: host.serverInfo,
  };
  if (host.instructions !== undefined) result.instructions = host.instructions;
  return result;
}

/** What an `initialize` request's params declare about the client. @internal */
export function declaredBy(params: unknown): { capabilities: ClientCapabilities; clientInfo: Implementation | undefined; requested: unknown } {
  const given = isObject(params) ? params : {};
  return {
    capabilities: (isObject(given.capabilities) ? given.capabilities : {}) as ClientCapabilities,
    clientInfo: isObject(given.clientInfo) ? (given.clientInfo as unknown as Implementation) : undefined,
    requested: given.protocolVersion,
  };
}
