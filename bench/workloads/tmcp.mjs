// tmcp (`tmcp` + `@tmcp/transport-http` + `@tmcp/adapter-valibot`), the peer
// a speed-minded user picks, as a same-run peer for plain calls over HTTP on
// both generations: a 2026-07-28 per-request call, and a 2025-11-25 session.
// Its transport speaks web `Request`/`Response`; `@hono/node-server` bridges
// it to `node:http` (a bridge built for speed: it builds the `Request` lazily).
// plain-http.mjs drives it with the same load client as every other server.
import { getRequestListener } from "@hono/node-server";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import * as v from "valibot";
import { createServer } from "node:http";
import { closeServer, listen } from "../lib/listen.mjs";

/** tmcp's McpServer with the echo and add tools, validated by its valibot adapter, behind `node:http`. */
export async function httpServer() {
  const server = new McpServer({ name: "bench", version: "1.0.0", description: "bench" }, { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } });
  server.tool({ name: "echo", description: "echo", schema: v.object({ text: v.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  server.tool({ name: "add", description: "add", schema: v.object({ a: v.number(), b: v.number() }) }, ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  const transport = new HttpTransport(server, { path: "/mcp" });
  const httpServer = createServer(getRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 })));
  const url = await listen(httpServer);
  return { url, close: () => closeServer(httpServer) };
}
