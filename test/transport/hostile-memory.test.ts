// Issue 36, item 7: what a hostile 2025 client can make a server hold, measured as the server's heap
// after a full GC (the server runs in a child process of its own, node --expose-gc). Before the
// bounds, 300 abandoned calls with 256 KiB of arguments took the heap from 10 to 239 MiB through the
// shim, and 32 finished results of 3 MB kept 195 MiB on one idle session until it timed out.
import { afterEach, describe, expect, it } from "vitest";
import { measuredServer, type MeasuredServer } from "../support/measured-server.js";
import { EventReader, readEvents, wireClient } from "./session-wire.js";

const MIB = 1024 * 1024;
const SHIM_SERVER = `
  import { inputRequired } from "mcp-roundtrip/server";
  mcp = new McpServer({ name: "hostile-memory", version: "1.0.0" }, { legacyInputRequired: "shim" });
  const form = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
  // A handler that asks by hand: over a 2025 session the shim asks over the POST's stream and waits.
  mcp.tool("ask", { inputSchema: { type: "object" } }, (_args, ctx) =>
    ctx.inputResponses?.confirm
      ? { content: [{ type: "text", text: "done" }] }
      : inputRequired({ inputRequests: { confirm: { method: "elicitation/create", params: { mode: "form", message: "Sure?", requestedSchema: form } } }, requestState: "asked" }));
  mcp.tool("big", { inputSchema: { type: "object" } }, async (args, ctx) => {
    await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "big", progress: 1 } });
    return { content: [{ type: "text", text: "x".repeat(args.size) }] };
  });`;

const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

let server: MeasuredServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Sends `count` calls of `ask` with `args` on `client`, each dropped once its question arrived; returns how many were admitted. */
async function abandonCalls(client: ReturnType<typeof wireClient>, count: number, args: Record<string, unknown>, firstId = 2): Promise<number> {
  let admitted = 0;
  for (let id = firstId; id < firstId + count; id++) {
    const response = await client.post(call(id, "ask", args));
    if (response.status === 429) {
      await response.text();
      continue;
    }
    expect(response.status).toBe(200);
    const reader = new EventReader(response);
    await reader.until((messages) => messages.some((message) => message.method === "elicitation/create"));
    await reader.cancel();
    admitted++;
  }
  return admitted;
}

const blob = { blob: "a".repeat(256 * 1024) };

describe("abandoned 2025 calls", () => {
  it("hold at most one session's share: 300 calls of 256 KiB keep the heap within a few times the session's byte budget", async () => {
    server = await measuredServer(SHIM_SERVER, { maxPendingBytesPerSession: 8 * MIB });
    const client = wireClient(server.url);
    await client.initialize();
    const before = (await server.memory()).heapUsed;
    const admitted = await abandonCalls(client, 300, blob);
    const grown = (await server.memory()).heapUsed - before;
    // 8 MiB of request bodies: about 31 calls of 256 KiB, the rest refused with 429.
    expect(admitted).toBeGreaterThanOrEqual(25);
    expect(admitted).toBeLessThanOrEqual(32);
    expect(grown, `heap grew ${(grown / MIB).toFixed(1)} MiB for ${admitted} waiting calls`).toBeLessThan(2 * 8 * MIB);
  }, 120_000);

  it("hold at most one principal's share over all its sessions", async () => {
    server = await measuredServer(SHIM_SERVER, { maxPendingBytesPerPrincipal: 8 * MIB });
    const clients = Array.from({ length: 4 }, () => wireClient(server!.url));
    for (const client of clients) await client.initialize();
    const before = (await server.memory()).heapUsed;
    let admitted = 0;
    for (const client of clients) admitted += await abandonCalls(client, 60, blob);
    const grown = (await server.memory()).heapUsed - before;
    expect(admitted).toBeLessThanOrEqual(32);
    expect(grown, `heap grew ${(grown / MIB).toFixed(1)} MiB for ${admitted} waiting calls`).toBeLessThan(2 * 8 * MIB);
  }, 120_000);
});

describe("finished 2025 streams kept for resumption", () => {
  /** 32 calls of `big` on one session, each answer read in full; the heap grown once they are all finished. */
  async function finishedResults(size: number): Promise<number> {
    server = await measuredServer(SHIM_SERVER, { maxStreamBufferBytes: 8 * MIB }); // a stream may keep 2 MiB
    const client = wireClient(server.url);
    await client.initialize();
    const before = (await server.memory()).heapUsed;
    for (let id = 2; id < 34; id++) {
      const events = await readEvents(await client.post(call(id, "big", { size })), () => false);
      expect(events.at(-1)!.data.length).toBeGreaterThan(size); // the answer reached the client
    }
    return (await server.memory()).heapUsed - before;
  }

  it("never keep a result larger than a stream's bound: 32 results of 3 MB leave the idle session's heap small", async () => {
    const grown = await finishedResults(3_000_000);
    expect(grown, `heap grew ${(grown / MIB).toFixed(1)} MiB`).toBeLessThan(2 * MIB);
  }, 120_000);

  it("keep at most the session's replay budget of results that fit a stream: 32 of 900 kB", async () => {
    const grown = await finishedResults(900_000);
    // The default maxReplayBytesPerSession, 4 MiB of text (ASCII here, one byte a character), plus slack.
    expect(grown, `heap grew ${(grown / MIB).toFixed(1)} MiB`).toBeLessThan(6 * MIB);
  }, 120_000);
});
