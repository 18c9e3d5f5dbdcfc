/**
 * The headers of one POST: the content negotiation, the headers mirrored
 * from the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
 * `Mcp-Param-*`), and a 2025 session's id.
 *
 * @internal
 */
import type { JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "../../../protocol/jsonrpc/messages.js";
import { encodeHeaderValue, META_PROTOCOL_VERSION, nameSourceOf } from "../../../protocol/headers.js";
import type { HttpSession } from "./session.js";
import { ACCEPT_POST } from "./shared.js";
import { isObject } from "../../../protocol/guards.js";
import { SESSION_HEADER } from "../../../protocol/names.js";
import type { ToolHeaders } from "./tool-headers.js";

/** The version a request carries when neither its `_meta` nor an agreed handshake names one. */
const DEFAULT_PROTOCOL_VERSION = "2026-07-28";

/**
 * The headers of one POST, except `authorization`.
 *
 * @param extra - the transport's extra headers, if any (copied, never changed).
 * @internal
 */
export function postHeaders(
  message: JsonRpcRequest | JsonRpcNotification | JsonRpcResponse,
  extra: Record<string, string> | undefined,
  session: HttpSession,
  tools: ToolHeaders,
): Record<string, string> {
  const headers: Record<string, string> = extra
    ? { ...extra, "content-type": "application/json", accept: ACCEPT_POST }
    : { "content-type": "application/json", accept: ACCEPT_POST };
  if ("method" in message) {
    const params = message.params;
    const meta = isObject(params) ? params._meta : undefined;
    const version = isObject(meta) && typeof meta[META_PROTOCOL_VERSION] === "string" ? (meta[META_PROTOCOL_VERSION] as string) : session.version;
    if (version && message.method !== "initialize") headers["mcp-protocol-version"] = version;
    else if (!version && message.method !== "initialize" && "id" in message) headers["mcp-protocol-version"] = DEFAULT_PROTOCOL_VERSION;
    headers["mcp-method"] = message.method;
    const name = nameSourceOf(message.method, params);
    if (name !== undefined) headers["mcp-name"] = encodeHeaderValue(name);
    if (message.method === "tools/call" && name !== undefined) tools.write(name, (params as Record<string, unknown>).arguments, headers);
  } else if (session.version) {
    // A response to the server's request: only the agreed version applies.
    headers["mcp-protocol-version"] = session.version;
  }
  // "MUST include it in the Mcp-Session-Id header on all of their subsequent HTTP requests" (2025-11-25 transports).
  if (session.id !== undefined) headers[SESSION_HEADER] = session.id;
  return headers;
}
