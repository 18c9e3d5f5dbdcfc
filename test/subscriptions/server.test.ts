// subscriptions/listen on the server: acknowledgement first, opt-in delivery with the
// subscription id, list-changed from registrations, the bound, unknown types, the ends.
import { describe, expect, it } from "vitest";
import { InProcessBroadcaster, McpServer, Server, type JsonRpcNotification } from "mcp-roundtrip/server";
import { meta } from "../server/helpers.js";

const INFO = { name: "listen-test", version: "1.0.0" };
const SUB = "io.modelcontextprotocol/subscriptionId";
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Opens one listen stream on `server` the way a transport does, collecting what it sends. */
function listen(server: { handle: Server["handle"] }, id: number | string, notifications: Record<string, unknown>, http = false) {
  const received: JsonRpcNotification[] = [];
  const abort = new AbortController();
  const context = {
    signal: abort.signal,
    sendNotification: (notification: JsonRpcNotification) => void received.push(JSON.parse(JSON.stringify(notification))),
    ...(http ? { headers: new Headers() } : {}),
  };
  const response = server.handle({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: meta(), notifications } }, context);
  return { received, response, abort, methods: () => received.map((n) => n.method) };
}

describe("subscriptions/listen", () => {
  it("acknowledges first, then delivers only what was asked, each with the subscription id", async () => {
    const mcp = new McpServer(INFO);
    const tools = listen(mcp, 7, { toolsListChanged: true });
    const prompts = listen(mcp, "p", { promptsListChanged: true, resourceSubscriptions: ["config://a"] });
    await tick();
    expect(tools.received).toEqual([
      { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: { [SUB]: 7 }, notifications: { toolsListChanged: true } } },
    ]);
    mcp.tool("late", {}, () => text("x"));
    mcp.prompt("p1", {}, () => []);
    mcp.resourceUpdated("config://a");
    mcp.resourceUpdated("config://other");
    expect(tools.received.slice(1)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: 7 } } }]);
    expect(prompts.methods()).toEqual(["notifications/subscriptions/acknowledged", "notifications/prompts/list_changed", "notifications/resources/updated"]);
    expect(prompts.received[2]!.params).toEqual({ _meta: { [SUB]: "p" }, uri: "config://a" });
    expect(prompts.received[0]!.params!.notifications).toEqual({ promptsListChanged: true, resourceSubscriptions: ["config://a"] });
    expect(mcp.server.openSubscriptions).toBe(2);
  });

  it("removing, disabling and re-enabling registrations each announce a change, and tools/list follows", async () => {
    const mcp = new McpServer(INFO);
    mcp.tool("a", {}, () => text("a")).tool("b", {}, () => text("b"));
    mcp.prompt("p", {}, () => []);
    mcp.resource("config://x", {}, () => "x");
    const stream = listen(mcp, 1, { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    await tick();
    const list = async () =>
      (
        (await mcp.handle({ jsonrpc: "2.0", id: 99, method: "tools/list", params: { _meta: meta() } })) as unknown as { result: { tools: { name: string }[] } }
      ).result.tools.map((t) => t.name);
    expect(mcp.setToolEnabled("a", false)).toBe(true);
    expect(await list()).toEqual(["b"]);
    expect(mcp.setToolEnabled("a", false)).toBe(false); // already disabled: no change, no notification
    expect(mcp.setToolEnabled("a", true)).toBe(true);
    expect(mcp.removeTool("b")).toBe(true);
    expect(mcp.removeTool("b")).toBe(false);
    expect(await list()).toEqual(["a"]);
    expect(mcp.setPromptEnabled("p", false)).toBe(true);
    expect(mcp.removePrompt("p")).toBe(true);
    expect(mcp.removeResource("config://x")).toBe(true);
    expect(() => mcp.setToolEnabled("nope", true)).toThrow(/no tool named "nope" is registered/);
    expect(stream.methods().slice(1)).toEqual([
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
      "notifications/prompts/list_changed",
      "notifications/resources/list_changed",
    ]);
  });

  it("advertises listChanged and subscribe in its capabilities", async () => {
    const mcp = new McpServer(INFO);
    mcp.tool("a", {}, () => text("a"));
    mcp.resource("config://x", {}, () => "x");
    const discover = (await mcp.handle({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta() } })) as unknown as {
      result: { capabilities: Record<string, unknown> };
    };
    expect(discover.result.capabilities).toMatchObject({ tools: { listChanged: true }, resources: { listChanged: true, subscribe: true } });
  });

  it("a low-level Server acknowledges only the types whose feature it advertises", async () => {
    const server = new Server(INFO, { onListTools: () => ({ tools: [] }) });
    const stream = listen(server, 1, { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] });
    await tick();
    expect(stream.received[0]!.params!.notifications).toEqual({ toolsListChanged: true });
    server.sendListChanged("prompts");
    server.sendListChanged("tools");
    expect(stream.methods()).toEqual(["notifications/subscriptions/acknowledged", "notifications/tools/list_changed"]);
  });

  it("an unknown subscription type gets -32602 naming it, and opens nothing", async () => {
    const mcp = new McpServer(INFO);
    const stream = listen(mcp, 3, { toolsListChanged: true, weatherChanged: true });
    const response = (await stream.response) as { error: { code: number; message: string; data: { unknown: string[] } } };
    expect(response.error.code).toBe(-32602);
    expect(response.error.message).toMatch(
      /unknown subscription type "weatherChanged".*knows toolsListChanged, promptsListChanged, resourcesListChanged, resourceSubscriptions/,
    );
    expect(response.error.data.unknown).toEqual(["weatherChanged"]);
    expect(stream.received).toEqual([]);
    expect(mcp.server.openSubscriptions).toBe(0);
  });

  it("past maxListeners answers -32000 too_many_listeners, and the open streams keep receiving", async () => {
    const mcp = new McpServer(INFO, { subscriptions: { maxListeners: 2 } });
    const first = listen(mcp, 1, { toolsListChanged: true });
    const second = listen(mcp, 2, { toolsListChanged: true });
    const third = listen(mcp, 3, { toolsListChanged: true });
    const refused = (await third.response) as { error: { code: number; message: string; data: unknown } };
    expect(refused.error).toEqual({
      code: -32000,
      message: expect.stringMatching(
        /^Too many subscriptions: this server holds at most 2 subscriptions\/listen streams at once \(subscriptions\.maxListeners\)\. Close a stream/,
      ),
      data: { reason: "too_many_listeners", limit: 2 },
    });
    await tick();
    mcp.tool("t", {}, () => text("t"));
    expect(first.methods()).toEqual(["notifications/subscriptions/acknowledged", "notifications/tools/list_changed"]);
    expect(second.methods()).toEqual(first.methods());
    // A slot freed is a slot usable again.
    first.abort.abort();
    expect(await first.response).toBeUndefined();
    const fourth = listen(mcp, 4, { toolsListChanged: true });
    await tick();
    expect(fourth.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
  });

  it("notifications/cancelled ends the stream with no response; the transport going away too", async () => {
    const mcp = new McpServer(INFO);
    const cancelled = listen(mcp, 10, { toolsListChanged: true });
    const dropped = listen(mcp, 11, { toolsListChanged: true }, true);
    await tick();
    await mcp.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10 } });
    expect(await cancelled.response).toBeUndefined();
    dropped.abort.abort(new Error("client closed the stream"));
    expect(await dropped.response).toBeUndefined();
    expect(mcp.server.openSubscriptions).toBe(0);
    mcp.tool("after", {}, () => text("x"));
    expect(cancelled.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
  });

  it("closeSubscriptions answers each stream with its graceful result (stdio-like: notifications/cancelled first)", async () => {
    const mcp = new McpServer(INFO);
    const pipe = listen(mcp, 5, { toolsListChanged: true });
    const http = listen(mcp, 6, { toolsListChanged: true }, true);
    await tick();
    expect(mcp.closeSubscriptions("maintenance")).toBe(2);
    expect(await pipe.response).toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { resultType: "complete", _meta: { [SUB]: 5, "io.modelcontextprotocol/serverInfo": INFO } },
    });
    expect(pipe.received[1]).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: { [SUB]: 5 }, requestId: 5, reason: "maintenance" } });
    expect(http.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
    expect(await http.response).toMatchObject({ id: 6, result: { _meta: { [SUB]: 6 } } });
    // Not final: listening again works. close() is final.
    const again = listen(mcp, 8, {});
    await tick();
    expect(again.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
    mcp.close();
    expect(await again.response).toMatchObject({ result: { resultType: "complete" } });
    const refused = (await listen(mcp, 9, {}).response) as { error: { message: string } };
    expect(refused.error.message).toMatch(/shutting down/);
  });

  it("a change on instance A reaches a listener on instance B through a shared broadcaster", async () => {
    const broadcaster = new InProcessBroadcaster();
    const a = new McpServer({ name: "a", version: "1" }, { subscriptions: { broadcaster } });
    const b = new McpServer({ name: "b", version: "1" }, { subscriptions: { broadcaster } });
    const onB = listen(b, 1, { toolsListChanged: true, resourceSubscriptions: ["config://shared"] });
    await tick();
    a.tool("from-a", {}, () => text("a"));
    a.resourceUpdated("config://shared");
    expect(onB.methods()).toEqual(["notifications/subscriptions/acknowledged", "notifications/tools/list_changed", "notifications/resources/updated"]);
    expect(broadcaster.subscribers).toBe(2);
    b.close();
    expect(broadcaster.subscribers).toBe(1);
  });

  it("rejects malformed subscription options at construction", () => {
    expect(() => new Server(INFO, {}, { subscriptions: { maxListeners: -1 } })).toThrow(/maxListeners must be an integer >= 0/);
    expect(() => new Server(INFO, {}, { subscriptions: { broadcaster: {} as never } })).toThrow(/broadcaster must have publish/);
    expect(() => new Server(INFO, {}, { subscriptions: { honour: ["bogus" as never] } })).toThrow(/honour must list some of/);
  });
});
