// The connect* helpers' connections, without a Redis: the options they give
// node-redis (fail fast, no offline queue, capped backoff), the error
// listener they always add (an unheard `error` event ends a Node process),
// one log line per outage, health, and clear errors for bad options.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { connectRedisBroadcaster, connectRedisReplayStore, type NodeRedisClient } from "mcp-roundtrip/ext/redis";
import { clientOptionsFor, reconnectDelay } from "../../runtime/ext/redis/connection.js";

/** A stand-in for a node-redis client: an EventEmitter with the flags and methods the helpers use. */
class FakeClient extends EventEmitter implements NodeRedisClient {
  isOpen = false;
  isReady = false;
  closed = 0;
  readonly sent: string[][] = [];
  async connect() {
    this.isOpen = this.isReady = true;
  }
  async sendCommand(args: string[]) {
    this.sent.push(args);
    return args[0] === "SUBSCRIBE" ? 1 : "OK";
  }
  async subscribe() {}
  async unsubscribe() {}
  async close() {
    this.closed++;
    this.isOpen = this.isReady = false;
  }
  duplicate() {
    return new FakeClient();
  }
}

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push({ level, message, ...(fields ? { fields } : {}) });
  return { lines, logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") } };
}

describe("connectRedisReplayStore with a client of yours", () => {
  it("connects it, listens for errors (one warn per outage, one info on recovery) and reports health", async () => {
    const client = new FakeClient();
    const { lines, logger } = recordingLogger();
    const connected = await connectRedisReplayStore({ client, logger });
    expect(client.listenerCount("error")).toBe(1);
    expect(connected.healthy()).toBe(true);

    client.isReady = false;
    // Without a listener these would throw ("Unhandled 'error' event") and end the process.
    client.emit("error", new Error("Socket closed unexpectedly"));
    client.emit("error", new Error("connect ECONNREFUSED 127.0.0.1:6379"));
    expect(connected.healthy()).toBe(false);
    client.isReady = true;
    client.emit("ready");
    expect(connected.healthy()).toBe(true);

    expect(lines).toEqual([
      {
        level: "warn",
        message: "Redis replay store: connection lost; reconnecting, and refusing what needs Redis meanwhile",
        fields: { reason: "Socket closed unexpectedly" },
      },
      { level: "info", message: "Redis replay store: connection back" },
    ]);
    await connected.close();
    await connected.close();
    expect(client.closed).toBe(1);
    expect(connected.healthy()).toBe(false);
  });

  it("leaves an open client's connection as it is", async () => {
    const client = new FakeClient();
    await client.connect();
    let connects = 0;
    client.connect = async () => void connects++;
    const connected = await connectRedisReplayStore({ client, logger: recordingLogger().logger });
    expect(connects).toBe(0);
    await connected.close();
  });
});

describe("connectRedisBroadcaster with a client of yours", () => {
  it("listens on a duplicate, both connections watched; healthy only while both are", async () => {
    const client = new FakeClient();
    let listening: FakeClient | undefined;
    client.duplicate = () => (listening = new FakeClient());
    const connected = await connectRedisBroadcaster({ client, logger: recordingLogger().logger });
    expect(listening?.isOpen).toBe(true);
    expect(client.listenerCount("error")).toBe(1);
    expect(listening!.listenerCount("error")).toBe(1);
    expect(connected.healthy()).toBe(true);
    listening!.isReady = false;
    expect(connected.healthy()).toBe(false);
    await connected.close();
    expect([client.closed, listening!.closed]).toEqual([1, 1]);
  });
});

describe("the createClient options", () => {
  it("fail fast by default: 500 ms per command, no offline queue, capped jittered backoff", () => {
    const options = clientOptionsFor({ url: "redis://127.0.0.1:6390" });
    expect(options).toMatchObject({ url: "redis://127.0.0.1:6390", disableOfflineQueue: true, commandOptions: { timeout: 500 } });
    const strategy = (options.socket as { reconnectStrategy: (retries: number) => number }).reconnectStrategy;
    expect(strategy(0)).toBeGreaterThanOrEqual(40);
    expect(strategy(0)).toBeLessThanOrEqual(50);
    for (let retries = 0; retries < 40; retries++) expect(strategy(retries)).toBeLessThanOrEqual(1_000);
    expect(strategy(30)).toBeGreaterThanOrEqual(800);
  });

  it("lets the caller's options win, and take its own limits", () => {
    const options = clientOptionsFor({
      commandTimeoutMs: 250,
      maxReconnectDelayMs: 5_000,
      clientOptions: { disableOfflineQueue: false, socket: { tls: true }, commandOptions: { asap: true } },
    });
    expect(options).toMatchObject({ disableOfflineQueue: false, commandOptions: { timeout: 250, asap: true }, socket: { tls: true } });
    expect(reconnectDelay(40, 5_000)).toBeLessThanOrEqual(5_000);
    expect(reconnectDelay(40, 5_000)).toBeGreaterThanOrEqual(4_000);
  });

  it("refuses malformed options, naming the option", async () => {
    await expect(connectRedisReplayStore({ url: 6379 as never })).rejects.toThrow(/"url" expected a string such as redis:\/\/127.0.0.1:6379/);
    await expect(connectRedisReplayStore({ client: {} as never })).rejects.toThrow(/"client" expected a node-redis client/);
    await expect(connectRedisReplayStore({ client: new FakeClient(), url: "redis://x" })).rejects.toThrow(/either "client" or "url"/);
    await expect(connectRedisReplayStore({ commandTimeoutMs: 0 })).rejects.toThrow(/"commandTimeoutMs" expected a positive number of milliseconds, got 0/);
    await expect(connectRedisBroadcaster(42 as never)).rejects.toThrow(/connectRedisBroadcaster: expected a Redis URL string/);
  });
});
