// The ceiling for Streamable HTTP: a bare `node:http` server that parses a
// JSON-RPC `tools/call` of the echo or add tool and answers a `CallToolResult`, with no SDK on either
// side. It answers the bytes our server answers to the same request: a
// 2026-07-28 request (its `_meta` envelope) gets `resultType` and
// `_meta.serverInfo`, a 2025 one the bare result, so what ours costs above
// it is the SDK's work, not a longer answer. The client is the same fetch the SDK workloads use (keep-alive
// node:http by default; the global fetch for the reference rows).
import { createServer } from "node:http";
import { clientFetch } from "../lib/keepalive-fetch.mjs";
import { startServerProcess } from "../lib/server-process.mjs";
import { closeServer, listen, onJsonBody } from "../lib/listen.mjs";
import { ECHO_TEXT, SERVER_INFO, textOf, toolsCallRequest } from "./fixtures.mjs";

const MODERN_META = { "io.modelcontextprotocol/serverInfo": SERVER_INFO };

/**
 * The echo server, as the server process of the echo workloads runs it
 * (bench/server-host.mjs): a JSON-RPC `tools/call` in, its `CallToolResult` out.
 */
export async function echoServer() {
  const server = createServer((req, res) => {
    onJsonBody(req, res, (message) => {
      const params = message.params;
      const args = params?.arguments;
      const text = params?.name === "add" ? String(args.a + args.b) : args?.text;
      const content = [{ type: "text", text }];
      const modern = params?._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined;
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        result: modern ? { content, resultType: "complete", _meta: MODERN_META } : { content },
      });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
  });
  const url = await listen(server);
  return { url, close: () => closeServer(server) };
}

/** One POST per operation: JSON in, JSON out; the server in a process of its own. */
export async function httpEcho({ client: fetchKind = "keepalive" } = {}) {
  const remote = await startServerProcess(import.meta.url, "echoServer");
  const url = remote.url;
  const fetcher = clientFetch(fetchKind);
  let id = 0;
  return {
    serverCpu: remote.cpuMicros,
    async call() {
      const response = await fetcher.fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(toolsCallRequest(++id)),
      });
      return (await response.json()).result;
    },
    check(result) {
      if (textOf(result) !== ECHO_TEXT) throw new Error("the echo server did not echo");
    },
    async close() {
      fetcher.close();
      await remote.close();
    },
  };
}
