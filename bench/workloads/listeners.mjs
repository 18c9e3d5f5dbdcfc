// What 10,000 idle `subscriptions/listen` streams cost a server: each is opened
// (acknowledged) and then left open with nothing to say. Measured as heap growth
// of the process holding the server, the way pending.mjs measures pending exchanges.
import { McpServer } from "mcp-roundtrip/server";
import { garbageCollector, settledHeap } from "./pending.mjs";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench-client", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * Heap growth of one McpServer across `count` idle listener streams, opened
 * the way a connection-holding transport (stdio) opens them: a request, an
 * AbortController for its cancellation, a sink for its notifications. `warmup`
 * streams are opened and closed first so compiled code is in the baseline;
 * afterwards one tool registration must reach every stream (proving they are
 * live), and every stream is cancelled again.
 * @param {{ count: number, warmup: number }} sizes
 * @returns {Promise<{ heapGrowthBytes: number, perItemBytes: number }>}
 * @throws {Error} when a stream is not acknowledged or a change does not reach every stream
 */
export async function idleListeners({ count, warmup }) {
  const server = new McpServer({ name: "bench-listeners", version: "1.0.0" }, { subscriptions: { maxListeners: count + warmup } });
  return measureListeners(server, { count, warmup });
}

/**
 * The floor under that figure: the same requests, AbortControllers and
 * contexts, held by a handler that acknowledges, waits on the signal and
 * keeps nothing else. What the transport side of a stream costs anyway.
 * @param {{ count: number, warmup: number }} sizes
 */
export async function idleListenersFloor({ count, warmup }) {
  const waiting = new Set();
  const floor = {
    server: {
      get openSubscriptions() {
        return waiting.size;
      },
    },
    async handle(message, context) {
      context.sendNotification({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: message.params.notifications } });
      await new Promise((resolve) => {
        const entry = () => {
          waiting.delete(entry);
          resolve();
        };
        waiting.add(entry);
        context.signal.addEventListener("abort", entry, { once: true });
      });
      return undefined;
    },
    tool() {
      floorChanged = waiting.size; // it keeps no filter: every waiting stream would be told
    },
    close() {},
  };
  let floorChanged = 0;
  return measureListeners(floor, { count, warmup }, () => floorChanged);
}

async function measureListeners(server, { count, warmup }, delivered) {
  const collect = garbageCollector();
  let acknowledged = 0;
  let changed = 0;
  const sink = (notification) => {
    if (notification.method === "notifications/subscriptions/acknowledged") acknowledged++;
    else if (notification.method === "notifications/tools/list_changed") changed++;
  };
  const open = (from, to) => {
    const streams = [];
    for (let i = from; i < to; i++) {
      const abort = new AbortController();
      const answer = server.handle(
        { jsonrpc: "2.0", id: i + 1, method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true } } },
        { signal: abort.signal, sendNotification: sink },
      );
      streams.push({ abort, answer });
    }
    return streams;
  };
  const close = async (streams) => {
    for (const stream of streams) stream.abort.abort();
    await Promise.all(streams.map((stream) => stream.answer));
  };
  const warm = open(0, warmup);
  await settle();
  await close(warm);
  if (server.server.openSubscriptions !== 0) throw new Error("warm-up streams were not released");
  acknowledged = 0;
  const before = settledHeap(collect);
  const streams = open(warmup, warmup + count);
  await settle();
  const after = settledHeap(collect);
  if (acknowledged !== count) throw new Error(`${acknowledged} of ${count} streams were acknowledged`);
  server.tool("wake", {}, () => ({ content: [] }));
  await settle();
  if ((delivered?.() ?? changed) !== count) throw new Error(`a tool registration reached ${changed} of ${count} idle streams`);
  await close(streams);
  server.close();
  return { heapGrowthBytes: after - before, perItemBytes: (after - before) / count };
}

/** Lets the acknowledgements (sent after a microtask or two) go out. */
function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The same 10,000 idle streams through each SDK's web-standard HTTP handler,
 * driven in process with `Request` objects: ours is `createHttpHandler`, theirs
 * `createMcpHandler` (official 2.4.0). Each stream is a POST whose SSE response
 * has delivered its acknowledgement; both keep their default SSE keep-alive.
 * Afterwards one change must reach every stream, and all are cancelled.
 * @param {{ count: number, warmup: number, sdk: "ours" | "official" | "floor" }} options
 * @returns {Promise<{ heapGrowthBytes: number, perItemBytes: number }>}
 */
export async function webListeners({ count, warmup, sdk }) {
  const collect = garbageCollector();
  const { handle, announce, close } = await webHandler(sdk, count + warmup);
  const decoder = new TextDecoder();
  const open = async (from, to) => {
    const streams = [];
    for (let i = from; i < to; i++) {
      const abort = new AbortController();
      const response = await handle(
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
      const first = await readUntil(reader, decoder, "notifications/subscriptions/acknowledged");
      if (!first) throw new Error(`${sdk}: stream ${i} was not acknowledged (HTTP ${response.status})`);
      streams.push({ abort, reader });
    }
    return streams;
  };
  const shut = async (streams) => {
    for (const stream of streams) {
      stream.abort.abort();
      await stream.reader.cancel().catch(() => {});
    }
    await settle();
  };
  await shut(await open(0, warmup));
  const before = settledHeap(collect);
  const streams = await open(warmup, warmup + count);
  await settle();
  const after = settledHeap(collect);
  announce();
  for (const [i, stream] of streams.entries()) {
    if (!(await readUntil(stream.reader, decoder, "notifications/tools/list_changed"))) throw new Error(`${sdk}: stream ${i} missed the change`);
  }
  await shut(streams);
  await close();
  return { heapGrowthBytes: after - before, perItemBytes: (after - before) / count };
}

/** Reads chunks until one contains `marker`; false when the stream ends first. */
async function readUntil(reader, decoder, marker) {
  let seen = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return false;
    seen += decoder.decode(value, { stream: true });
    if (seen.includes(marker)) return true;
  }
}

/**
 * The floor under the web rows: a handler that reads the request, answers an
 * SSE stream with the acknowledgement, watches the request's abort signal
 * (both SDKs do, to notice a client that went away) and keeps nothing else
 * per stream but the stream's controller. What it holds per stream is what
 * the harness (a `Request` with an AbortController's signal, a web
 * `ReadableStream` read through a reader) costs any web-standard handler.
 */
function floorWebHandler() {
  const encoder = new TextEncoder();
  const frame = (message) => encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  const acknowledged = frame({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged" });
  const changed = frame({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  const open = new Set();
  const headers = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" };
  return {
    async handle(request) {
      const message = JSON.parse(await request.text());
      if (message.method !== "subscriptions/listen") throw new Error(`the floor handler answers subscriptions/listen only, not ${message.method}`);
      let controller;
      const body = new ReadableStream({
        start(streamController) {
          controller = streamController;
          controller.enqueue(acknowledged);
          open.add(controller);
        },
        cancel() {
          open.delete(controller);
        },
      });
      request.signal.addEventListener("abort", () => open.delete(controller), { once: true });
      return new Response(body, { status: 200, headers });
    },
    announce() {
      for (const controller of open) controller.enqueue(changed);
    },
    async close() {
      for (const controller of open) controller.close();
      open.clear();
    },
  };
}

async function webHandler(sdk, maxStreams) {
  if (sdk === "floor") return floorWebHandler();
  if (sdk === "ours") {
    const { createHttpHandler } = await import("mcp-roundtrip/server");
    const mcp = new McpServer({ name: "bench-web-listeners", version: "1.0.0" }, { subscriptions: { maxListeners: maxStreams } });
    const handler = createHttpHandler(mcp);
    return { handle: handler, announce: () => mcp.tool("wake", {}, () => ({ content: [] })), close: async () => handler.close() };
  }
  const { McpServer: OfficialMcpServer, createMcpHandler } = await import("@modelcontextprotocol/server");
  const handler = createMcpHandler(
    () => {
      const server = new OfficialMcpServer({ name: "bench-web-listeners", version: "2.4.0" }, { capabilities: { tools: { listChanged: true } } });
      server.registerTool("only", { description: "a tool" }, async () => ({ content: [] }));
      return server;
    },
    { legacy: "reject", maxSubscriptions: maxStreams },
  );
  return { handle: (request) => handler.fetch(request), announce: () => handler.notify.toolsChanged(), close: () => handler.close() };
}
