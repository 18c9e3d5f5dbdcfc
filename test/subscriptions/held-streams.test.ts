// subscriptions/listen over the web-standard handler once the acknowledgement is out: the transport then
// holds the stream in the request's place (the request's contexts and exchange go), and what the client
// sees must not change: later changes with their filter and id, keep-alive comments, the end on cancel,
// abort, close or notifications/cancelled, the bound.
import { describe, expect, it } from "vitest";
import { McpServer, createHttpHandler } from "mcp-roundtrip/server";
import { mcpHeaders, META } from "../transport/helpers.js";

const SUB = "io.modelcontextprotocol/subscriptionId";
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One listen POST through `handler`; its SSE body read as messages, keep-alive comments counted. */
async function openListen(handler: (request: Request) => Promise<Response>, id: number, notifications: Record<string, unknown>) {
  const abort = new AbortController();
  const request = new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: mcpHeaders("subscriptions/listen"),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: META, notifications } }),
    signal: abort.signal,
  });
  const response = await handler(request);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let comments = 0;
  /** The next message, or `undefined` once the stream ended. */
  const next = async (): Promise<Record<string, unknown> | undefined> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (event.startsWith(":")) {
          comments++;
          continue;
        }
        const data = event
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        return JSON.parse(data) as Record<string, unknown>;
      }
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
  /** Reads until `count` keep-alive comments arrived in all (the stream is otherwise silent meanwhile). */
  const commentsUntil = async (count: number): Promise<void> => {
    while (comments < count) {
      const chunk = await reader.read();
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0 && buffer.startsWith(":"); end = buffer.indexOf("\n\n")) {
        buffer = buffer.slice(end + 2);
        comments++;
      }
    }
  };
  const acknowledged = await next();
  expect(acknowledged?.method).toBe("notifications/subscriptions/acknowledged");
  // The hand-over follows the acknowledgement within a few turns: every step below runs after it.
  await sleep(5);
  return { request, response, reader, abort, next, commentsUntil };
}

describe("a listen stream its transport holds after the acknowledgement", () => {
  it("delivers later changes, only those of its filter, each with its subscription id, and keep-alive comments", async () => {
    const mcp = new McpServer({ name: "held-delivery", version: "1.0.0" });
    mcp.resource("config://a", {}, () => "a");
    const handler = createHttpHandler(mcp, { sseKeepAliveMs: 20 });
    const stream = await openListen(handler, 11, { toolsListChanged: true, resourceSubscriptions: ["config://a"] });
    mcp.prompt("not-asked", {}, () => []);
    mcp.tool("later", {}, () => text("x"));
    mcp.resourceUpdated("config://other");
    mcp.resourceUpdated("config://a");
    expect(await stream.next()).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: 11 } } });
    expect(await stream.next()).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta: { [SUB]: 11 }, uri: "config://a" } });
    await stream.commentsUntil(2);
    mcp.tool("after-comments", {}, () => text("y"));
    expect((await stream.next())?.method).toBe("notifications/tools/list_changed");
    handler.close();
    expect(await stream.next()).toMatchObject({ id: 11, result: { resultType: "complete", _meta: { [SUB]: 11 } } });
    expect(await stream.next()).toBeUndefined();
  });

  it("ends when the reader cancels it, and when the request's signal aborts", async () => {
    const mcp = new McpServer({ name: "held-ends", version: "1.0.0" });
    const handler = createHttpHandler(mcp);
    const cancelled = await openListen(handler, 1, { toolsListChanged: true });
    const aborted = await openListen(handler, 2, { toolsListChanged: true });
    expect(mcp.server.openSubscriptions).toBe(2);
    await cancelled.reader.cancel();
    expect(mcp.server.openSubscriptions).toBe(1);
    aborted.abort.abort();
    expect(mcp.server.openSubscriptions).toBe(0);
    expect(await aborted.next()).toBeUndefined(); // closed, with no answer: the client went away
    mcp.tool("nobody-listens", {}, () => text("x")); // nothing is written to either
    handler.close();
  });

  it("counts toward maxListeners while held, and its end frees its place", async () => {
    const mcp = new McpServer({ name: "held-bound", version: "1.0.0" }, { subscriptions: { maxListeners: 1 } });
    const handler = createHttpHandler(mcp);
    const first = await openListen(handler, 1, { toolsListChanged: true });
    const refused = await handler(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: mcpHeaders("subscriptions/listen"),
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "subscriptions/listen", params: { _meta: META, notifications: {} } }),
      }),
    );
    expect(((await refused.json()) as { error: { code: number; data: unknown } }).error).toMatchObject({
      code: -32000,
      data: { reason: "too_many_listeners", limit: 1 },
    });
    await first.reader.cancel();
    const again = await openListen(handler, 3, { toolsListChanged: true });
    mcp.tool("t", {}, () => text("t"));
    expect(await again.next()).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: 3 } } });
    handler.close();
  });

  it("ends on a notifications/cancelled that reaches its request from a transport without HTTP headers, as the request did", async () => {
    const mcp = new McpServer({ name: "held-cancelled", version: "1.0.0" });
    const handler = createHttpHandler(mcp);
    const stream = await openListen(handler, 5, { toolsListChanged: true });
    // Over HTTP closing the stream is the cancellation; this one comes from another transport of the same server.
    await mcp.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "no longer needed" } });
    expect(mcp.server.openSubscriptions).toBe(0);
    expect(await stream.next()).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32603, message: "Internal error: the server produced no response" },
    });
    expect(await stream.next()).toBeUndefined();
  });
});
