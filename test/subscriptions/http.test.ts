// subscriptions/listen over Streamable HTTP: one long-lived SSE response per listen POST,
// closed by the client (the cancellation signal on HTTP) or gracefully by the server's drain.
import { afterEach, describe, expect, it } from "vitest";
import { McpServer, createHttpHandler } from "mcp-roundtrip/server";
import { Client } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { mcpHeaders, META } from "../transport/helpers.js";

const SUB = "io.modelcontextprotocol/subscriptionId";
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const handles: HttpServerHandle[] = [];
afterEach(async () => void (await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })))));

/** Reads SSE `data:` messages off a response body as they arrive. */
function sseMessages(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return async function next(): Promise<Record<string, unknown> | undefined> {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        if (data !== "") return JSON.parse(data) as Record<string, unknown>;
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) return undefined;
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  };
}

async function openListen(url: string, id: number, notifications: Record<string, unknown>, signal?: AbortSignal) {
  const response = await fetch(url, {
    method: "POST",
    headers: mcpHeaders("subscriptions/listen"),
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { _meta: META, notifications } }),
    signal,
  });
  return { response, next: sseMessages(response) };
}

describe("subscriptions/listen over HTTP", () => {
  it("streams the acknowledgement and the changes on the POST's SSE response; closing it ends the listener", async () => {
    const mcp = new McpServer({ name: "http-listen", version: "1.0.0" });
    const handle = await serveHttp(mcp, { port: 0 });
    handles.push(handle);
    const abort = new AbortController();
    const { response, next } = await openListen(handle.url, 41, { toolsListChanged: true }, abort.signal);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [SUB]: 41 }, notifications: { toolsListChanged: true } },
    });
    mcp.tool("added", {}, () => text("x"));
    expect(await next()).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: 41 } } });
    expect(mcp.server.openSubscriptions).toBe(1);
    abort.abort();
    await expect.poll(() => mcp.server.openSubscriptions).toBe(0);
  });

  it("the drain answers every listener with its graceful result, then refuses new ones", async () => {
    const mcp = new McpServer({ name: "http-drain", version: "1.0.0" });
    const handle = await serveHttp(mcp, { port: 0 });
    const { next } = await openListen(handle.url, 7, { toolsListChanged: true });
    expect((await next())?.method).toBe("notifications/subscriptions/acknowledged");
    const closing = handle.close({ graceMs: 2_000 });
    expect(await next()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { resultType: "complete", _meta: { [SUB]: 7, "io.modelcontextprotocol/serverInfo": { name: "http-drain", version: "1.0.0" } } },
    });
    expect(await next()).toBeUndefined(); // the stream ends right after
    const started = Date.now();
    await closing;
    expect(Date.now() - started).toBeLessThan(1_500); // nothing waited out the grace
  });

  it("too many listeners: a JSON error answer, the open stream unharmed", async () => {
    const mcp = new McpServer({ name: "http-bound", version: "1.0.0" }, { subscriptions: { maxListeners: 1 } });
    const handle = await serveHttp(mcp, { port: 0 });
    handles.push(handle);
    const first = await openListen(handle.url, 1, { toolsListChanged: true });
    expect((await first.next())?.method).toBe("notifications/subscriptions/acknowledged");
    const second = await fetch(handle.url, {
      method: "POST",
      headers: mcpHeaders("subscriptions/listen"),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "subscriptions/listen", params: { _meta: META, notifications: {} } }),
    });
    expect(((await second.json()) as { error: { code: number; data: unknown } }).error).toMatchObject({
      code: -32000,
      data: { reason: "too_many_listeners", limit: 1 },
    });
    mcp.tool("t", {}, () => text("t"));
    expect((await first.next())?.method).toBe("notifications/tools/list_changed");
  });

  it("an idle stream gets SSE comment lines at sseKeepAliveMs, which clients skip", async () => {
    const mcp = new McpServer({ name: "http-keepalive", version: "1.0.0" });
    const handle = await serveHttp(mcp, { port: 0, sseKeepAliveMs: 50 });
    handles.push(handle);
    const response = await fetch(handle.url, {
      method: "POST",
      headers: mcpHeaders("subscriptions/listen"),
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true } } }),
    });
    const reader = response.body!.getReader();
    let raw = "";
    while ((raw.match(/: keepalive/g) ?? []).length < 2) raw += new TextDecoder().decode((await reader.read()).value);
    expect(raw).toContain("notifications/subscriptions/acknowledged");
    await reader.cancel();
    // Our client reads through them.
    const client = await Client.connect(handle.url);
    const subscription = client.subscribe({ toolsListChanged: true });
    const iterator = subscription[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: "acknowledged" });
    await new Promise((resolve) => setTimeout(resolve, 160));
    mcp.tool("after-comments", {}, () => text("x"));
    expect((await iterator.next()).value).toEqual({ type: "toolsListChanged" });
    await subscription.close();
    await client.close();
    expect(() => createHttpHandler(mcp, { sseKeepAliveMs: -1 })).toThrow(/sseKeepAliveMs must be an integer number of milliseconds ≥ 0/);
  });

  it("createHttpHandler's close() ends the listen streams of its server gracefully", async () => {
    const mcp = new McpServer({ name: "web-close", version: "1.0.0" });
    const handler = createHttpHandler(mcp);
    const response = await handler(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: mcpHeaders("subscriptions/listen"),
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "subscriptions/listen", params: { _meta: META, notifications: {} } }),
      }),
    );
    const next = sseMessages(response);
    expect((await next())?.method).toBe("notifications/subscriptions/acknowledged");
    handler.close();
    expect(await next()).toMatchObject({ id: 9, result: { resultType: "complete", _meta: { [SUB]: 9 } } });
    expect(mcp.server.openSubscriptions).toBe(0);
  });
});
