// client.subscribe over each transport: typed events from an async iterable and callbacks,
// breaking out ends the stream, a refusal ends the iterator with its error, a drop reconnects.
import { afterEach, describe, expect, it } from "vitest";
import { Client, McpError, type SubscriptionEvent } from "mcp-roundtrip/client";
import { McpServer } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { ensureBuilt } from "../client/ensure-built.js";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const handles: HttpServerHandle[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

async function connect(target: Parameters<typeof Client.connect>[0]) {
  const client = await Client.connect(target);
  clients.push(client);
  return client;
}

/** Takes `count` events from the iterator (then leaves the subscription running). */
async function take(iterator: AsyncIterator<SubscriptionEvent>, count: number): Promise<SubscriptionEvent[]> {
  const out: SubscriptionEvent[] = [];
  while (out.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

describe("client.subscribe", () => {
  it("in memory: typed events and callbacks; breaking out of the loop ends the server's listener", async () => {
    const mcp = new McpServer({ name: "sub", version: "1" });
    const client = await connect(mcp);
    const updated: string[] = [];
    let toolsChanged = 0;
    const subscription = client.subscribe(
      { toolsListChanged: true, resourceSubscriptions: ["config://a"] },
      { onToolsChanged: () => toolsChanged++, onResourceUpdated: (uri) => updated.push(uri) },
    );
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ["config://a"] });
    mcp.tool("new", {}, () => text("x"));
    mcp.resourceUpdated("config://a");
    mcp.prompt("ignored", {}, () => []); // not asked for: never delivered
    const seen: SubscriptionEvent[] = [];
    for await (const event of subscription) {
      seen.push(event);
      if (event.type === "resourceUpdated") break;
    }
    expect(seen).toEqual([
      { type: "acknowledged", notifications: { toolsListChanged: true, resourceSubscriptions: ["config://a"] }, reconnects: 0 },
      { type: "toolsListChanged" },
      { type: "resourceUpdated", uri: "config://a" },
    ]);
    expect(toolsChanged).toBe(1);
    expect(updated).toEqual(["config://a"]);
    expect(subscription.ended).toBe(true);
    expect(mcp.server.openSubscriptions).toBe(0);
  });

  it("onToolsChanged is the one-line form", async () => {
    const mcp = new McpServer({ name: "sub", version: "1" });
    const client = await connect(mcp);
    let calls = 0;
    const subscription = client.onToolsChanged(() => calls++);
    await subscription.acknowledged;
    mcp.tool("a", {}, () => text("a"));
    mcp.removeTool("a");
    await expect.poll(() => calls).toBe(2);
    await subscription.close();
    expect(mcp.server.openSubscriptions).toBe(0);
  });

  it("the signal option ends it; with reconnect: false a graceful close ends it too", async () => {
    const mcp = new McpServer({ name: "sub", version: "1" });
    const client = await connect(mcp);
    const abort = new AbortController();
    const bySignal = client.subscribe({ toolsListChanged: true }, { signal: abort.signal });
    const once = client.subscribe({ promptsListChanged: true }, { reconnect: false });
    await Promise.all([bySignal.acknowledged, once.acknowledged]);
    abort.abort();
    await expect.poll(() => bySignal.ended).toBe(true);
    expect(mcp.closeSubscriptions()).toBe(1);
    await expect.poll(() => once.ended).toBe(true);
    const events: SubscriptionEvent[] = [];
    for await (const event of once) events.push(event);
    expect(events).toEqual([{ type: "acknowledged", notifications: { promptsListChanged: true }, reconnects: 0 }]);
    const invalid = client.subscribe({}, { reconnect: { initialMs: 10, maxMs: 1 } });
    await expect(invalid.acknowledged).rejects.toThrow(/reconnect.maxMs \(1\) must be ≥ initialMs \(10\)/);
    expect(invalid.ended).toBe(true);
  });

  it("an unknown subscription type ends the subscription with the server's error", async () => {
    const client = await connect(new McpServer({ name: "sub", version: "1" }));
    const subscription = client.subscribe({ toolsListChanged: true, ...({ weatherChanged: true } as object) });
    await expect(subscription.acknowledged).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/unknown subscription type "weatherChanged"/) });
    const iterator = subscription[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toBeInstanceOf(McpError);
    expect((await iterator.next()).done).toBe(true);
  });

  it("over HTTP: a dropped stream is reopened with backoff, said so, and acknowledged again", async () => {
    const mcp = new McpServer({ name: "sub-http", version: "1" });
    const handle = await serveHttp(mcp, { port: 0 });
    handles.push(handle);
    const client = await connect(handle.url);
    const reconnecting: { attempt: number; delayMs: number; error: unknown }[] = [];
    const subscription = client.subscribe(
      { toolsListChanged: true },
      { reconnect: { initialMs: 20, maxMs: 100 }, onReconnecting: (info) => reconnecting.push(info) },
    );
    const iterator = subscription[Symbol.asyncIterator]();
    expect(await take(iterator, 1)).toEqual([{ type: "acknowledged", notifications: { toolsListChanged: true }, reconnects: 0 }]);
    handle.server.closeAllConnections(); // the stream is cut: no response, a drop
    expect(await take(iterator, 1)).toEqual([{ type: "acknowledged", notifications: { toolsListChanged: true }, reconnects: 1 }]);
    expect(reconnecting).toHaveLength(1);
    expect(reconnecting[0]).toMatchObject({ attempt: 1, delayMs: 20 });
    expect(reconnecting[0]!.error).toBeInstanceOf(Error);
    mcp.tool("after-drop", {}, () => text("x"));
    expect(await take(iterator, 1)).toEqual([{ type: "toolsListChanged" }]);
    // A graceful close (a drain elsewhere in the fleet) is reopened too.
    mcp.closeSubscriptions();
    expect(await take(iterator, 1)).toEqual([{ type: "acknowledged", notifications: { toolsListChanged: true }, reconnects: 2 }]);
    expect(reconnecting[1]).toMatchObject({ attempt: 1, error: undefined });
    await subscription.close();
    await expect.poll(() => mcp.server.openSubscriptions).toBe(0);
  });

  it("over stdio: the events of several subscriptions stay apart", async () => {
    ensureBuilt("runtime/entries/server.js");
    const fixture = new URL("./fixtures/notify-server.mjs", import.meta.url).pathname;
    const client = await connect({ command: process.execPath, args: [fixture] });
    const tools = client.subscribe({ toolsListChanged: true });
    const prompts = client.subscribe({ promptsListChanged: true });
    await tools.acknowledged;
    await prompts.acknowledged;
    await client.callTool("register");
    const iterator = tools[Symbol.asyncIterator]();
    expect(await take(iterator, 2)).toEqual([{ type: "acknowledged", notifications: { toolsListChanged: true }, reconnects: 0 }, { type: "toolsListChanged" }]);
    await tools.close();
    await prompts.close();
    const promptEvents: SubscriptionEvent[] = [];
    for await (const event of prompts) promptEvents.push(event);
    expect(promptEvents).toEqual([{ type: "acknowledged", notifications: { promptsListChanged: true }, reconnects: 0 }]);
  });
});
