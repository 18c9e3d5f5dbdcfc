import type { JsonRpcResponse } from "mcp-roundtrip/server";
import { MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";

/** The modern revision the runtime speaks (the newest served one; 2026-07-28 today). */
export const PROTOCOL_VERSION = MODERN_VERSIONS[0]!;

export const META = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "transport-test", version: "1.0.0" },
};

/** Recorded call of the stub handler. */
export interface Seen {
  message: unknown;
  context: RequestContext | undefined;
}

/**
 * A small MessageHandler standing in for the server: it answers a few
 * methods the way a server would, so the transport can be tested alone.
 */
export function stubServer(overrides: Record<string, (params: Record<string, unknown>, context: RequestContext) => Promise<unknown>> = {}) {
  const seen: Seen[] = [];
  const handler: MessageHandler = {
    async handle(message, context) {
      seen.push({ message, context });
      const request = message as { id?: string | number; method: string; params?: Record<string, unknown> };
      if (request.id === undefined) return undefined;
      const params = request.params ?? {};
      const meta = params._meta as Record<string, unknown> | undefined;
      if (!meta || meta["io.modelcontextprotocol/protocolVersion"] === undefined || meta["io.modelcontextprotocol/clientCapabilities"] === undefined) {
        return { jsonrpc: "2.0", id: request.id, error: { code: -32602, message: "Invalid params: missing _meta" } };
      }
      const override = overrides[request.method];
      if (override) {
        try {
          const result = await override(params, context!);
          return { jsonrpc: "2.0", id: request.id, result } as JsonRpcResponse;
        } catch (error) {
          const e = error as { code?: number; message: string };
          return { jsonrpc: "2.0", id: request.id, error: { code: e.code ?? -32603, message: e.message } };
        }
      }
      switch (request.method) {
        case "tools/call":
          if (params.name === "bad_args") {
            return { jsonrpc: "2.0", id: request.id, error: { code: -32602, message: "Invalid arguments" } };
          }
          return { jsonrpc: "2.0", id: request.id, result: { resultType: "complete", content: [{ type: "text", text: `called ${String(params.name)}` }] } };
        case "server/discover":
          return { jsonrpc: "2.0", id: request.id, result: { resultType: "complete", supportedVersions: [PROTOCOL_VERSION], capabilities: {} } };
        default:
          return { jsonrpc: "2.0", id: request.id, error: { code: -32601, message: `Method not found: ${request.method}` } };
      }
    },
  };
  return { handler, seen };
}

/** Headers a conforming client sends for `method` (and `name` when it mirrors one). */
export function mcpHeaders(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    "mcp-method": method,
  };
  if (name !== undefined) headers["mcp-name"] = name;
  return headers;
}

export function rpc(method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: META } };
}
