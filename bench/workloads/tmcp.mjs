// tmcp (`tmcp` + `@tmcp/transport-http` + `@tmcp/adapter-valibot`), the peer
// a speed-minded user picks, as a same-run peer for plain calls over HTTP on
// both generations: a 2026-07-28 per-request call, and a 2025-11-25 session.
// Its transport speaks web `Request`/`Response`; `@hono/node-server` bridges
// it to `node:http` (a bridge built for speed: it builds the `Request` lazily).
// The load client is ours (the figure that judges is the server process's
// CPU time, and our client sends what every client sends).
import { getRequestListener } from "@hono/node-server";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import * as v from "valibot";
import { createServer } from "node:http";
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { clientFetch } from "../lib/keepalive-fetch.mjs";
import { startServerProcess } from "../lib/server-process.mjs";
import { closeServer, listen } from "./official.mjs";
import { ECHO_TEXT, textOf } from "./fixtures.mjs";

/** tmcp's McpServer with the echo tool, validated by its valibot adapter, behind `node:http`. */
export async function httpServer() {
  const server = new McpServer({ name: "bench", version: "1.0.0", description: "bench" }, { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } });
  server.tool({ name: "echo", description: "echo", schema: v.object({ text: v.string() }) }, ({ text }) => ({ content: [{ type: "text", text }] }));
  const transport = new HttpTransport(server, { path: "/mcp" });
  const httpServer = createServer(getRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 })));
  const url = await listen(httpServer);
  return { url, close: () => closeServer(httpServer) };
}

/**
 * Plain `tools/call` of the echo tool against tmcp in a process of its own:
 * `mode` "2026-07-28" (per-request) or "2025-11-25" (a session).
 * @param {{ mode: "2026-07-28" | "2025-11-25" }} options
 */
export async function http({ mode }) {
  const remote = await startServerProcess(import.meta.url, "httpServer");
  const fetcher = clientFetch("keepalive");
  const transport = new StreamableHttpClientTransport(remote.url, { fetch: fetcher.fetch });
  const closeAll = async () => {
    await transport.close();
    fetcher.close();
    await remote.close();
  };
  let client;
  try {
    client = await Client.connect(transport, { mode, clientInfo: { name: "bench-client", version: "1.0.0" } });
  } catch (error) {
    await closeAll();
    throw error;
  }
  const args = { text: ECHO_TEXT };
  return {
    serverCpu: remote.cpuMicros,
    call: () => client.callTool("echo", args),
    check: (result) => {
      // tmcp's sessions speak up to 2025-06-18, the last version before 2025-11-25 in its table.
      const expected = mode === "2026-07-28" ? mode : "2025-06-18";
      if (client.protocolVersion !== expected) throw new Error(`expected ${expected}, got ${client.protocolVersion}`);
      if (textOf(result) !== ECHO_TEXT) throw new Error(`tmcp did not echo: ${JSON.stringify(result)}`);
    },
    async close() {
      await client.close();
      await closeAll();
    },
  };
}
