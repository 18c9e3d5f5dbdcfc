// The ceiling for Streamable HTTP: a bare `node:http` server that parses a
// JSON-RPC `tools/call` of the echo or add tool and answers a `CallToolResult`, with no SDK on either
// side. The client is the same fetch the SDK workloads use (keep-alive
// node:http by default; the global fetch for the reference rows).
import { createServer } from "node:http";
import { clientFetch } from "../lib/keepalive-fetch.mjs";
import { startServerProcess } from "../lib/server-process.mjs";
import { closeServer, listen } from "../lib/listen.mjs";
import { ECHO_TEXT, textOf, toolsCallRequest } from "./fixtures.mjs";

/**
 * The echo server, as the server process of the echo workloads runs it
 * (bench/server-host.mjs): a JSON-RPC `tools/call` in, its `CallToolResult` out.
 */
export async function echoServer() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let message;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const args = message.params?.arguments;
      const text = message.params?.name === "add" ? String(args.a + args.b) : args?.text;
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: message.id,
        result: { resultType: "complete", content: [{ type: "text", text }] },
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
