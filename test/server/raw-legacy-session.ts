// A hand-driven 2025 client on one session of a server, for the tests of the 2025 path: it records what
// the server sent it and answers each request the server asks with `answer` (no reply when that gives
// `undefined`, for a client that never answers).
import type { McpServer, JsonRpcMessage, JsonRpcResponse } from "mcp-roundtrip/server";
import type { ServerSession } from "../../runtime/transport/types.js";

/** A request the server sent the client. */
export interface AskedRequest {
  id: number;
  method: string;
  params: Record<string, unknown>;
}

export function rawSession(server: McpServer, answer: (request: AskedRequest) => unknown = () => ({ action: "decline" })) {
  const outbound: JsonRpcMessage[] = [];
  let session!: ServerSession;
  const reply = (message: JsonRpcMessage) => {
    outbound.push(message);
    if (!("id" in message && "method" in message)) return;
    const request = message as AskedRequest;
    const result = answer(request);
    if (result !== undefined) queueMicrotask(() => void session.handle({ jsonrpc: "2.0", id: request.id, result }));
  };
  session = server.openSession({ send: reply });
  let next = 1;
  const context = { sendRelated: reply, sendNotification: reply };
  return {
    session,
    outbound,
    /** The requests the server sent, in order. */
    asked: () => outbound.filter((message) => "method" in message && "id" in message) as unknown as AskedRequest[],
    request: (method: string, params: Record<string, unknown> = {}) =>
      session.handle({ jsonrpc: "2.0", id: next++, method, params }, context) as Promise<JsonRpcResponse>,
    /** The handshake as a client completes it: initialize, then notifications/initialized (unless `initialized: false`). */
    initialize: async (capabilities: Record<string, unknown> = { elicitation: {}, roots: {} }, protocolVersion = "2025-11-25", initialized = true) => {
      const response = (await session.handle({
        jsonrpc: "2.0",
        id: next++,
        method: "initialize",
        params: { protocolVersion, capabilities, clientInfo: { name: "raw", version: "1" } },
      })) as JsonRpcResponse;
      if (initialized && "result" in response) await session.handle({ jsonrpc: "2.0", method: "notifications/initialized" });
      return response;
    },
    /** Sends notifications/initialized by itself (after `initialize(…, false)`). */
    initialized: () => session.handle({ jsonrpc: "2.0", method: "notifications/initialized" }),
  };
}
