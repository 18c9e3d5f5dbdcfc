// A call's progress and log messages are delivered once: to the call's own
// onProgress / onLog when it gave one, else to the client-wide onNotification
// (docs/client.md "Progress and log messages"). Both eras: the 2026-07-28 path
// and a 2025-11-25 session, in memory and over HTTP, against this SDK's server.
import { afterEach, describe, expect, it } from "vitest";
import { Client, type LogMessage, type ProgressUpdate } from "mcp-roundtrip/client";
import { McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";

const handles: HttpServerHandle[] = [];
type AnyClient = Client<"2025-11-25" | "2026-07-28">;
const clients: AnyClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

/** A server whose "work" tool sends one progress notification and one log message. */
function workingServer(): McpServer {
  const mcp = new McpServer({ name: "once", version: "1.0.0" });
  mcp.tool("work", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    await ctx.progress(1, 1, "done");
    await ctx.log("info", "working", "worker");
    return { content: [{ type: "text", text: "ok" }] };
  });
  return mcp;
}

const cases = [
  ["memory", "auto"],
  ["http", "auto"],
  ["memory", "2025-11-25"],
  ["http", "2025-11-25"],
] as const;

async function connect(kind: "memory" | "http", mode: "auto" | "2025-11-25", seen: string[]): Promise<AnyClient> {
  const mcp = workingServer();
  let target: McpServer | URL | string = mcp;
  if (kind === "http") {
    const handle = await serveHttp(mcp, { port: 0 });
    handles.push(handle);
    target = handle.url;
  }
  const client = await Client.connect(target, { mode, onNotification: (notification) => seen.push(notification.method) });
  clients.push(client);
  if (mode !== "auto") expect(client.protocolVersion).toBe(mode);
  return client;
}

describe("progress and log messages of a call are delivered once", () => {
  it.each(cases)("%s, mode %s: onProgress and onLog get theirs, onNotification gets neither", async (kind, mode) => {
    const seen: string[] = [];
    const client = await connect(kind, mode, seen);
    const progress: ProgressUpdate[] = [];
    const logs: LogMessage[] = [];
    await client.callTool("work", {}, { onProgress: (update) => progress.push(update), onLog: (log) => logs.push(log) });
    expect(progress).toEqual([{ progress: 1, total: 1, message: "done" }]);
    expect(logs).toEqual([{ level: "info", data: "working", logger: "worker" }]);
    expect(seen.filter((method) => method === "notifications/progress" || method === "notifications/message")).toEqual([]);
  });

  it.each(cases)("%s, mode %s: with onLog only, the log goes to onLog once and progress is not asked for", async (kind, mode) => {
    const seen: string[] = [];
    const client = await connect(kind, mode, seen);
    const logs: LogMessage[] = [];
    await client.callTool("work", {}, { onLog: (log) => logs.push(log) });
    expect(logs).toHaveLength(1);
    expect(seen.filter((method) => method === "notifications/progress" || method === "notifications/message")).toEqual([]);
  });

  it.each(cases)("%s, mode %s: a log message the call gave no onLog for still reaches onNotification, once", async (kind, mode) => {
    const seen: string[] = [];
    const client = await connect(kind, mode, seen);
    const progress: ProgressUpdate[] = [];
    // The caller's own _meta asks for log messages; only onProgress is given.
    await client.callTool("work", {}, { onProgress: (update) => progress.push(update), meta: { "io.modelcontextprotocol/logLevel": "debug" } });
    expect(progress).toHaveLength(1);
    expect(seen.filter((method) => method === "notifications/progress" || method === "notifications/message")).toEqual(["notifications/message"]);
  });
});
