import { writeHeapSnapshot } from "node:v8";
import { McpServer, createHttpHandler } from "mcp-roundtrip/server";
const server = new McpServer({ name: "bench-sessions", version: "1.0.0" });
server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
const handle = createHttpHandler(server, { maxSessions: 100000 });
const H = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench-client", version: "1.0.0" } },
});
async function open() {
  const r = await handle(new Request("http://127.0.0.1/mcp", { method: "POST", headers: H, body: INIT }));
  const id = r.headers.get("mcp-session-id");
  await r.text();
  const r2 = await handle(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { ...H, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    }),
  );
  await r2.body?.cancel();
}
for (let i = 0; i < 300; i++) await open();
gc();
gc();
writeHeapSnapshot("/tmp/x/s1.heapsnapshot");
for (let i = 0; i < 3000; i++) await open();
gc();
gc();
writeHeapSnapshot("/tmp/x/s2.heapsnapshot");
process.exit(0);
