// Request-scoped notifications and cancellation: ctx.progress and the deprecated ctx.log reach
// the call's onProgress / onLog on its own response stream; the call's signal cancels the
// handler (HTTP: closing the stream; stdio: notifications/cancelled; in memory: the signal).
import { afterEach, describe, expect, it } from "vitest";
import { Client, type LogMessage, type ProgressUpdate } from "mcp-roundtrip/client";
import { McpServer, type ServerRequestContext } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { ensureBuilt } from "../client/ensure-built.js";
import { meta } from "../server/helpers.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const handles: HttpServerHandle[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

/** A server whose "slow" tool reports progress and logs, then waits for its signal or its time. */
function notifyingServer() {
  const mcp = new McpServer({ name: "notify", version: "1.0.0" });
  const state = { aborted: 0, reason: undefined as unknown, started: 0 };
  mcp.tool("slow", { inputSchema: { type: "object", properties: { ms: { type: "number" } } } }, async (args, ctx: ServerRequestContext) => {
    state.started++;
    await ctx.progress(1, 2, "halfway");
    await ctx.log("warning", { step: 1 }, "worker");
    await ctx.log("debug", "too chatty");
    await new Promise<void>((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        state.aborted++;
        state.reason = ctx.signal.reason;
        resolve();
      };
      const timer = setTimeout(resolve, Number(args.ms ?? 10_000));
      if (ctx.signal.aborted) onAbort();
      else ctx.signal.addEventListener("abort", onAbort);
    });
    await ctx.progress(2, 2);
    return text("done");
  });
  return { mcp, state };
}

async function connect(target: Parameters<typeof Client.connect>[0]) {
  const client = await Client.connect(target);
  clients.push(client);
  return client;
}

async function targets(mcp: McpServer) {
  const handle = await serveHttp(mcp, { port: 0 });
  handles.push(handle);
  return { memory: mcp, http: handle.url };
}

describe("progress and log messages of one call", () => {
  it.each(["memory", "http"] as const)("%s: reach onProgress and onLog, filtered by the level asked for", async (kind) => {
    const { mcp } = notifyingServer();
    const client = await connect((await targets(mcp))[kind]);
    const progress: ProgressUpdate[] = [];
    const logs: LogMessage[] = [];
    const result = await client.callTool("slow", { ms: 1 }, { onProgress: (update) => progress.push(update), onLog: (log) => logs.push(log), logLevel: "info" });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toEqual([
      { progress: 1, total: 2, message: "halfway" },
      { progress: 2, total: 2 },
    ]);
    expect(logs).toEqual([{ level: "warning", data: { step: 1 }, logger: "worker" }]);
  });

  it("without onProgress no token is sent, so ctx.progress sends nothing; without onLog no log messages", async () => {
    const { mcp } = notifyingServer();
    const seen: string[] = [];
    const client = await Client.connect(mcp, { onNotification: (notification) => seen.push(notification.method) });
    clients.push(client);
    await client.callTool("slow", { ms: 1 });
    expect(seen).toEqual([]);
  });

  it.each([
    ["with a progressToken", { progressToken: "t" }],
    ["without a progressToken", {}],
  ])("%s: ctx.progress skips a value that does not increase (or is not finite), warns once, and the tool still answers", async (_label, extra) => {
    const warnings: [string, Record<string, unknown> | undefined][] = [];
    const logger = { warn: (message: string, fields?: Record<string, unknown>) => warnings.push([message, fields]), error: () => {} };
    const mcp = new McpServer({ name: "p", version: "1" }, { logger });
    mcp.tool("backwards", {}, async (_args, ctx) => {
      await ctx.progress(5);
      await ctx.progress(5);
      await ctx.progress(3);
      await ctx.progress(Number.NaN);
      await ctx.progress(6);
      return text("finished");
    });
    const sent: unknown[] = [];
    const response = (await mcp.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: { ...meta(), ...extra }, name: "backwards" } },
      { sendNotification: (notification) => void sent.push(notification.params) },
    )) as unknown as { result: { content: { text: string }[] } };
    expect(response.result.content[0]!.text).toBe("finished");
    expect(sent).toEqual(
      "progressToken" in extra
        ? [
            { progressToken: "t", progress: 5 },
            { progressToken: "t", progress: 6 },
          ]
        : [],
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]![0]).toBe(
      "tools/call: ctx.progress(5) skipped: done must be a finite number greater than the last one (5); later skips in this request are not logged",
    );
    expect(warnings[0]![1]).toMatchObject({ method: "tools/call", requestId: 1, reason: "progress_not_increasing" });
  });
});

describe("cancellation through the call's signal", () => {
  it.each(["memory", "http"] as const)("%s: aborting the call aborts the handler's ctx.signal", async (kind) => {
    const { mcp, state } = notifyingServer();
    const client = await connect((await targets(mcp))[kind]);
    const abort = new AbortController();
    const call = client.callTool("slow", { ms: 10_000 }, { signal: abort.signal, onProgress: () => abort.abort(new Error("user gave up")) });
    await expect(call).rejects.toThrow();
    await expect.poll(() => state.aborted).toBe(1);
  });

  it("notifications/cancelled aborts the handler and no response is sent", async () => {
    const { mcp, state } = notifyingServer();
    const answer = mcp.handle({ jsonrpc: "2.0", id: "c1", method: "tools/call", params: { _meta: meta(), name: "slow", arguments: { ms: 10_000 } } });
    await expect.poll(() => state.started).toBe(1);
    await mcp.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c1", reason: "changed my mind" } });
    expect(await answer).toBeUndefined();
    expect(state.aborted).toBe(1);
    expect(state.reason).toBe("changed my mind");
  });

  it("stdio: the signal sends notifications/cancelled, which aborts the handler in the child", async () => {
    ensureBuilt("runtime/entries/server.js");
    const fixture = new URL("./fixtures/notify-server.mjs", import.meta.url).pathname;
    const client = await connect({ command: process.execPath, args: [fixture] });
    const abort = new AbortController();
    const progress: ProgressUpdate[] = [];
    const call = client.callTool(
      "slow",
      { ms: 10_000 },
      {
        signal: abort.signal,
        onProgress: (update) => {
          progress.push(update);
          abort.abort(new Error("stop"));
        },
      },
    );
    await expect(call).rejects.toThrow("stop");
    expect(progress).toEqual([{ progress: 1, total: 2, message: "halfway" }]);
    await expect.poll(async () => (await client.callTool("aborted")).content).toEqual([{ type: "text", text: "aborted" }]);
  });
});
