// Clients that do not read their SSE streams: the server holds at most maxStreamBufferBytes per stream
// for them, then closes that stream's connection (a 2025 client resumes it with Last-Event-ID; a
// 2026-07-28 request ends), so 50 MiB of notifications sent to an unread stream leave the server's
// RSS within twice the bound. A handler that awaits its notifications goes at the reader's pace.
// The server runs in a process of its own, so the memory measured is its alone.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpHandler } from "mcp-roundtrip/server";
import { McpServer } from "mcp-roundtrip/server";
import { measuredServer, type MeasuredServer } from "../support/measured-server.js";
import { META, PROTOCOL_VERSION } from "./helpers.js";
import { EventReader, INITIALIZE, POST_HEADERS } from "./session-wire.js";

const BOUND = 4 * 1024 * 1024; // the default maxStreamBufferBytes
const FLOOD = 6_400; // 6,400 notifications of 8 KB: 50 MiB
const BIG_URI = `config://big/${"x".repeat(8_000)}`;

const SERVER = `
  mcp = new McpServer({ name: "slow-readers", version: "1.0.0" });
  const BIG = ${JSON.stringify(BIG_URI)};
  const pad = "p".repeat(8_000);
  mcp.resource(BIG, { name: "big" }, () => "v");
  let aborted = 0;
  let finished = 0;
  // Notifications of 8 KB: not awaited (as a broadcast is), or awaited (paced by the reader).
  mcp.tool("flood", { inputSchema: { type: "object", properties: { count: { type: "number" }, paced: { type: "boolean" } } } }, async (args, ctx) => {
    for (let i = 0; i < args.count; i++) {
      const sent = ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "flood", progress: i, message: pad } });
      if (args.paced) await sent;
      else if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
      if (ctx.signal.aborted) {
        aborted++;
        break;
      }
    }
    finished++;
    return { content: [{ type: "text", text: "flooded" }] };
  });
  commands.update = async (count) => {
    for (let i = 0; i < count; i++) {
      mcp.resourceUpdated(BIG);
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  commands.aborted = () => aborted;
  // Resolves once \`count\` floods have finished since the server started.
  commands.floods = async (count) => {
    while (finished < count) await sleep(10);
  };`;

/** A request on a raw socket whose answer is never read: the client's kernel buffers fill, then the server's. */
interface Unread {
  status: number;
  headers: string;
  /** Starts reading at last; resolves with the rest of the answer once the server ended the connection. */
  readAll(): Promise<string>;
}

function unread(url: string, method: string, headers: Record<string, string>, body = ""): Promise<Unread> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname);
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      const end = head.indexOf("\r\n\r\n");
      if (end === -1) return;
      socket.off("data", onData);
      socket.pause(); // from here on nothing is read
      const rest: Buffer[] = [Buffer.from(head.slice(end + 4), "latin1")];
      resolve({
        status: Number(head.slice(9, 12)),
        headers: head.slice(0, end),
        readAll: () =>
          new Promise((done) => {
            socket.on("data", (more: Buffer) => void rest.push(more));
            socket.once("close", () => done(Buffer.concat(rest).toString("latin1")));
            socket.once("error", () => {}); // a cut connection may end with a reset
            socket.resume();
          }),
      });
    };
    socket.on("data", onData);
    socket.once("error", reject);
    const lines = Object.entries({ host: `${hostname}:${port}`, connection: "close", "content-length": String(Buffer.byteLength(body)), ...headers }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    socket.write(`${method} ${pathname} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body}`);
  });
}

const MODERN = { ...POST_HEADERS, "mcp-protocol-version": PROTOCOL_VERSION };
const flood = (count: number, paced: boolean) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "flood", arguments: { count, paced }, _meta: { ...META, progressToken: "flood" } },
  });

let server: MeasuredServer;
/** Floods the server has run so far. */
let floods = 0;
beforeAll(async () => {
  server = await measuredServer(SERVER);
}, 180_000);
afterAll(() => server?.stop());

/**
 * Runs `feed` twice (the first warms up; what it leaves behind, `feed`'s
 * returned cleanup removes) and resolves with the server's RSS growth over
 * the second, after a GC.
 */
async function rssGrowth(feed: () => Promise<(() => Promise<void>) | undefined>): Promise<number> {
  await (await feed())?.();
  const before = await server.memory();
  await feed();
  const after = await server.memory();
  return after.rss - before.rss;
}

/** A 2025 session on the wire: its id, and the DELETE that ends it. */
async function session(): Promise<{ id: string; end: () => Promise<void> }> {
  const response = await fetch(server.url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INITIALIZE) });
  await response.text();
  const id = response.headers.get("mcp-session-id")!;
  return { id, end: async () => void (await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": id } })).text() };
}

const figures: Record<string, number> = {};
afterAll(() => console.log(`RSS growth per 50 MiB sent to an unread stream (MiB; bound ${BOUND / 2 ** 20} MiB): ${JSON.stringify(figures)}`));

describe("an unread stream fed 50 MiB", () => {
  it("a 2025 session's GET stream: closed past the bound, resumable from its log, RSS within 2× the bound", async () => {
    let current!: Awaited<ReturnType<typeof session>>;
    let resumeFrom = "";
    const grown = await rssGrowth(async () => {
      current = await session();
      const subscribed = await fetch(server.url, {
        method: "POST",
        headers: { ...POST_HEADERS, "mcp-session-id": current.id, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: BIG_URI } }),
      });
      expect(subscribed.status).toBe(200);
      const stream = await unread(server.url, "GET", { accept: "text/event-stream", "mcp-session-id": current.id });
      expect(stream.status).toBe(200);
      await server.run("update", FLOOD);
      const got = await stream.readAll();
      expect(got.length, "cut by the server: far less than 50 MiB came").toBeLessThan(20 * 2 ** 20);
      resumeFrom = [...got.matchAll(/^id: (\S+)$/gm)].at(-1)![1]!; // the last event the client got
      return current.end;
    });
    figures.getStream = grown / 2 ** 20;
    expect(grown).toBeLessThan(2 * BOUND);
    // The client resumes after the last event it got: the updates the log still holds come again.
    const resumed = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": current.id, "last-event-id": resumeFrom } });
    expect(resumed.status).toBe(200);
    const reader = new EventReader(resumed);
    expect((await reader.until((messages) => messages.length >= 1))[0]).toMatchObject({ method: "notifications/resources/updated" });
    await reader.cancel();
    await current.end();
  }, 60_000);

  it("a 2025 call's POST stream: closed past the bound, its answer kept for a resume, RSS within 2× the bound", async () => {
    let current!: Awaited<ReturnType<typeof session>>;
    let resumeFrom = "";
    const grown = await rssGrowth(async () => {
      current = await session();
      const stream = await unread(
        server.url,
        "POST",
        { ...POST_HEADERS, "mcp-session-id": current.id, "mcp-protocol-version": "2025-11-25" },
        JSON.stringify({
          jsonrpc: "2.0",
          id: 3,
          method: "tools/call",
          params: { name: "flood", arguments: { count: FLOOD, paced: false }, _meta: { progressToken: "flood" } },
        }),
      );
      expect(stream.headers).toContain("text/event-stream");
      await server.run("floods", ++floods); // the flood's end; then the client reads what it got
      const got = await stream.readAll();
      expect(got.length, "cut by the server: far less than 50 MiB came").toBeLessThan(20 * 2 ** 20);
      expect(got).not.toContain("flooded");
      resumeFrom = [...got.matchAll(/^id: (\S+)$/gm)].at(-1)![1]!;
      return current.end;
    });
    figures.postStream = grown / 2 ** 20;
    expect(grown).toBeLessThan(2 * BOUND);
    // The call's answer went to the stream's log: the client resumes and gets it.
    const resumed = await fetch(server.url, { headers: { accept: "text/event-stream", "mcp-session-id": current.id, "last-event-id": resumeFrom } });
    expect(resumed.status).toBe(200);
    expect(await resumed.text()).toContain('"text":"flooded"');
    await current.end();
  }, 60_000);

  it("a 2026-07-28 request's stream: closed past the bound, the handler's signal aborted, RSS within 2× the bound", async () => {
    const before = (await server.run("aborted")) as number;
    const grown = await rssGrowth(async () => {
      const stream = await unread(server.url, "POST", { ...MODERN, "mcp-method": "tools/call", "mcp-name": "flood" }, flood(FLOOD, false));
      expect(stream.headers).toContain("text/event-stream");
      await server.run("floods", ++floods);
      const got = await stream.readAll();
      expect(got.length, "cut by the server: far less than 50 MiB came").toBeLessThan(20 * 2 ** 20);
      expect(got).not.toContain("flooded");
      return undefined;
    });
    figures.requestStream = grown / 2 ** 20;
    expect(grown).toBeLessThan(2 * BOUND);
    expect(((await server.run("aborted")) as number) - before).toBe(2);
  }, 60_000);

  it("a subscriptions/listen stream: closed past the bound, RSS within 2× the bound", async () => {
    const grown = await rssGrowth(async () => {
      const listen = JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method: "subscriptions/listen",
        params: { _meta: META, notifications: { resourceSubscriptions: [BIG_URI] } },
      });
      const stream = await unread(server.url, "POST", { ...MODERN, "mcp-method": "subscriptions/listen" }, listen);
      expect(stream.status).toBe(200);
      await server.run("update", FLOOD);
      expect((await stream.readAll()).length, "cut by the server: far less than 50 MiB came").toBeLessThan(20 * 2 ** 20);
      return undefined;
    });
    figures.listenStream = grown / 2 ** 20;
    expect(grown).toBeLessThan(2 * BOUND);
  }, 60_000);

  it("a handler that awaits its notifications waits for the reader: nothing is cut, and a late reader gets all 50 MiB", async () => {
    let body = "";
    const grown = await rssGrowth(async () => {
      const stream = await unread(server.url, "POST", { ...MODERN, "mcp-method": "tools/call", "mcp-name": "flood" }, flood(FLOOD, true));
      await new Promise((resolve) => setTimeout(resolve, 500)); // the handler runs until the buffers are full, then waits
      body = await stream.readAll();
      floods++;
      return undefined;
    });
    figures.pacedRequest = grown / 2 ** 20;
    expect(grown).toBeLessThan(2 * BOUND);
    expect(body.split("notifications/progress").length - 1).toBe(FLOOD);
    expect(body).toContain("flooded");
  }, 60_000);
});

describe("the web-standard handler's streams", () => {
  /** A handler whose tool sends `count` notifications of 8 KB, awaited or not; it counts what it sent and whether it was aborted. */
  function flooder() {
    const seen = { sent: 0, aborted: false };
    const mcp = new McpServer({ name: "web-slow-readers", version: "1.0.0" });
    mcp.tool("flood", { inputSchema: { type: "object", properties: { count: { type: "number" }, paced: { type: "boolean" } } } }, async (args, ctx) => {
      for (let i = 0; i < Number(args.count); i++) {
        const sent = ctx.sendNotification({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: "flood", progress: i, message: "p".repeat(8_000) },
        });
        seen.sent++;
        if (args.paced) await sent;
        else if (i % 16 === 15) await new Promise((resolve) => setImmediate(resolve));
        if (ctx.signal.aborted) {
          seen.aborted = true;
          break;
        }
      }
      return { content: [{ type: "text" as const, text: "flooded" }] };
    });
    const handler = createHttpHandler(mcp, { maxStreamBufferBytes: 256 * 1024 });
    const call = (count: number, paced: boolean) =>
      handler(
        new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...MODERN, "mcp-method": "tools/call", "mcp-name": "flood" }, body: flood(count, paced) }),
      );
    return { seen, call };
  }

  it("an unread Response body errors once more than maxStreamBufferBytes waits, and the handler's signal aborts", async () => {
    const { seen, call } = flooder();
    const response = await call(1_000, false);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    while (!seen.aborted && seen.sent < 1_000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen.aborted).toBe(true);
    expect(seen.sent).toBeLessThan(100); // about 256 KiB of 8 KB notifications, not 8 MB
    await expect(response.text()).rejects.toThrow();
  });

  it("a handler that awaits its notifications waits for the reader (desiredSize), and a late reader gets them all", async () => {
    const { seen, call } = flooder();
    const response = await call(200, true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.sent).toBeLessThan(20); // the stream's queue (64 KiB) is full: the handler waits
    const body = await response.text();
    expect(body.split("notifications/progress").length - 1).toBe(200);
    expect(body).toContain("flooded");
    expect(seen.aborted).toBe(false);
  });
});

describe("maxStreamBufferBytes", () => {
  it("refuses what is not an integer number of bytes ≥ 1024, saying so", () => {
    const mcp = new McpServer({ name: "bounds", version: "1.0.0" });
    for (const bad of [0, 512, 1.5, -1, Number.NaN, "4MiB" as never]) {
      expect(() => createHttpHandler(mcp, { maxStreamBufferBytes: bad })).toThrow(/maxStreamBufferBytes must be an integer number of bytes ≥ 1024, got/);
    }
    expect(() => createHttpHandler(mcp, { maxStreamBufferBytes: 1024 })).not.toThrow();
  });
});
