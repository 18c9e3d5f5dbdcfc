// The floor of a 2025 session call with one elicitation over Streamable HTTP:
// a bare `node:http` server that plays the session with canned answers and
// does nothing a protocol would ask beyond reading each message: no schema,
// no validation, no resumption log, no deadline for the question. It sends
// the same bytes our server sends (an SSE answer whose first write carries
// the headers, the priming event and the question; a 202 for the client's
// answer; the result as the stream's last event), so our client drives it
// like our server, and what a server pays above it is SDK work.
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { clientFetch } from "../lib/keepalive-fetch.mjs";
import { startServerProcess } from "../lib/server-process.mjs";
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { closeServer, listen, onJsonBody } from "../lib/listen.mjs";
import { CONFIRM_ANSWER, CONFIRM_SCHEMA, ECHO_TEXT, confirmedText, textOf } from "./fixtures.mjs";

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };
const VERSION = "2025-11-25";

/**
 * The floor server, as the server process runs it (bench/server-host.mjs):
 * initialize, the standing GET stream, `tools/call` of a tool that asks one
 * form question, the client's answer, DELETE.
 */
export async function elicitFloorServer() {
  /** question id → the open SSE answer of the call that asked it, the call's id and its text. */
  const asked = new Map();
  const streams = new Set();
  /** One per call: the question's JSON-RPC id, and the number of the call's SSE stream in its event ids. */
  let nextQuestion = 0;
  const server = createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, SSE_HEADERS);
      res.flushHeaders();
      streams.add(res);
      res.on("close", () => streams.delete(res));
      return;
    }
    if (req.method === "DELETE") {
      res.writeHead(200, { "content-length": "0" }).end();
      return;
    }
    onJsonBody(req, res, (message) => {
      if (message.method === "initialize") {
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id: message.id,
          result: { protocolVersion: VERSION, capabilities: { tools: {} }, serverInfo: { name: "bench-floor", version: "1.0.0" } },
        });
        res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "mcp-session-id": randomUUID() });
        res.end(body);
      } else if (message.method === "tools/call") {
        const question = ++nextQuestion;
        const ask = JSON.stringify({
          jsonrpc: "2.0",
          id: question,
          method: "elicitation/create",
          params: { mode: "form", message: `Confirm ${message.params.arguments.text}?`, requestedSchema: CONFIRM_SCHEMA },
        });
        asked.set(question, { res, id: message.id, text: message.params.arguments.text });
        res.writeHead(200, SSE_HEADERS);
        res.write(`id: ${question}-0\ndata: \n\nid: ${question}-1\nevent: message\ndata: ${ask}\n\n`);
      } else if (message.method === undefined && asked.has(message.id)) {
        const question = message.id;
        const call = asked.get(question);
        asked.delete(question);
        res.writeHead(202).end();
        const confirmed = message.result?.action === "accept" && message.result.content?.confirm === true;
        const result = JSON.stringify({
          jsonrpc: "2.0",
          id: call.id,
          result: { content: [{ type: "text", text: confirmed ? confirmedText(call.text) : "declined" }] },
        });
        call.res.end(`id: ${question}-2\nevent: message\ndata: ${result}\n\n`);
      } else {
        res.writeHead(202).end(); // notifications/initialized
      }
    });
  });
  const url = await listen(server);
  return {
    url,
    close: () => {
      for (const stream of streams) stream.end();
      return closeServer(server);
    },
  };
}

/** Our client (mode "2025-11-25") driving the floor server in a process of its own. */
export async function legacyHttpFloor({ client: fetchKind = "keepalive" } = {}) {
  const remote = await startServerProcess(import.meta.url, "elicitFloorServer");
  const fetcher = clientFetch(fetchKind);
  const transport = new StreamableHttpClientTransport(remote.url, { fetch: fetcher.fetch });
  const client = await Client.connect(transport, {
    mode: VERSION,
    clientInfo: { name: "bench-client", version: "1.0.0" },
    onElicit: async () => CONFIRM_ANSWER,
  });
  const expected = confirmedText(ECHO_TEXT);
  return {
    serverCpu: remote.cpuMicros,
    call: () => client.callTool("ask", { text: ECHO_TEXT }),
    check(result) {
      const text = textOf(result);
      if (text !== expected) throw new Error(`expected "${expected}" from the floor server, got "${text}"`);
    },
    async close() {
      await client.close();
      await transport.close();
      fetcher.close();
      await remote.close();
    },
  };
}
