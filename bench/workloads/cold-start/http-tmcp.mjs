// tmcp's cold start over HTTP, started the same way as http-ours.mjs.
import { getRequestListener } from "@hono/node-server";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import * as v from "valibot";
import { createServer } from "node:http";

const server = new McpServer(
  { name: "cold-start", version: "1.0.0", description: "cold start" },
  { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool({ name: "echo", description: "echo", schema: v.object({ text: v.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
const transport = new HttpTransport(server, { path: "/mcp" });
const http = createServer(getRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 })));
http.listen(0, "127.0.0.1", () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
process.once("SIGTERM", () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
});
