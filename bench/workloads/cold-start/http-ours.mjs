// A cold start over HTTP: import the server, serve one echo tool with
// `serveHttp` on 127.0.0.1, print the URL, and exit on SIGTERM. The bench
// times spawn → the first verified `tools/call` answer from outside.
import { McpServer } from "mcp-roundtrip/server";
import { serveHttp } from "mcp-roundtrip/node";

const server = new McpServer({ name: "cold-start", version: "1.0.0" });
server.tool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
const http = await serveHttp(server, { port: 0 });
process.once("SIGTERM", () => http.close().then(() => process.exit(0)));
process.stdout.write(`${http.url}\n`);
