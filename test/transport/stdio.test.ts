import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_LINE_BYTES, serveStdio } from "mcp-roundtrip/node";
import type { JsonRpcNotification } from "mcp-roundtrip/server";
import { ConnectionLost, StdioClientTransport } from "mcp-roundtrip/client";
import type { MessageHandler } from "../../runtime/transport/types.js";
import { rpc } from "./helpers.js";

const fixture = fileURLToPath(new URL("./fixtures/line-server.mjs", import.meta.url));

function collectLines(stream: PassThrough) {
  const lines: unknown[] = [];
  let buffer = "";
  stream.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      lines.push(JSON.parse(buffer.slice(0, newline)));
      buffer = buffer.slice(newline + 1);
    }
  });
  return lines;
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe("serveStdio", () => {
  const echo: MessageHandler = {
    async handle(message, context) {
      const request = message as { id?: number; method: string; params?: Record<string, unknown> };
      if (request.id === undefined) return undefined;
      if (request.method === "slow") {
        await context!.sendNotification!({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1 } });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 10_000);
          context!.signal!.addEventListener("abort", () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return { jsonrpc: "2.0", id: request.id, result: { method: request.method } };
    },
  };

  it("answers one message per line and nothing else on stdout", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines = collectLines(stdout);
    const handle = serveStdio(echo, { stdin, stdout });
    stdin.write(`${JSON.stringify(rpc("a", {}, 1))}\n${JSON.stringify(rpc("b", {}, 2))}\r\n`);
    stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/x" }) + "\n");
    await until(() => lines.length === 2);
    expect(lines).toEqual([
      { jsonrpc: "2.0", id: 1, result: { method: "a" } },
      { jsonrpc: "2.0", id: 2, result: { method: "b" } },
    ]);
    stdin.end();
    await handle.closed;
  });

  it("answers malformed lines and batches with errors and keeps serving", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines = collectLines(stdout);
    const handle = serveStdio(echo, { stdin, stdout, maxLineBytes: 400 });
    stdin.write("{oops\n");
    stdin.write("[1,2]\n");
    stdin.write(`${JSON.stringify(rpc("big", { pad: "x".repeat(800) }, 9))}\n`);
    stdin.write(`${JSON.stringify(rpc("ok", {}, 3))}\n`);
    await until(() => lines.length === 4);
    expect(lines.map((line) => (line as { error?: { code: number } }).error?.code ?? "ok")).toEqual([-32700, -32600, -32600, "ok"]);
    stdin.end();
    await handle.closed;
  });

  it("cancels a request on notifications/cancelled and never answers it", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines = collectLines(stdout);
    const handle = serveStdio(echo, { stdin, stdout });
    stdin.write(`${JSON.stringify(rpc("slow", {}, 5))}\n`);
    await until(() => lines.length === 1);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } })}\n`);
    stdin.write(`${JSON.stringify(rpc("after", {}, 6))}\n`);
    await until(() => lines.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1 } },
      { jsonrpc: "2.0", id: 6, result: { method: "after" } },
    ]);
    stdin.end();
    await handle.closed;
  });

  it("resolves closed when stdin ends, cancelling in-flight work", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines = collectLines(stdout);
    let reason: unknown;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const waiting: MessageHandler = {
      handle: (message, context) =>
        new Promise((resolve) => {
          started();
          // Only the cancellation can end this handler: there is no timer to fall back on.
          context!.signal!.addEventListener("abort", () => {
            reason = context!.signal!.reason;
            resolve({ jsonrpc: "2.0", id: (message as { id: number }).id, result: {} });
          });
        }),
    };
    const handle = serveStdio(waiting, { stdin, stdout });
    stdin.write(`${JSON.stringify(rpc("slow", {}, 1))}\n`);
    await running;
    stdin.end();
    await handle.closed;
    expect((reason as Error).message).toBe("stdin closed.");
    expect(lines).toEqual([]); // a cancelled request gets no answer
  });

  it("accepts a line of exactly DEFAULT_MAX_LINE_BYTES and refuses one byte more", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines = collectLines(stdout);
    const handle = serveStdio(echo, { stdin, stdout });
    const lineOf = (bytes: number, id: number) => {
      const head = `{"jsonrpc":"2.0","id":${id},"method":"fits","params":{"pad":"`;
      const tail = `"}}`;
      return head + "x".repeat(bytes - head.length - tail.length) + tail;
    };
    expect(DEFAULT_MAX_LINE_BYTES).toBe(4 * 1024 * 1024);
    stdin.write(`${lineOf(DEFAULT_MAX_LINE_BYTES, 1)}\n`);
    stdin.write(`${lineOf(DEFAULT_MAX_LINE_BYTES + 1, 2)}\n`);
    await until(() => lines.length === 2);
    expect(lines).toContainEqual({ jsonrpc: "2.0", id: 1, result: { method: "fits" } });
    expect(lines).toContainEqual(expect.objectContaining({ id: 2, error: expect.objectContaining({ code: -32600 }) }));
    stdin.end();
    await handle.closed;
  });

  it("stops, without crashing, when stdout breaks (the client went away)", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const errors: Error[] = [];
    const handle = serveStdio(echo, { stdin, stdout, onError: (error) => errors.push(error) });
    stdout.destroy(new Error("EPIPE"));
    stdin.write(`${JSON.stringify(rpc("late", {}, 1))}\n`);
    await handle.closed;
    expect(errors.map((error) => error.message)).toContain("EPIPE");
  });

  it("sends console.log to stderr while serving on process.stdout", async () => {
    const stdin = new PassThrough();
    const original = console.log;
    const handle = serveStdio(echo, { stdin });
    expect(console.log).toBe(console.error);
    stdin.end();
    await handle.closed;
    expect(console.log).toBe(original);
  });
});

describe("StdioClientTransport", () => {
  const open: StdioClientTransport[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((transport) => transport.close()));
  });
  const spawn = async (args: string[] = []) => {
    const transport = await StdioClientTransport.spawn({ command: process.execPath, args: [fixture, ...args], stderr: "pipe" });
    open.push(transport);
    return transport;
  };

  it("sends requests and matches responses by id, concurrently", async () => {
    const transport = await spawn();
    const [a, b] = await Promise.all([
      transport.request({ jsonrpc: "2.0", id: "a", method: "echo", params: { n: 1 } }),
      transport.request({ jsonrpc: "2.0", id: "b", method: "echo", params: { n: 2 } }),
    ]);
    expect(a).toEqual({ jsonrpc: "2.0", id: "a", result: { echoed: { n: 1 } } });
    expect(b).toEqual({ jsonrpc: "2.0", id: "b", result: { echoed: { n: 2 } } });
  });

  it("delivers progress notifications to the request that asked for them", async () => {
    const transport = await spawn();
    const seen: JsonRpcNotification[] = [];
    const response = await transport.request(
      { jsonrpc: "2.0", id: 1, method: "slow", params: { _meta: { progressToken: "tok" } } },
      { onNotification: (notification) => seen.push(notification) },
    );
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { done: true } });
    expect(seen.map((n) => n.params?.progress)).toEqual([1, 2]);
  });

  it("sends notifications/cancelled when the signal aborts", async () => {
    const notifications: JsonRpcNotification[] = [];
    const transport = await StdioClientTransport.spawn({
      command: process.execPath,
      args: [fixture],
      stderr: "pipe",
      onNotification: (n) => notifications.push(n),
    });
    open.push(transport);
    const controller = new AbortController();
    const pending = transport.request({ jsonrpc: "2.0", id: 42, method: "hang" }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user gave up")), 20);
    await expect(pending).rejects.toThrow("user gave up");
    await until(() => notifications.some((n) => n.method === "test/cancelled"));
    expect(notifications.find((n) => n.method === "test/cancelled")!.params).toEqual({ requestId: 42 });
  });

  it("ignores stray non-JSON output from the server", async () => {
    const transport = await spawn(["--noisy"]);
    const response = await transport.request({ jsonrpc: "2.0", id: 1, method: "echo", params: {} });
    expect(response).toMatchObject({ id: 1 });
  });

  it("rejects pending requests when the server exits, and later ones, with ConnectionLost naming the method and the exit", async () => {
    const transport = await spawn();
    const inFlight = await transport.request({ jsonrpc: "2.0", id: 1, method: "exit" }).catch((e: unknown) => e);
    expect(inFlight).toBeInstanceOf(ConnectionLost);
    expect(inFlight).toMatchObject({ name: "ConnectionLost", method: "exit", retryable: true });
    expect((inFlight as Error).message).toMatch(/^exit: The MCP server process exited \(code 3\) unexpectedly\. It may have run/);
    const after = await transport.request({ jsonrpc: "2.0", id: 2, method: "echo" }).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(ConnectionLost);
    expect((after as Error).message).toMatch(/^echo: The MCP server process exited \(code 3\) unexpectedly\. It was not sent/);
  });

  it("shuts down by closing stdin, and the server exits on its own", async () => {
    const transport = await spawn();
    let stderr = "";
    transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await transport.request({ jsonrpc: "2.0", id: 1, method: "echo" });
    await transport.close();
    expect(stderr).toContain("line-server stdin closed");
  });

  it("reports a command that cannot be started", async () => {
    await expect(StdioClientTransport.spawn({ command: "/nonexistent/mcp-server-binary" })).rejects.toThrow(/Could not start the MCP server/);
    await expect(StdioClientTransport.spawn({ command: "" })).rejects.toThrow(TypeError);
  });
});
