// Aborting a call, or its deadline passing, cancels the request on the wire
// on every transport and generation, and the server's handler sees it: over
// stdio and in a 2025 HTTP session as `notifications/cancelled` with the
// request's id, over 2026-07-28 HTTP as its response stream closed. A
// deadline throws RequestTimeout, naming the method and the time spent.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, RequestTimeout, type ClientOptions } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { ensureBuilt } from "./ensure-built.js";
import { watchfulServer } from "./fixtures/watchful-server.mjs";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

const until = async (check: () => boolean, what: string, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

let dir: string;
let http: HttpServerHandle;
const inProcess: Array<{ tool: string; tag?: string; cancelled: boolean }> = [];
beforeAll(async () => {
  ensureBuilt("runtime/entries/server.js");
  dir = mkdtempSync(join(tmpdir(), "mcp-cancel-"));
  http = await serveHttp(watchfulServer((event) => inProcess.push(event)));
}, 180_000);
afterAll(async () => {
  await http?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One wire and generation: how to connect, and where the server's events land. */
interface Wire {
  name: string;
  connect(
    options: ClientOptions & { mode?: "auto" | "2025-11-25" },
  ): Promise<{ client: Client; events: () => Array<{ tool: string; tag?: string; cancelled: boolean }> }>;
}

const overHttp = (mode: "auto" | "2025-11-25"): Wire => ({
  name: `HTTP, ${mode === "auto" ? "2026-07-28" : "a 2025-11-25 session"}`,
  async connect(options) {
    inProcess.length = 0;
    const client = (await Client.connect(http.url, { ...options, mode })) as Client;
    return { client, events: () => inProcess };
  },
});

const overStdio = (mode: "auto" | "2025-11-25"): Wire => ({
  name: `stdio, ${mode === "auto" ? "2026-07-28" : "2025-11-25"}`,
  async connect(options) {
    const log = join(dir, `${Math.random().toString(36).slice(2)}.log`);
    const client = (await Client.connect(
      { command: process.execPath, args: [fixture("serve-watchful-stdio.mjs")], env: { WATCH_LOG: log } },
      { ...options, mode },
    )) as Client;
    const events = () => {
      try {
        return readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { tool: string; tag?: string; cancelled: boolean });
      } catch {
        return [];
      }
    };
    return { client, events };
  },
});

const WIRES = [overHttp("auto"), overHttp("2025-11-25"), overStdio("auto"), overStdio("2025-11-25")];

describe.each(WIRES)("over $name", (wire) => {
  it("aborting a call's signal cancels it on the server, and the call rejects with the signal's reason at once", async () => {
    const { client, events } = await wire.connect({});
    try {
      const controller = new AbortController();
      const call = client.callTool(
        "progress",
        { ms: 10_000, every: 40, tag: "aborted" },
        { signal: controller.signal, onProgress: () => controller.abort(new Error("user pressed stop")) },
      );
      await expect(call).rejects.toThrow("user pressed stop");
      await until(() => events().some((event) => event.tag === "aborted"), "the tool to see the cancel");
      expect(events().filter((event) => event.tag === "aborted")).toEqual([{ tool: "progress", tag: "aborted", cancelled: true }]);
    } finally {
      await client.close();
    }
  });

  it("a call past its timeoutMs is cancelled on the server and throws RequestTimeout with the method and the time spent", async () => {
    const { client, events } = await wire.connect({});
    try {
      const started = Date.now();
      // onProgress makes the answer a stream over HTTP: a 2026-07-28 request is cancelled by closing it.
      const error = await client
        .callTool("progress", { ms: 10_000, every: 40, tag: "timed-out" }, { timeoutMs: 300, onProgress: () => {} })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestTimeout);
      expect(error).toMatchObject({ name: "RequestTimeout", method: "tools/call", retryable: true });
      expect((error as RequestTimeout).elapsedMs).toBeGreaterThanOrEqual(295);
      expect((error as Error).message).toMatch(/^tools\/call got no answer within 300 ms \(\d+ ms elapsed\); the client cancelled it\. Pass a longer timeoutMs/);
      expect(Date.now() - started).toBeLessThan(3_000);
      await until(() => events().some((event) => event.tag === "timed-out"), "the tool to see the cancel");
      expect(events().filter((event) => event.tag === "timed-out")).toEqual([{ tool: "progress", tag: "timed-out", cancelled: true }]);
    } finally {
      await client.close();
    }
  });

  it("progress restarts the deadline when asked (resetTimeoutOnProgress), within maxTotalTimeoutMs", async () => {
    const { client } = await wire.connect({});
    try {
      // Without resets, 250 ms ends a 700 ms call.
      await expect(client.callTool("progress", { ms: 700, every: 50 }, { timeoutMs: 250 })).rejects.toBeInstanceOf(RequestTimeout);
      const done = await client.callTool("progress", { ms: 700, every: 50 }, { timeoutMs: 250, resetTimeoutOnProgress: true });
      expect(done.content).toEqual([{ type: "text", text: expect.stringMatching(/^done after \d+ steps$/) }]);
      const capped = await client
        .callTool("progress", { ms: 2_000, every: 50 }, { timeoutMs: 250, resetTimeoutOnProgress: true, maxTotalTimeoutMs: 500 })
        .catch((e: unknown) => e);
      expect(capped).toBeInstanceOf(RequestTimeout);
      expect((capped as Error).message).toMatch(/^tools\/call got no answer within its total limit of 500 ms/);
    } finally {
      await client.close();
    }
  });
});

describe("the client's own timeoutMs", () => {
  it("bounds every request of the client, and a call's own timeoutMs overrides it", async () => {
    const events: Array<{ tool: string; tag?: string; cancelled: boolean }> = [];
    const client = await Client.connect(
      watchfulServer((event) => events.push(event)),
      { timeoutMs: 200 },
    );
    try {
      const error = await client.callTool("wait", { ms: 5_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestTimeout);
      expect((error as Error).message).toMatch(/^tools\/call got no answer within 200 ms/);
      expect((await client.callTool("wait", { ms: 400 }, { timeoutMs: 2_000 })).content).toEqual([{ type: "text", text: "waited" }]);
      await expect(client.request("tools/list", {}, { timeoutMs: 0 })).rejects.toThrow(
        /^timeoutMs must be a positive number of milliseconds \(or Infinity\), got 0\./,
      );
    } finally {
      await client.close();
    }
  });
});

describe("a stdio server that never answers", () => {
  it("makes Client.connect throw RequestTimeout for initialize instead of hanging, after sending notifications/cancelled for each request", async () => {
    const log = join(dir, "silent.log");
    const started = Date.now();
    const error = await Client.connect(
      { command: process.execPath, args: [fixture("silent-server.mjs")], env: { SILENT_LOG: log } },
      { timeoutMs: 400, probeTimeoutMs: 200 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestTimeout);
    expect(error).toMatchObject({ method: "initialize" });
    expect((error as Error).message).toMatch(/^initialize got no answer within 400 ms/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The failed connect closed the child's input, and this well-behaved server exited on its own.
    await until(() => readFileSync(log, "utf8").endsWith("eof\n"), "the server to see the end of its input");
    const seen = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .slice(0, -1)
      .map((line) => JSON.parse(line) as { id?: number; method: string; params?: { requestId?: number } });
    const ids = Object.fromEntries(seen.filter((m) => m.id !== undefined).map((m) => [m.method, m.id]));
    expect(Object.keys(ids)).toEqual(["server/discover", "initialize"]);
    expect(seen.filter((m) => m.method === "notifications/cancelled").map((m) => m.params?.requestId)).toEqual([ids["server/discover"], ids.initialize]);
  });
});

describe("an HTTP server that accepts and never answers", () => {
  it("makes Client.connect throw RequestTimeout for initialize, and closes each handshake request's connection, without a signal of the caller's", async () => {
    const events: string[] = [];
    const silent = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => events.push(`got ${(JSON.parse(body) as { method: string }).method}`));
      res.on("close", () => events.push(`closed ${(JSON.parse(body || "{}") as { method?: string }).method}`));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/mcp`;
      const error = await Client.connect(url, { timeoutMs: 300 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestTimeout);
      expect(error).toMatchObject({ method: "initialize" });
      // Advice for a handshake: no resetTimeoutOnProgress, which a silent server's initialize cannot use.
      expect((error as Error).message).toMatch(
        /^initialize got no answer within 300 ms \(\d+ ms elapsed\); the client cancelled it\. Is this target serving MCP\? A slow server needs a longer timeoutMs on Client\.connect\.$/,
      );
      await until(() => events.length === 4, "both handshake requests to be closed");
      expect(events).toEqual(["got server/discover", "closed server/discover", "got initialize", "closed initialize"]);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
