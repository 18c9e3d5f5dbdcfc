// What 10,000 idle 2025 sessions cost a server: each is opened through the
// server's web-standard HTTP handler (`initialize`, then
// `notifications/initialized`) and left alone. Measured as heap growth of the
// process holding the server, the way listeners.mjs measures idle streams.
import { ECHO_TEXT, textOf } from "./fixtures.mjs";
import { garbageCollector, settledHeap } from "./pending.mjs";

const URL_ = "http://127.0.0.1/mcp";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-client", version: "1.0.0" } },
});
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

/**
 * Heap growth across `count` idle sessions of one SDK, after `warmup`
 * sessions opened first (left open: every SDK here keeps a session until it
 * expires, and the figure is the growth between two counts of open ones).
 * One call on the last session proves the sessions are live.
 * @param {{ count: number, warmup: number, sdk: "ours" | "official1" | "tmcp" }} options
 * @returns {Promise<{ heapGrowthBytes: number, perItemBytes: number }>}
 * @throws {Error} when a session does not open or the call on it fails.
 */
export async function idleSessions({ count, warmup, sdk }) {
  const collect = garbageCollector();
  const { handle, close } = await webHandler(sdk, count + warmup);
  const open = async () => {
    const response = await handle(new Request(URL_, { method: "POST", headers: HEADERS, body: INITIALIZE }));
    const id = response.headers.get("mcp-session-id");
    const version = (await readJson(response))?.result?.protocolVersion;
    if (!id || !version) throw new Error(`${sdk}: initialize opened no session (HTTP ${response.status})`);
    const headers = { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": version };
    const initialized = await handle(new Request(URL_, { method: "POST", headers, body: INITIALIZED }));
    if (initialized.status !== 202) throw new Error(`${sdk}: notifications/initialized answered HTTP ${initialized.status}`);
    await initialized.body?.cancel();
    return headers;
  };
  for (let i = 0; i < warmup; i++) await open();
  const before = settledHeap(collect);
  let last;
  for (let i = 0; i < count; i++) last = await open();
  const after = settledHeap(collect);
  const call = await handle(
    new Request(URL_, {
      method: "POST",
      headers: last,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: ECHO_TEXT } } }),
    }),
  );
  const answer = await readJson(call);
  if (textOf(answer?.result) !== ECHO_TEXT) throw new Error(`${sdk}: the call on the last session answered ${JSON.stringify(answer)}`);
  await close();
  return { heapGrowthBytes: after - before, perItemBytes: (after - before) / count };
}

/** The JSON-RPC message of a JSON or single-event SSE answer. */
async function readJson(response) {
  const text = await response.text();
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const data = text.split("\n").find((line) => line.startsWith("data: "));
    return data && JSON.parse(data.slice(6));
  }
  return text && JSON.parse(text);
}

async function webHandler(sdk, maxSessions) {
  const echo = ({ text }) => ({ content: [{ type: "text", text }] });
  if (sdk === "ours") {
    const { McpServer, createHttpHandler } = await import("mcp-roundtrip/server");
    const server = new McpServer({ name: "bench-sessions", version: "1.0.0" });
    server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, echo);
    const handler = createHttpHandler(server, { maxSessions });
    return { handle: handler, close: async () => handler.close() };
  }
  if (sdk === "official1") {
    const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
    const { WebStandardStreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js");
    const { z } = await import("zod");
    const { randomUUID } = await import("node:crypto");
    const sessions = new Map();
    const handle = async (request) => {
      const id = request.headers.get("mcp-session-id");
      if (id) return sessions.get(id).transport.handleRequest(request);
      const server = new McpServer({ name: "bench-sessions", version: "1.0.0" });
      server.registerTool("echo", { inputSchema: { text: z.string() } }, echo);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sessionId) => sessions.set(sessionId, { transport, server }),
      });
      await server.connect(transport);
      return transport.handleRequest(request);
    };
    return {
      handle,
      async close() {
        for (const { server } of sessions.values()) await server.close();
      },
    };
  }
  const [{ McpServer }, { HttpTransport }, { ValibotJsonSchemaAdapter }, v] = await Promise.all([
    import("tmcp"),
    import("@tmcp/transport-http"),
    import("@tmcp/adapter-valibot"),
    import("valibot"),
  ]);
  const server = new McpServer(
    { name: "bench-sessions", version: "1.0.0", description: "bench" },
    { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } },
  );
  server.tool({ name: "echo", description: "echo", schema: v.object({ text: v.string() }) }, echo);
  const transport = new HttpTransport(server, { path: "/mcp" });
  return { handle: (request) => transport.respond(request), close: async () => {} };
}
