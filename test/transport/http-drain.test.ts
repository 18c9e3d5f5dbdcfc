// Graceful drain of serveHttp: close({ graceMs }) stops accepting, lets the
// requests in flight finish (SSE streams included), ends 2025 sessions, and
// cuts only what outlives the grace; the health path says serving or draining.
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle, type ServeHttpOptions } from "mcp-roundtrip/node";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { mcpHeaders, rpc } from "./helpers.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the server has `count` requests in flight: a fixed sleep loses the race on a loaded machine. */
async function inFlightReaches(handle: HttpServerHandle, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (handle.inFlight < count) {
    if (Date.now() > deadline) throw new Error(`the server never had ${count} request(s) in flight (it has ${handle.inFlight})`);
    await sleep(5);
  }
}

function slowServer() {
  const mcp = new McpServer({ name: "drain-test", version: "1.0.0" });
  mcp.tool("wait", { inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] } }, async (args) => {
    await sleep(Number(args.ms));
    return text(`waited ${String(args.ms)}`);
  });
  mcp.tool("chatty", { inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] } }, async (args, ctx) => {
    // A progress-style notification turns the answer into an SSE stream that stays open while the handler runs.
    await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "drain", progress: 1, message: "working" } });
    await sleep(Number(args.ms));
    return text("streamed");
  });
  return mcp;
}

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

async function serve(options: ServeHttpOptions = {}) {
  const handle = await serveHttp(slowServer(), { port: 0, ...options });
  handles.push(handle);
  return handle;
}

function callWait(url: string, ms: number, tool = "wait") {
  return fetch(url, { method: "POST", headers: mcpHeaders("tools/call", tool), body: JSON.stringify(rpc("tools/call", { name: tool, arguments: { ms } })) });
}

/** A GET over a fresh connection (fetch would reuse a pooled one). */
function getFresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false, headers: { connection: "close" } }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("close({ graceMs })", () => {
  it("lets a request in flight finish, refuses new connections, then resolves", async () => {
    const handle = await serve();
    const inFlight = callWait(handle.url, 400);
    await inFlightReaches(handle, 1);
    expect(handle.inFlight).toBe(1);
    const started = Date.now();
    const closing = handle.close({ graceMs: 5_000 });
    expect(handle.draining).toBe(true);
    await sleep(50);
    await expect(getFresh(handle.url)).rejects.toThrow(/ECONNREFUSED/);
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBe("close");
    expect(JSON.stringify(await response.json())).toContain("waited 400");
    await closing;
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("lets an open SSE answer of a 2026 request run to its end", async () => {
    const handle = await serve();
    const inFlight = callWait(handle.url, 300, "chatty");
    await inFlightReaches(handle, 1);
    const closing = handle.close({ graceMs: 5_000 });
    const response = await inFlight;
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const body = await response.text();
    expect(body).toContain("working");
    expect(body).toContain("streamed");
    await closing;
  });

  it("cuts what outlives the grace, and resolves soon after it", async () => {
    const handle = await serve();
    const inFlight = callWait(handle.url, 10_000).then(
      (response) => response.text(),
      (error: unknown) => error,
    );
    await inFlightReaches(handle, 1);
    const started = Date.now();
    await handle.close({ graceMs: 200 });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await inFlight).toBeInstanceOf(Error);
  });

  it("resolves at once with nothing in flight, and again when called twice", async () => {
    const handle = await serve();
    await (await callWait(handle.url, 1)).text(); // leaves an idle keep-alive connection behind
    const started = Date.now();
    const first = handle.close();
    expect(handle.close()).toBe(first);
    await first;
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("ends 2025 sessions and their GET streams", async () => {
    const handle = await serve();
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(handle.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
      }),
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.text();
    const stream = await fetch(handle.url, { headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } });
    expect(stream.status).toBe(200);
    const started = Date.now();
    await handle.close({ graceMs: 5_000 });
    await stream.text(); // ends instead of hanging until the grace
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

/** A keep-alive connection driven by hand: one request at a time, each answer read whole (content-length). */
async function keptAlive(url: string) {
  const { port } = new URL(url);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let closed = false;
  socket.once("close", () => (closed = true));
  socket.on("error", () => {});
  return {
    get closed() {
      return closed;
    },
    /** POSTs a tools/call of the `wait` tool and resolves with the answer's status line and headers, or "closed". */
    call(ms: number): Promise<{ status: number; connection: string | undefined } | "closed"> {
      const body = JSON.stringify(rpc("tools/call", { name: "wait", arguments: { ms } }));
      const headers = { ...mcpHeaders("tools/call", "wait"), host: `127.0.0.1:${port}`, "content-length": String(Buffer.byteLength(body)) };
      return new Promise((resolve) => {
        let text = "";
        const onData = (chunk: Buffer) => {
          text += chunk.toString();
          const end = text.indexOf("\r\n\r\n");
          const length = /content-length: (\d+)/i.exec(text)?.[1];
          if (end === -1 || length === undefined || text.length < end + 4 + Number(length)) return;
          socket.off("data", onData);
          socket.off("close", onClose);
          resolve({ status: Number(text.slice(9, 12)), connection: /\r\nconnection: ([^\r]+)/i.exec(text)?.[1]?.toLowerCase() });
        };
        const onClose = () => resolve("closed");
        socket.on("data", onData);
        socket.once("close", onClose);
        socket.write(
          `POST /mcp HTTP/1.1\r\n${Object.entries(headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join("\r\n")}\r\n\r\n${body}`,
        );
      });
    },
  };
}

describe("keep-alive connections during a drain", () => {
  it("stay open while the instance keeps accepting: a request on an idle one is answered, with Connection: close", async () => {
    const handle = await serve();
    const idle = await keptAlive(handle.url);
    expect(await idle.call(0)).toEqual({ status: 200, connection: "keep-alive" });
    const busy = await keptAlive(handle.url);
    const inFlight = busy.call(200);
    await inFlightReaches(handle, 1);
    const closing = handle.close({ graceMs: 5_000, keepAcceptingMs: 600 });
    // The request in flight ends during the drain: its answer says close, and its connection closes.
    expect(await inFlight).toEqual({ status: 200, connection: "close" });
    await sleep(100);
    expect(busy.closed).toBe(true);
    // The idle connection was not closed under a client (a proxy) that may be sending on it right now:
    // the request it carries is answered, and told that the connection ends.
    expect(idle.closed).toBe(false);
    expect(await idle.call(0)).toEqual({ status: 200, connection: "close" });
    await sleep(100);
    expect(idle.closed).toBe(true);
    await closing;
  });

  it("an SSE answer that started before the drain closes its connection when it ends", async () => {
    const handle = await serve({ healthPath: "/healthz" });
    const { port } = new URL(handle.url);
    const socket = connect(Number(port), "127.0.0.1");
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    let text = "";
    socket.on("data", (chunk) => (text += chunk));
    const body = JSON.stringify(rpc("tools/call", { name: "chatty", arguments: { ms: 300 } }));
    const headers = { ...mcpHeaders("tools/call", "chatty"), host: `127.0.0.1:${port}`, "content-length": String(Buffer.byteLength(body)) };
    socket.write(
      `POST /mcp HTTP/1.1\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}`)
        .join("\r\n")}\r\n\r\n${body}`,
    );
    while (!text.includes("working")) await sleep(10);
    expect(text).toMatch(/connection: keep-alive/i);
    const closing = handle.close({ graceMs: 5_000, keepAcceptingMs: 1_000 });
    await closed;
    expect(text).toContain("streamed");
    // It closed with its answer, not with the listener: the instance still accepts (and says it is draining).
    expect((await getFresh(handle.url.replace(/\/mcp$/, "/healthz"))).status).toBe(503);
    await closing;
  });
});

describe("healthPath", () => {
  it("answers 200 while serving and 503 while draining, without Host or token checks", async () => {
    const handle = await serve({ healthPath: "/healthz", verifyToken: () => undefined, drainKeepAcceptingMs: 300 });
    const base = handle.url.replace(/\/mcp$/, "");
    expect(await getFresh(`${base}/healthz`)).toEqual({ status: 200, body: '{"status":"serving"}' });
    const closing = handle.close({ graceMs: 1_000 });
    expect(await getFresh(`${base}/healthz`)).toEqual({ status: 503, body: '{"status":"draining"}' });
    await closing;
    await expect(getFresh(`${base}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("healthChecks: 503 degraded while one says false or throws, 200 once all say true; draining wins", async () => {
    let redisUp = true;
    let broken = false;
    const handle = await serve({
      healthPath: "/healthz",
      healthChecks: [
        () => redisUp,
        () => {
          if (broken) throw new Error("probe failed");
          return true;
        },
      ],
    });
    const base = handle.url.replace(/\/mcp$/, "");
    expect(await getFresh(`${base}/healthz`)).toEqual({ status: 200, body: '{"status":"serving"}' });
    redisUp = false;
    expect(await getFresh(`${base}/healthz`)).toEqual({ status: 503, body: '{"status":"degraded"}' });
    redisUp = true;
    broken = true;
    expect(await getFresh(`${base}/healthz`)).toEqual({ status: 503, body: '{"status":"degraded"}' });
    broken = false;
    expect(await getFresh(`${base}/healthz`)).toEqual({ status: 200, body: '{"status":"serving"}' });
    redisUp = false;
    const closing = handle.close({ graceMs: 1_000, keepAcceptingMs: 300 });
    expect(await getFresh(`${base}/healthz`)).toEqual({ status: 503, body: '{"status":"draining"}' });
    await closing;
  });

  it("refuses healthChecks that are not functions, or have no health path to answer on", async () => {
    await expect(serveHttp(slowServer(), { healthPath: "/healthz", healthChecks: [true as never] })).rejects.toThrow(/healthChecks must be an array of functions/);
    await expect(serveHttp(slowServer(), { healthChecks: [() => true] })).rejects.toThrow(/healthChecks need a healthPath/);
  });

  it("refuses a health path that is not a path, or is the endpoint itself", async () => {
    await expect(serveHttp(slowServer(), { healthPath: "healthz" })).rejects.toThrow(/healthPath must be a path/);
    await expect(serveHttp(slowServer(), { healthPath: "/mcp" })).rejects.toThrow(/other than the MCP endpoint/);
    await expect(serveHttp(slowServer(), { drainGraceMs: -1 })).rejects.toThrow(/drainGraceMs must be a number/);
  });
});

describe("handleSignals", () => {
  beforeAll(() => ensureBuilt("runtime/entries/node.js"), 180_000);

  it("drains on SIGTERM: the request in flight is answered, then the process exits 0 after onShutdown", async () => {
    const script = `
      import { McpServer } from "mcp-roundtrip/server";
      import { serveHttp } from "mcp-roundtrip/node";
      const mcp = new McpServer({ name: "signal-test", version: "1.0.0" });
      mcp.tool("wait", {}, async () => { await new Promise((r) => setTimeout(r, 500)); return { content: [{ type: "text", text: "done" }] }; });
      const handle = await serveHttp(mcp, { handleSignals: true, onShutdown: () => console.log("shutdown hook ran") });
      console.log(handle.url);
      setInterval(() => {}, 1000); // something else keeps the loop alive: the drain still exits`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    const url = await new Promise<string>((resolve) => {
      child.stdout.on("data", () => {
        const line = out.split("\n").find((candidate) => candidate.startsWith("http://"));
        if (line) resolve(line.trim());
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const inFlight = callWait(url, 0);
    await sleep(150);
    child.kill("SIGTERM");
    const response = await inFlight;
    expect(JSON.stringify(await response.json())).toContain("done");
    expect(await exited).toBe(0);
    expect(out).toContain("shutdown hook ran");
  }, 20_000);
});
