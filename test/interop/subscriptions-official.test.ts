// subscriptions/listen both ways with the official SDK 2.4.0 over Streamable HTTP on 127.0.0.1:
// its client (listen + setNotificationHandler) hears this SDK's list-changed and resources/updated,
// and this SDK's client.subscribe hears the changes its createMcpHandler publishes (handler.notify).
import { createServer, type Server as NodeServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { McpServer as OfficialMcpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client, type SubscriptionEvent } from "mcp-roundtrip/client";
import { InProcessBroadcaster, McpServer } from "mcp-roundtrip/server";
import { officialEventBus } from "mcp-roundtrip/ext/official";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { bridge } from "./peers.js";

const SUB = "io.modelcontextprotocol/subscriptionId";

describe("the official 2.4.0 client listening to this SDK's server", () => {
  let mcp: McpServer;
  let http: HttpServerHandle;
  beforeAll(async () => {
    mcp = new McpServer({ name: "roundtrip-listen", version: "1.0.0" });
    mcp.tool("first", {}, () => ({ content: [{ type: "text", text: "1" }] }));
    mcp.resource("config://app", {}, () => "v1");
    http = await serveHttp(mcp, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => http.close({ graceMs: 0 }));

  it("opens subscriptions/listen, gets the acknowledged filter, and receives list-changed and resources/updated", async () => {
    const client = new OfficialClient({ name: "official-listener", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    onTestFinished(() => client.close());
    const heard: { method: string; subscriptionId: unknown; uri?: unknown }[] = [];
    const record = (notification: { method: string; params?: Record<string, unknown> }) =>
      void heard.push({
        method: notification.method,
        subscriptionId: (notification.params?._meta as Record<string, unknown> | undefined)?.[SUB],
        ...(notification.params?.uri === undefined ? {} : { uri: notification.params.uri }),
      });
    client.setNotificationHandler("notifications/tools/list_changed", record);
    client.setNotificationHandler("notifications/resources/updated", record);
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");

    const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["config://app"] });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["config://app"] });
    mcp.tool("second", {}, () => ({ content: [{ type: "text", text: "2" }] }));
    mcp.resourceUpdated("config://app");
    await expect.poll(() => heard.map((entry) => entry.method)).toEqual(["notifications/tools/list_changed", "notifications/resources/updated"]);
    expect(heard[1]!.uri).toBe("config://app");
    expect(typeof heard[0]!.subscriptionId === "number" || typeof heard[0]!.subscriptionId === "string").toBe(true);

    // Its close() cancels; our server lets the listener go.
    await subscription.close();
    expect(await subscription.closed).toBe("local");
    await expect.poll(() => mcp.server.openSubscriptions).toBe(0);
  });

  it("sees our graceful closure as graceful", async () => {
    const client = new OfficialClient({ name: "official-listener", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    onTestFinished(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const subscription = await client.listen({ toolsListChanged: true });
    expect(mcp.closeSubscriptions()).toBe(1);
    expect(await subscription.closed).toBe("graceful");
  });
});

describe("this SDK's client listening to an official 2.4.0 server", () => {
  let server: NodeServer;
  let url: string;
  let handler: ReturnType<typeof createMcpHandler>;
  beforeAll(async () => {
    handler = createMcpHandler(
      () => {
        const official = new OfficialMcpServer(
          { name: "official-notifier", version: "2.4.0" },
          { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } } },
        );
        official.registerTool("only", { description: "a tool" }, async () => ({ content: [{ type: "text", text: "ok" }] }));
        return official;
      },
      { legacy: "reject" },
    );
    server = createServer(bridge(handler));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  });
  afterAll(async () => {
    await handler.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });

  it("client.subscribe receives the list-changed and resources/updated it publishes", async () => {
    const client = await Client.connect(url);
    onTestFinished(() => client.close());
    expect(client.protocolVersion).toBe("2026-07-28");
    let toolsChanged = 0;
    const subscription = client.subscribe({ toolsListChanged: true, resourceSubscriptions: ["file:///notes.txt"] }, { onToolsChanged: () => toolsChanged++ });
    const agreed = await subscription.acknowledged;
    expect(agreed).toEqual({ toolsListChanged: true, resourceSubscriptions: ["file:///notes.txt"] });
    const iterator = subscription[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: "acknowledged", reconnects: 0 });
    handler.notify.toolsChanged();
    expect((await iterator.next()).value).toEqual({ type: "toolsListChanged" } satisfies SubscriptionEvent);
    expect(toolsChanged).toBe(1);
    handler.notify.resourceUpdated("file:///notes.txt");
    expect((await iterator.next()).value).toEqual({ type: "resourceUpdated", uri: "file:///notes.txt" });
    await subscription.close();
  });
});

describe("a mixed fleet: an official createMcpHandler and our McpServer on one broadcaster (officialEventBus)", () => {
  it("a change on either side reaches the listeners of the other", async () => {
    const broadcaster = new InProcessBroadcaster();
    const errors: Error[] = [];
    const bus = officialEventBus(broadcaster, { onError: (error) => errors.push(error) });
    const handler = createMcpHandler(
      () => new OfficialMcpServer({ name: "official-member", version: "2.4.0" }, { capabilities: { tools: { listChanged: true } } }),
      { legacy: "reject", bus },
    );
    const server = createServer(bridge(handler));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const theirUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
    const ours = new McpServer({ name: "roundtrip-member", version: "1.0.0" }, { subscriptions: { broadcaster } });
    const ourHttp = await serveHttp(ours, { host: "127.0.0.1", port: 0 });
    const onTheirs = await Client.connect(theirUrl);
    const onOurs = await Client.connect(ourHttp.url);
    try {
      const theirListener = onTheirs.subscribe({ toolsListChanged: true })[Symbol.asyncIterator]();
      const ourListener = onOurs.subscribe({ toolsListChanged: true })[Symbol.asyncIterator]();
      expect((await theirListener.next()).value).toMatchObject({ type: "acknowledged" });
      expect((await ourListener.next()).value).toMatchObject({ type: "acknowledged" });
      ours.tool("registered-on-ours", {}, () => ({ content: [] }));
      expect((await theirListener.next()).value).toEqual({ type: "toolsListChanged" });
      expect((await ourListener.next()).value).toEqual({ type: "toolsListChanged" });
      handler.notify.toolsChanged();
      expect((await ourListener.next()).value).toEqual({ type: "toolsListChanged" });
      expect((await theirListener.next()).value).toEqual({ type: "toolsListChanged" });
      bus.publish({ kind: "no_such_change" } as never);
      expect(errors.map((error) => error.message)).toEqual([expect.stringMatching(/ignored an event that is no change this SDK carries/)]);
    } finally {
      await Promise.all([onTheirs.close(), onOurs.close()]);
      await ourHttp.close({ graceMs: 0 });
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});
