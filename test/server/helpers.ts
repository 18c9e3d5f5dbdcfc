import type { JsonRpcErrorObject, JsonRpcResponse, ServerLogger } from "mcp-roundtrip/server";
import type { ElicitRequest } from "mcp-roundtrip/types";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";
import { ASK_REGION as DEMO_ASK_REGION } from "../../examples/demo/provision-server.js";
import { MODERN_VERSIONS } from "../../runtime/protocol/revisions.js";

/** The modern revision the runtime speaks (the newest served one; 2026-07-28 today). */
export const PROTOCOL_VERSION = MODERN_VERSIONS[0]!;

/** `_meta` a modern client sends, with the given capabilities. */
export function meta(clientCapabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
    "io.modelcontextprotocol/clientCapabilities": clientCapabilities,
    "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "0.0.1" },
  };
}

export interface Pairing {
  /** Sends a request with `_meta` filled in; resolves to the whole response. */
  send(method: string, params?: Record<string, unknown>, context?: RequestContext): Promise<JsonRpcResponse | undefined>;
  /** Sends a request and returns its result, failing the test on an error response. */
  result(method: string, params?: Record<string, unknown>, context?: RequestContext): Promise<Record<string, unknown>>;
  /** Sends a request and returns its error, failing the test on a result. */
  error(method: string, params?: Record<string, unknown>, context?: RequestContext): Promise<JsonRpcErrorObject>;
  /** The ids used so far. */
  readonly ids: number[];
}

/**
 * The smallest in-memory pairing: builds JSON-RPC requests the way a
 * 2026-07-28 client does and hands them to `handle`, round-tripping through
 * JSON so nothing is shared by reference.
 */
export function pair(server: MessageHandler, capabilities: Record<string, unknown> = {}): Pairing {
  const ids: number[] = [];
  let next = 1;
  const send = async (method: string, params: Record<string, unknown> = {}, context?: RequestContext) => {
    const id = next++;
    ids.push(id);
    const message = { jsonrpc: "2.0", id, method, params: { _meta: meta(capabilities), ...params } };
    const response = await server.handle(JSON.parse(JSON.stringify(message)), context);
    return response === undefined ? undefined : (JSON.parse(JSON.stringify(response)) as JsonRpcResponse);
  };
  return {
    ids,
    send,
    async result(method, params, context) {
      const response = await send(method, params, context);
      if (response === undefined || !("result" in response)) {
        throw new Error(`expected a result for ${method}, got ${JSON.stringify(response)}`);
      }
      return response.result;
    },
    async error(method, params, context) {
      const response = await send(method, params, context);
      if (response === undefined || !("error" in response)) {
        throw new Error(`expected an error for ${method}, got ${JSON.stringify(response)}`);
      }
      return response.error;
    },
  };
}

/** A logger that records instead of printing. */
export function recordingLogger(): ServerLogger & { warnings: string[]; errors: { message: string; details?: Record<string, unknown> }[] } {
  const warnings: string[] = [];
  const errors: { message: string; details?: Record<string, unknown> }[] = [];
  return {
    warnings,
    errors,
    warn: (message) => void warnings.push(message),
    error: (message, details) => void errors.push({ message, details }),
  };
}

/** The seed's region question, as the demo's server asks it. */
export const ASK_REGION: ElicitRequest = DEMO_ASK_REGION;
