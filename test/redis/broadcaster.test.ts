// RedisBroadcaster against a real redis-server: two instances, each with its own Redis
// connections on one channel; a change on instance A reaches a listener held by instance B.
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer, type JsonRpcNotification } from "mcp-roundtrip/server";
import { Client } from "mcp-roundtrip/client";
import { serveHttp } from "mcp-roundtrip/node";
import { connectRedisBroadcaster, RedisBroadcaster, type ConnectedRedisBroadcaster } from "mcp-roundtrip/ext/redis";
import { startRedis, type Daemon } from "../support/daemons.js";
import { systemPrograms } from "../support/system.js";
import { meta } from "../server/helpers.js";

const programs = systemPrograms("the Redis broadcaster tests", [{ program: "redis-server", aptPackage: "redis-server" }]);
const SUB = "io.modelcontextprotocol/subscriptionId";

describe.skipIf(programs === undefined)("RedisBroadcaster on a real redis-server", () => {
  let redis: Daemon;
  let url: string;
  const open: ConnectedRedisBroadcaster[] = [];

  beforeAll(async () => {
    redis = await startRedis(programs!["redis-server"]!);
    url = `redis://127.0.0.1:${redis.port}`;
  }, 20_000);
  afterAll(async () => {
    await Promise.all(open.map((connected) => connected.close()));
    await redis?.stop();
  });

  async function instance(name: string, channel = "test:fleet") {
    const connected = await connectRedisBroadcaster(url, { channel });
    open.push(connected);
    return new McpServer({ name, version: "1.0.0" }, { subscriptions: { broadcaster: connected.broadcaster } });
  }

  it("a tool registered on instance A reaches the listener connected to instance B", async () => {
    const a = await instance("a");
    const b = await instance("b");
    const onB: JsonRpcNotification[] = [];
    const abort = new AbortController();
    const listening = b.handle(
      {
        jsonrpc: "2.0",
        id: "b-1",
        method: "subscriptions/listen",
        params: { _meta: meta(), notifications: { toolsListChanged: true, resourceSubscriptions: ["config://fleet"] } },
      },
      { signal: abort.signal, sendNotification: (notification) => void onB.push(notification) },
    );
    await expect.poll(() => onB.length).toBe(1);
    a.tool("deploy", {}, () => ({ content: [{ type: "text", text: "ok" }] }));
    a.resourceUpdated("config://fleet");
    await expect
      .poll(() => onB.map((n) => n.method), { timeout: 3_000 })
      .toEqual(["notifications/subscriptions/acknowledged", "notifications/tools/list_changed", "notifications/resources/updated"]);
    expect(onB[1]!.params).toEqual({ _meta: { [SUB]: "b-1" } });
    expect(onB[2]!.params).toEqual({ _meta: { [SUB]: "b-1" }, uri: "config://fleet" });
    abort.abort();
    expect(await listening).toBeUndefined();
  });

  it("over HTTP: client.subscribe on instance B hears a tool registered on instance A", async () => {
    const a = await instance("http-a", "test:http-fleet");
    const b = await instance("http-b", "test:http-fleet");
    const [httpA, httpB] = await Promise.all([serveHttp(a, { port: 0 }), serveHttp(b, { port: 0 })]);
    const client = await Client.connect(httpB.url);
    try {
      const subscription = client.subscribe({ toolsListChanged: true });
      await subscription.acknowledged;
      a.tool("registered-on-a", {}, () => ({ content: [{ type: "text", text: "a" }] }));
      const iterator = subscription[Symbol.asyncIterator]();
      expect((await iterator.next()).value).toMatchObject({ type: "acknowledged" });
      expect((await iterator.next()).value).toEqual({ type: "toolsListChanged" });
      await subscription.close();
    } finally {
      await client.close();
      await Promise.all([httpA.close({ graceMs: 0 }), httpB.close({ graceMs: 0 })]);
    }
  });

  it("another service's channel stays apart, and foreign messages on ours are reported, not delivered", async () => {
    const errors: Error[] = [];
    const publisher = createClient({ url }) as RedisClientType;
    await publisher.connect();
    const subscriber = publisher.duplicate();
    await subscriber.connect();
    const broadcaster = await RedisBroadcaster.create({ publisher, subscriber, channel: "test:mine", onError: (error) => errors.push(error) });
    const heard: unknown[] = [];
    broadcaster.subscribe((event) => heard.push(event));
    const other = await instance("other", "test:theirs");
    other.tool("elsewhere", {}, () => ({ content: [] }));
    await publisher.publish("test:mine", "not json");
    await publisher.publish("test:mine", JSON.stringify({ v: 1, type: "resourceUpdated" }));
    await broadcaster.publish({ type: "promptsListChanged" });
    await expect.poll(() => heard).toEqual([{ type: "promptsListChanged" }]);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(/ignored a message on test:mine: .*JSON/),
      "RedisBroadcaster: ignored a message on test:mine: not a subscription event of format 1",
    ]);
    await broadcaster.close();
    await expect(broadcaster.publish({ type: "toolsListChanged" })).rejects.toThrow(/closed/);
    await subscriber.close();
    await publisher.close();
  });

  it("refuses one connection for both roles", async () => {
    const client = createClient({ url }) as RedisClientType;
    await expect(RedisBroadcaster.create({ publisher: client, subscriber: client as never })).rejects.toThrow(/two connections/);
  });
});
