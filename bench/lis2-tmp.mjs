import { writeHeapSnapshot } from "node:v8";
import { McpServer, createHttpHandler } from "mcp-roundtrip/server";
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const mcp = new McpServer({ name: "x", version: "1.0.0" }, { subscriptions: { maxListeners: 100000 } });
const handler = createHttpHandler(mcp);
const dec = new TextDecoder();
const streams = [];
async function open(i) {
  const abort = new AbortController();
  const response = await handler(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true } } }),
      signal: abort.signal,
    }),
  );
  const reader = response.body.getReader();
  let seen = "";
  for (;;) {
    const { value } = await reader.read();
    seen += dec.decode(value);
    if (seen.includes("acknowledged")) break;
  }
  streams.push({ abort, reader });
}
for (let i = 0; i < 200; i++) await open(i);
gc();
gc();
writeHeapSnapshot("/tmp/x/h1.heapsnapshot");
for (let i = 200; i < 2200; i++) await open(i);
gc();
gc();
writeHeapSnapshot("/tmp/x/h2.heapsnapshot");
process.exit(0);
